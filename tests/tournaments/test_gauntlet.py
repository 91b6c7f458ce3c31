"""The gauntlet measurement's schedule and statistics (ladder/tournaments/gauntlet.py)."""

import itertools

import pytest

from ladder.tournaments.gauntlet import GauntletSpec, finishing_above, schedule, seat_of
from ladder.tournaments.model import TournamentError
from ladder.tournaments.standings import PlayedMatch, SeatResult

SPEC = GauntletSpec("g", "house", ("out1", "out2"), ("f1", "f2"), players=4, deals=3, seed=5)


def test_every_outside_bot_meets_the_house_in_every_seat_order_of_the_same_deals():
    matches = schedule(SPEC)
    assert len(matches) == 2 * 3 * 24
    for table, outsider in enumerate(SPEC.outsiders):
        mine = [m for m in matches if m.table == table]
        orders = set(itertools.permutations((outsider, "house", "f1", "f2")))
        assert {tuple(m.seats) for m in mine if m.deal == 0} == orders
    seeds = lambda t: sorted({(m.deal, m.seed) for m in matches if m.table == t})  # noqa: E731
    assert seeds(0) == seeds(1)  # paired: the same cards for every outside bot
    assert all(m.seats[seat_of(SPEC, m, 1)] == "house" for m in matches)


def test_fillers_take_turns_to_fill_a_big_table_and_a_small_one_needs_none():
    assert GauntletSpec("g", "h", ("o",), ("a", "b"), 6, 1).members("o") == ("o", "h", "a", "b", "a", "b")
    assert GauntletSpec("g", "h", ("o",), (), 2, 1).members("o") == ("o", "h")
    with pytest.raises(TournamentError):
        GauntletSpec("g", "h", ("o",), (), 3, 1)
    with pytest.raises(TournamentError):
        GauntletSpec("g", "h", (), ("a",), 3, 1)


def _played(spec, outcome):
    """outcome(match) -> ranks in seat order, or None for a failed match."""
    out = []
    for m in schedule(spec):
        ranks = outcome(m)
        out.append(PlayedMatch(m, failed="the ladder failed") if ranks is None
                   else PlayedMatch(m, tuple(SeatResult(r, 0.0) for r in ranks)))
    return out


def test_the_share_counts_strictly_above_and_ties_apart():
    spec = GauntletSpec("g", "house", ("out1", "out2"), ("f1", "f2"), players=4, deals=4)

    def outcome(m):
        house, outsider = seat_of(spec, m, 1), seat_of(spec, m, 0)
        ranks = [3, 3, 3, 3]
        if m.table == 0:  # the house above out1 on even deals, tied on odd ones
            ranks[house], ranks[outsider] = (1, 2) if m.deal % 2 == 0 else (1, 1)
        else:  # out2 always above
            ranks[house], ranks[outsider] = 4, 1
        return ranks

    first, second = finishing_above(spec, _played(spec, outcome))
    assert (first.games, first.above, first.ties, first.share) == (96, 48, 48, 0.5)
    assert first.low <= 0.5 <= first.high and first.low < first.high  # deals differ: a real interval
    assert (second.above, second.share, second.low, second.high) == (0, 0.0, 0.0, 0.0)


def test_failed_matches_are_not_counted_but_reported():
    spec = GauntletSpec("g", "house", ("out",), ("f",), players=3, deals=2)
    rows = finishing_above(spec, _played(spec, lambda m: None if m.deal == 0 else [1, 2, 3]))
    assert rows[0].failed == 6 and rows[0].games == 6
