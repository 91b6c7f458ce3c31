"""Drachengold as one Game (ladder/games/drachengold/__init__.py): its parts are where it says, and
what a bot's sandbox is given (`rules_files`) is exactly its rules folder, which needs nothing else."""

import ast
from pathlib import Path

from ladder.games import get_game

GAME = get_game("drachengold")
PACKAGE = Path(GAME.files())


def test_rules_files_are_exactly_the_rules_folder_and_the_package_s_init():
    folder = {f"rules/{p.name}" for p in (PACKAGE / "rules").iterdir() if p.suffix in (".py", ".json")}
    assert set(GAME.rules_files) == folder | {"__init__.py"}
    assert len(GAME.rules_files) == len(set(GAME.rules_files))


def test_the_parts_resolve_to_the_view_and_the_rules():
    assert GAME.part("renderer").__name__ == "ladder.games.drachengold.view.steps"
    assert GAME.part("view").__name__ == "ladder.games.drachengold.view.frames"
    assert GAME.part("forward").__name__ == "ladder.games.drachengold.rules.forward"


def test_the_rules_import_only_the_rules():
    # a bot's sandbox holds the rules folder, the package's __init__.py and ladder/games/base.py only
    allowed = ("ladder.games.drachengold.rules", "ladder.games.base")
    found = []
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ladder"):
                module = node.module
                if module == "ladder.games.drachengold" and [a.name for a in node.names] == ["Drachengold"]:
                    continue  # the Game class, in the staged __init__.py
                if not module.startswith(allowed):
                    found.append(f"{path.name}: from {module} import ...")
            elif isinstance(node, ast.Import):
                found += [f"{path.name}: import {a.name}" for a in node.names if a.name.startswith("ladder")]
    assert not found, found
