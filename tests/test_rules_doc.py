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


def test_each_games_shipped_rules_page_is_its_section_of_this_document():
    """The site's rules pages read ladder/games/<name>/rules.md; `make rules` copies them from here."""
    from ladder.games import available_games
    from ladder.rules_doc import game_titles, rules_text, sections

    found = sections(DOC.read_text(encoding="utf-8"), game_titles())
    assert sorted(found) == sorted(available_games())
    for name, text in found.items():
        assert text.startswith(f"## {game_titles()[name]}") and "<!--" not in text
        assert rules_text(name) == text, f"ladder/games/{name}/rules.md differs from docs/rules.md: run `make rules`"


def test_sections_end_at_the_next_heading_or_marker():
    from ladder.rules_doc import sections

    text = "# Doc\n\n## Alpha (A), 2 players\n\nrow\n\n<!-- b -->\n\n## Beta\n\n### sub\n\nmore\n"
    assert sections(text, {"a": "Alpha", "b": "Beta", "c": "Gamma"}) == {
        "a": "## Alpha (A), 2 players\n\nrow\n", "b": "## Beta\n\n### sub\n\nmore\n"}
