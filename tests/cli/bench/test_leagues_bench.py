"""`ladder bench leagues`, cut short by --matches (the long run is the command's, docs/ratings.md):
the seeded ladder plays through the league tables, the report names every contestant's league,
and the season's final of 8 is played to its end."""

from __future__ import annotations

import re

from click.testing import CliRunner

from ladder.cli import main


def test_a_short_seeded_ladder_reports_its_leagues_and_plays_a_final_of_eight(quick_boss):
    result = CliRunner().invoke(main, ["bench", "leagues", "--game", "drachengold", "--matches", "24",
                                       "--final-rounds", "1", "--final-deals", "1", "--seed", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^matches played: 24 in [\d.]+ ladder minutes", out, re.M)
    first = re.search(r"first league's tables finished first in [\d.]+% of their games \((\d+) of (\d+)\)", out)
    won, seats = int(first.group(1)), int(first.group(2))
    assert seats > 0 and 0 <= won <= seats
    contestants = int(re.search(r"^drachengold: (\d+) contestants", out, re.M).group(1))
    leagues = re.findall(r"^  (\S+) +league (\d)$", out, re.M)
    assert len(leagues) == contestants and {name for name, _ in leagues} >= {"fresh"}
    final = re.search(r"^  (\d+) matches \((\d+) a round: 1 Swiss rounds of 1 deals in every seat order\).*"
                      r"season closed$", out, re.M)
    assert final and int(final.group(1)) == int(final.group(2)) > 0  # one round: every planned match played
