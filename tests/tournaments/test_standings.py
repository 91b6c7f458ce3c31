"""Standings: forfeits and failures counted like the ladder, intervals over deals, crosstable."""

import math

from ladder.tournaments.model import Entrant, TournamentSpec, round_robin
from ladder.tournaments.standings import PlayedMatch, SeatResult, standing_order, standings

FIELD = (Entrant("a", "alpha"), Entrant("b", "beta"), Entrant("c", "gamma"))


def play(matches, strength, noise=lambda m: 0):
    """Rank seats by strength (plus a per-match noise), score = strength."""
    out = []
    for m in matches:
        value = [strength[k] + noise(m) * (i == 0) for i, k in enumerate(m.seats)]
        ranks = [1 + sum(v > x for v in value) for x in value]
        out.append(PlayedMatch(m, tuple(SeatResult(r, strength[k]) for r, k in zip(ranks, m.seats, strict=True))))
    return out


def test_the_strongest_ranks_first_with_a_tight_interval_when_play_decides():
    matches = round_robin(TournamentSpec("g", FIELD, table_size=3, deals=4))
    table = standings(FIELD, play(matches, {"a": 1, "b": 3, "c": 2}), seed=1)
    assert [r.entrant.key for r in table.rows] == ["b", "c", "a"] == standing_order(table)
    best = table.rows[0]
    assert best.matches == 24 and best.wins == 24 and best.rank.mean == best.rank.low == best.rank.high == 1
    assert table.rows[2].score.mean == 1
    assert table.crosstable[("b", "a")].wins == 24 and table.crosstable[("a", "b")].losses == 24
    assert table.crosstable[("a", "b")].points == 0 and table.crosstable[("b", "c")].points == 1
    assert table.deals[0] == {"a": (3, 1), "b": (1, 3), "c": (2, 2)}


def test_intervals_come_from_the_deals_and_are_reproducible():
    matches = round_robin(TournamentSpec("g", FIELD, table_size=3, deals=20))
    # seat 0 gets a deal-dependent boost: luck that varies by deal
    played = play(matches, {"a": 1, "b": 2, "c": 3}, noise=lambda m: 3 * (m.deal % 3 == 0) - 0.5)
    table = standings(FIELD, played, seed=7)
    for row in table.rows:
        assert row.rank.low <= row.rank.mean <= row.rank.high
    assert any(row.rank.high > row.rank.low for row in table.rows)
    assert standings(FIELD, played, seed=7).rows == table.rows


def test_forfeits_rank_last_and_failed_or_all_forfeited_matches_do_not_count():
    matches = round_robin(TournamentSpec("g", FIELD, table_size=3, deals=1))
    m0, m1, m2 = matches[:3]
    played = [
        # the winner forfeited: it ranks last, the others move up (ladder rule)
        PlayedMatch(m0, (SeatResult(1, 50, forfeited=True), SeatResult(2, 30), SeatResult(3, 10))),
        PlayedMatch(m1, failed="sandbox unavailable"),
        PlayedMatch(m2, tuple(SeatResult(1, 0, forfeited=True) for _ in range(3))),
    ]
    table = standings(FIELD, played)
    assert table.excluded == [(m1.index, "failed: sandbox unavailable"), (m2.index, "every seat forfeited")]
    rows = {r.entrant.key: r for r in table.rows}
    assert rows[m0.seats[0]].rank.mean == 3 and rows[m0.seats[0]].forfeits == 1
    assert rows[m0.seats[0]].score.mean == 50  # the score stands as the game reported it
    assert rows[m0.seats[1]].rank.mean == 1 and rows[m0.seats[1]].wins == 1
    assert all(r.matches == 1 for r in table.rows)


def test_an_entrant_without_counted_matches_is_listed_last():
    matches = round_robin(TournamentSpec("g", FIELD, table_size=3, deals=1))
    table = standings(FIELD, [PlayedMatch(matches[0], failed="x")])
    assert all(r.matches == 0 and math.isnan(r.rank.mean) for r in table.rows)
    assert table.as_json()["excluded"] == [{"match": 0, "why": "failed: x"}]
