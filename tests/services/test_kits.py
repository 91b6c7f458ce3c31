"""Starter kits: which exist (every game's starter bots, every bots/examples/<language>/ with a
README) and their zips (deterministic, only regular files of the kit)."""

from __future__ import annotations

import io
import os
import zipfile

import pytest

from ladder.games import available_games, get_game
from ladder.services import kits


def _names(data: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert {info.date_time for info in archive.infolist()} == {kits.EPOCH}
        return archive.namelist()


def test_every_starter_bot_of_every_game_is_a_python_kit():
    expected = {(game, bot) for game in available_games() for bot in get_game(game).starter_bots}
    assert {(kit.game, kit.bot) for kit in kits.python_kits()} == expected
    assert kits.python_kit("treasure", "nope") is None


def test_python_kit_zips_are_cached_and_deterministic():
    kit = kits.python_kit("treasure", "random")
    assert kits.python_kit_zip(kit) is kits.python_kit_zip(kit)
    assert _own(kits.python_kit_zip(kit)) == ["bots/__init__.py", "bots/sdk.py", "main.py"]
    assert kits.zip_bytes({"a": b"1", "b": b"2"}) == kits.zip_bytes({"b": b"2", "a": b"1"})


def test_a_language_folder_added_later_is_a_kit_by_itself(tmp_path):
    (tmp_path / "go").mkdir()
    (tmp_path / "go" / "README.md").write_text("intro\n# A Drachengold bot in Go\n")
    (tmp_path / "go" / "main.go").write_text("package main\n")
    (tmp_path / "go" / "lib").mkdir()
    (tmp_path / "go" / "lib" / "util.go").write_text("package lib\n")
    (tmp_path / "notes").mkdir()  # no README: not a kit
    (tmp_path / "README.md").write_text("not a folder\n")
    found = kits.language_kits(tmp_path)
    assert [(k.language, k.title) for k in found] == [("go", "A Drachengold bot in Go")]
    assert kits.language_kit("notes", tmp_path) is None and kits.language_kit("..", tmp_path) is None
    assert _own(kits.language_kit_zip(found[0])) == ["README.md", "lib/util.go", "main.go"]


def test_a_kit_zip_leaves_out_links_dot_files_and_build_output(tmp_path):
    folder = tmp_path / "rust"
    (folder / "src").mkdir(parents=True)
    (folder / "README.md").write_text("# Rust\n")
    (folder / "src" / "main.rs").write_text("fn main() {}\n")
    (folder / ".env").write_text("SECRET=1\n")
    (folder / "target").mkdir()
    (folder / "target" / "bot").write_bytes(b"\x7fELF")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside the kit\n")
    os.symlink(secret, folder / "link.txt")
    os.symlink(tmp_path, folder / "up")
    assert _own(kits.language_kit_zip(kits.language_kit("rust", tmp_path))) == ["README.md", "src/main.rs"]


def test_an_oversized_kit_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "README.md").write_text("# Big\n")
    (folder / "blob").write_bytes(b"x" * 100)
    monkeypatch.setattr(kits, "MAX_KIT_BYTES", 50)
    with pytest.raises(ValueError, match="over 50 bytes"):
        kits.language_kit_zip(kits.language_kit("big", tmp_path))


def test_the_python_language_kit_ships_the_sdk_it_imports():
    kit = kits.language_kit("python")
    with zipfile.ZipFile(io.BytesIO(kits.language_kit_zip(kit))) as archive:
        names = archive.namelist()
        assert {"main.py", "README.md", "bots/__init__.py", "bots/sdk.py"} <= set(names)
        assert b"from bots.sdk import" in archive.read("main.py")
    assert "bots/sdk.py" not in _names(kits.language_kit_zip(kits.language_kit("c")))


def test_every_kit_ships_the_rules_and_how_to_run_the_bot_at_home():
    # the zips shipped the protocol, bots and API pages the README links, but no rules and no remote.md
    for kit in kits.language_kits():
        names = set(_names(kits.language_kit_zip(kit)))
        assert {"docs/protocol.md", "docs/remote.md"} <= names, kit.language
        assert {f"docs/rules-{game}.md" for game in available_games()} <= names, kit.language
    kit = kits.python_kit("dragonflame", "random")
    with zipfile.ZipFile(io.BytesIO(kits.python_kit_zip(kit))) as archive:
        assert {"docs/rules-dragonflame.md", "docs/remote.md"} <= set(archive.namelist())
        assert archive.read("docs/rules-dragonflame.md").decode().startswith("#")


def _own(data: bytes) -> list[str]:
    """A zip's names but the documents every kit ships (docs/: the test above)."""
    return [name for name in _names(data) if not name.startswith("docs/")]


def test_a_kit_readme_that_runs_ladder_says_where_the_command_comes_from():
    # the Go kit's README said `ladder match .` to an author who had no `ladder` on their PATH
    for kit in kits.language_kits():
        readme = (kit.folder / "README.md").read_text()
        if "\nladder " in readme:
            assert ".venv/bin/ladder" in readme and "make install" in readme, kit.language
