"""Starter-kit downloads for the "write a bot" page: a zip per Python starter bot of each game and a
zip per language kit in bots/examples/<language>/.

The files are only read, never imported or run: a starter bot's source is found by its module spec.
A Python kit is a runnable bot as the ladder takes it: `main.py` (the starter's file, which ends in
`run(...)`) next to `bots/sdk.py`, the SDK it imports, so `python main.py` and `ladder match <zip>`
both work. Zips are deterministic (fixed timestamps and modes, sorted names): the same files give
the same bytes, so a cached copy and its ETag stay valid until the files change.
"""

from __future__ import annotations

import importlib.util
import io
import re
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

import bots
from ladder.games import available_games, get_game
from ladder.rules_doc import rules_text

BOTS_DIR = Path(bots.__file__).resolve().parent
EXAMPLES_DIR = BOTS_DIR / "examples"
SDK_INIT = '"""The ladder\'s bot SDK (bots/sdk.py), shipped with a starter kit."""\n'
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold: no build time leaks into the bytes
MAX_KIT_BYTES = 2 * 1024 * 1024  # a kit is a few source files; anything larger is not served
SKIP = {"__pycache__", "node_modules", "target", "build", "dist"}  # build output, not the kit


@dataclass(frozen=True)
class PythonKit:
    game: str
    bot: str
    module: str  # "bots.<game>.random": Game.bot_module

    @property
    def filename(self) -> str:
        return f"{self.game}-{self.bot}.zip"


@dataclass(frozen=True)
class LanguageKit:
    language: str
    title: str  # the README's first heading
    folder: Path

    @property
    def filename(self) -> str:
        return f"{self.language}.zip"


def python_kits() -> list[PythonKit]:
    """One per starter bot of every available game, in registry order."""
    return [PythonKit(game, bot, get_game(game).bot_module(bot))
            for game in available_games() for bot in sorted(get_game(game).starter_bots)]


def python_kit(game: str, bot: str) -> PythonKit | None:
    return next((kit for kit in python_kits() if (kit.game, kit.bot) == (game, bot)), None)


def language_kits(root: Path = EXAMPLES_DIR) -> list[LanguageKit]:
    """Every bots/examples/<language>/ folder with a README.md: kits added later show up by themselves."""
    if not root.is_dir():
        return []
    return [LanguageKit(folder.name, _title(folder / "README.md") or folder.name, folder)
            for folder in sorted(root.iterdir())
            if folder.is_dir() and not folder.is_symlink() and (folder / "README.md").is_file()]


def language_kit(language: str, root: Path = EXAMPLES_DIR) -> LanguageKit | None:
    return next((kit for kit in language_kits(root) if kit.language == language), None)


def _title(readme: Path) -> str | None:
    for line in readme.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return None


def _source(module: str) -> bytes:
    spec = importlib.util.find_spec(module)  # locates the file; the module itself is not executed
    if spec is None or spec.origin is None:
        raise FileNotFoundError(module)
    return Path(spec.origin).read_bytes()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


@cache
def python_kit_zip(kit: PythonKit) -> bytes:
    return zip_bytes({"main.py": _source(kit.module), **_sdk_files(), **_documents([kit.game])})


def _kit_files(folder: Path) -> dict[str, bytes]:
    """The kit's regular files (no links, no dot files, no build output), at most MAX_KIT_BYTES."""
    files, total = {}, 0
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part in SKIP for part in rel.parts) or path.is_symlink() \
                or not path.is_file():
            continue
        data = path.read_bytes()
        total += len(data)
        if total > MAX_KIT_BYTES:
            raise ValueError(f"{folder.name}: the kit is over {MAX_KIT_BYTES} bytes")
        files[rel.as_posix()] = data
    return files


def _sdk_files() -> dict[str, bytes]:
    return {"bots/__init__.py": SDK_INIT.encode(), "bots/sdk.py": _source("bots.sdk")}


@cache
def language_kit_zip(kit: LanguageKit) -> bytes:
    files = _kit_files(kit.folder)
    if "main.py" in files:  # a Python kit imports the SDK: ship it, so `python main.py` runs as downloaded
        files = {**_sdk_files(), **files}
    files.update(_documents(available_games()))
    if "README.md" in files:
        files.update(_readme_with_its_documents(files["README.md"].decode("utf-8")))
    return zip_bytes(files)


# Every kit ships what an author needs beyond the README's links, offline: the rules of the games it
# plays and how to run the bot at home (remote.md), beside the documents the README links to.
ALWAYS = ("protocol.md", "remote.md")


def _documents(games) -> dict[str, bytes]:
    out = {f"docs/{name}": (DOCS_COPIES / name).read_bytes() for name in ALWAYS}
    for game in games:
        text = rules_text(game)
        if text is not None:
            out[f"docs/rules-{game}.md"] = text.encode("utf-8")
    return out


# A kit's README links to the repository's documents (../../../docs/protocol.md) and the SDK
# (../../sdk.py): paths that lead nowhere in an unpacked zip. The zip ships the documents it links
# to (docs/<name>.md, from the copies in ladder/docs) and its links point at the files inside it.
DOCS_COPIES = Path(__file__).resolve().parents[1] / "docs"
_LINK = re.compile(r"\]\(((?:\.\./)+)([^)#\s]+)(#[^)\s]*)?\)")


def _readme_with_its_documents(readme: str) -> dict[str, bytes]:
    shipped: dict[str, bytes] = {}

    def relink(found: re.Match) -> str:
        target, anchor = found.group(2), found.group(3) or ""
        name = PurePosixPath(target).name
        if target.startswith("docs/") and (DOCS_COPIES / name).is_file():
            shipped[f"docs/{name}"] = (DOCS_COPIES / name).read_bytes()
            return f"](docs/{name}{anchor})"
        if target == "sdk.py":
            return f"](bots/sdk.py{anchor})"
        return found.group(0)

    readme = _LINK.sub(relink, readme)
    return {"README.md": readme.encode("utf-8"), **shipped}
