"""Each game's rules page text: its section of docs/rules.md, shipped as `ladder/games/<name>/rules.md`.

docs/rules.md is the one edition anyone edits (tests/test_rules_doc.py ties its rows to the tests).
docs/ is not installed with the package, so the site serves a copy of each game's section from the
game's package; `make rules` (python -m ladder.rules_doc) writes the copies and
tests/test_rules_doc.py fails while a copy differs from its section.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ladder.games import available_games, game_files, get_game

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
FILENAME = "rules.md"


def sections(text: str, titles: dict[str, str]) -> dict[str, str]:
    """Per game, its section: from the level-2 heading that starts with its title up to the next
    level-2 heading or HTML comment line (docs/rules.md marks each game's start with one)."""
    out = {}
    for name, title in titles.items():
        found = re.search(rf"^## {re.escape(title)}\b.*?(?=^## |^<!--|\Z)", text, re.M | re.S)
        if found:
            out[name] = found.group(0).rstrip() + "\n"
    return out


def game_titles() -> dict[str, str]:
    return {name: get_game(name).title for name in available_games()}


def copy_path(name: str) -> Path | None:
    folder = game_files(name)
    return folder / FILENAME if folder is not None else None


def write_copies(doc: Path = DOC) -> list[Path]:
    written = []
    for name, text in sections(doc.read_text(encoding="utf-8"), game_titles()).items():
        path = copy_path(name)
        if path is not None and (not path.exists() or path.read_text(encoding="utf-8") != text):
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def rules_text(name: str) -> str | None:
    """The game's shipped rules section; None for an unregistered game or one without a copy."""
    path = copy_path(name)
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else None


if __name__ == "__main__":
    for path in write_copies():
        print(f"wrote {path}", file=sys.stderr)
