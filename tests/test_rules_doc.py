"""docs/rules.md: every rule row of every game names at least one test, and every named test exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
REF = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
MARKERS = ("<!-- treasure -->", "<!-- dragonflame -->")  # each game's section starts at its marker


def rows(game: str) -> list[str]:
    drachengold, rest = DOC.read_text().split(MARKERS[0])
    treasure, dragonflame = rest.split(MARKERS[1])
    text = {"drachengold": drachengold, "treasure": treasure, "dragonflame": dragonflame}[game]
    return [line for line in text.splitlines() if re.match(r"\| \d+ \|", line)]


@pytest.mark.parametrize(("game", "at_least"), [("drachengold", 100), ("treasure", 20), ("dragonflame", 60)])
def test_every_rule_row_names_a_test(game, at_least):
    table = rows(game)
    assert len(table) >= at_least
    numbers = [int(row.split("|")[1]) for row in table]
    assert numbers == list(range(1, len(table) + 1))
    for row in table:
        assert REF.search(row.split("|")[-2]), f"no test named in: {row[:80]}"


@pytest.mark.parametrize("game", ["drachengold", "treasure", "dragonflame"])
def test_every_named_test_is_defined(game):
    for row in rows(game):
        for path, name in REF.findall(row):
            source = (ROOT / path).read_text()
            assert re.search(rf"^(async )?def {name}\(", source, re.M), f"{path}::{name} is not defined"
