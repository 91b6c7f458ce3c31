"""Every game's measures and each measure's documentation (ladder/scorecard/common.py)."""

from __future__ import annotations

import re
from pathlib import Path

from ladder.games import GAMES, get_game
from ladder.scorecard.common import COMMON, breakdown_measure, catalogue

DOC = Path(__file__).resolve().parents[2] / "docs" / "scorecard.md"


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_measure_of_every_game_has_its_section_in_the_docs():
    text = DOC.read_text(encoding="utf-8")
    # a heading's slug, or an explicit anchor (Drachengold's measures: one paragraph each)
    anchors = {_slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
    anchors |= set(re.findall(r'<a id="([^"]+)"></a>', text))
    for name in GAMES:
        for measure in catalogue(get_game(name)):
            assert (measure.anchor or measure.name) in anchors, (name, measure.name)
            assert measure.definition and len(measure.definition.splitlines()) == 1
    assert (breakdown_measure("score.tiles.chest").anchor or "") in anchors


def test_names_are_unique_and_the_game_parts_do_not_shadow_every_games():
    common = {m.name for m in COMMON}
    assert len(common) == len(COMMON)
    for name in GAMES:
        own = [m.name for m in catalogue(get_game(name)).game]
        assert len(own) == len(set(own)) and not set(own) & common, name
        assert not any(n.startswith("score.") for n in own)
