"""`ladder bench tournament`: the standard errors it compares, on data whose answer is known."""

import math
import statistics

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench.tournament import PairRow, field_of, run_tournament_bench, se_duplicate, se_random, summary
from ladder.tournaments.model import Entrant, TournamentSpec, round_robin
from ladder.tournaments.standings import PlayedMatch, SeatResult

FIELD = (Entrant("a", "a"), Entrant("b", "b"), Entrant("c", "c"))


def seat_luck(matches):
    """Seat 0 always wins: pure seat luck, no skill difference at all."""
    return [PlayedMatch(m, tuple(SeatResult(1 if i == 0 else 2 + (i == 2), 0) for i in range(3))) for m in matches]


def test_duplicate_seating_cancels_seat_luck_that_random_seating_keeps():
    dup = seat_luck(round_robin(TournamentSpec("g", FIELD, table_size=3, deals=10, seed=3)))
    rnd = seat_luck(round_robin(TournamentSpec("g", FIELD, table_size=3, deals=10, seed=3, duplicate=False)))
    assert se_duplicate(dup, "a", "b") == (0.0, 0.0)  # every deal: each in each seat, differences cancel
    mean, se = se_random(rnd, "a", "b")
    diffs = [dict(zip(m.spec.seats, m.ranks(), strict=True)) for m in rnd]
    diffs = [d["a"] - d["b"] for d in diffs]
    assert se > 0 and se == statistics.stdev(diffs) / math.sqrt(len(rnd))
    assert mean == statistics.fmean(diffs)


def test_the_ratio_is_the_variance_ratio_and_the_summary_skips_undefined_pairs():
    assert PairRow("a", "b", 0, 0.1, 0, 0.2).ratio == pytest.approx(4)
    assert math.isnan(PairRow("a", "b", 0, 0, 0, 0).ratio)
    rows = [PairRow("a", "b", 0, 0.1, 0, 0.2), PairRow("a", "c", 0, 0.1, 0, 0.1), PairRow("b", "c", 0, 0, 0, 0)]
    assert summary(rows) == "variance ratio over 2 pairs: median 2.50, min 1.00, max 4.00"


def test_the_command_prints_a_ratio_per_pair():
    result = CliRunner().invoke(main, ["bench", "tournament", "--game", "treasure", "--deals", "3", "--jobs", "1",
                                      "--bots", "careful,random"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "careful" in result.output and "ratio" in result.output and "6 matches per seating" in result.output


def test_a_field_of_named_bots_plays_a_repeated_name_twice():
    assert field_of("treasure", ["careful", "careful", "random"]) == ["careful", "careful#2", "random"]
    with pytest.raises(KeyError, match="no built-in treasure bot 'nope'"):
        field_of("treasure", ["careful", "nope"])


def test_two_copies_of_a_bot_differ_by_nothing_under_duplicate_seating():
    """Identical bots on all seat orders of every deal: the luck cancels exactly, a zero SE."""
    rows, matches = run_tournament_bench(game="treasure", deals=3, seed=2, workers=1, bots=["careful", "careful"])
    assert matches == 6 and len(rows) == 1
    assert (rows[0].diff_duplicate, rows[0].se_duplicate) == (0.0, 0.0)


def test_an_unknown_bot_is_a_usage_error():
    result = CliRunner().invoke(main, ["bench", "tournament", "--game", "treasure", "--bots", "careful,nope"])
    assert result.exit_code == 2 and "nope" in result.output
