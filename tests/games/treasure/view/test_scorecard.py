"""Treasure's scorecard on a cave whose tiles the test chose: the one-flip optimum worked by hand.

Seat 0 starts a Dragon run on C1 and flips a Gold Chest on B1 (a bust: the chest was worth
22/48 expected tiles against the 1 Dragon it held); seat 1 flips the Diamond on A1, then the
Gold Chest everyone saw on B1 (worth 1, as much as stopping: optimal), then the Dragon everyone
saw on C1 (worth 0 against 1: pushed on, 1 tile given up); seat 0 flips A1 and stops with the
Diamond (the best flip, the seen chest, is worth 1: no better than stopping)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ladder.games.treasure.view.scorecard import measure
from ladder.replay.model import Decision, Header, LoggedEvent, Replay, SeatRecord


def _replay(state, moves) -> Replay:
    log = [LoggedEvent(e.type, dict(e.data), e.to) for e in state.events]
    for seat, decision in moves:
        before = len(state.events)
        kind = state.pending().kind
        state.apply(seat, decision)
        log.append(Decision(seat, kind, decision))
        log += [LoggedEvent(e.type, dict(e.data), e.to) for e in state.events[before:]]
    header = Header(1, "test", "treasure", {}, state.seed, state.num_players)
    return Replay(header, tuple(SeatRecord(s, f"b{s}") for s in range(state.num_players)), tuple(log), ())


def test_the_one_flip_optimum_of_a_known_cave(make_state):
    state = make_state({(0, 0): "diamond", (0, 1): "chest", (0, 2): "dragon"})
    flip = lambda r, c: {"square": [r, c]}  # noqa: E731
    card = measure(_replay(state, [
        (0, flip(0, 2)), (0, flip(0, 1)),  # a Dragon run, then a chest: bust
        (1, flip(0, 0)), (1, flip(0, 1)), (1, flip(0, 2)),  # the diamond, the seen chest, the seen Dragon: bust
        (0, flip(0, 0)), (0, {"stop": True}),  # the diamond again, kept
    ]))
    zero, one = card[0], card[1]
    assert zero["ev_optimal"] == (1, 2) and zero["pushed_on"] == (1, 1) and zero["stopped_early"] == (0, 1)
    assert Fraction(zero["ev_lost"][0]).limit_denominator(1000) == Fraction(26, 48)
    assert zero["bust_rate"] == (1, 2) and zero["flips_per_turn"] == (3, 2) and zero["stop_tiles"] == (1, 1)
    assert zero["sets_diamond"] == (1, 1) and zero["tiles_per_turn"] == (1, 2)
    assert one["ev_optimal"] == (1, 2) and one["pushed_on"] == (1, 2) and one["ev_lost"][0] == pytest.approx(1)
    assert "stopped_early" not in one and one["bust_rate"] == (1, 1) and one["sets_diamond"] == (0, 1)
