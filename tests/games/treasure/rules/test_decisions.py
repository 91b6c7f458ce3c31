"""Decisions from bots: every illegal one gets a one-line reason; the defaults are always legal."""

from __future__ import annotations

import pytest

from ladder.games.base import IllegalDecision, Pending
from ladder.games.treasure import MAX_TURNS, Treasure


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        (None, "JSON object"),
        ([0, 0], "JSON object"),
        ({}, "expected"),
        ({"square": [0, 0], "stop": True}, "expected"),
        ({"sqaure": [0, 0]}, "expected"),
        ({"square": "a1"}, "[row, col]"),
        ({"square": [0]}, "[row, col]"),
        ({"square": [0, 0, 0]}, "[row, col]"),
        ({"square": [0.0, 1]}, "whole numbers"),
        ({"square": [True, 1]}, "whole numbers"),
        ({"square": ["0", "1"]}, "whole numbers"),
        ({"square": [7, 0]}, "off the board"),
        ({"square": [0, -1]}, "off the board"),
        ({"square": None}, "[row, col]"),
        ({"stop": False}, "must be true"),
        ({"stop": 1}, "must be true"),
    ],
)
def test_malformed_flip_decisions_are_refused_with_a_reason(make_state, decision, reason):
    state = make_state()
    state.apply(0, {"square": [0, 0]})  # so that a stop would be legal
    message = state.validate(0, decision)
    assert message is not None and reason in message and "\n" not in message
    with pytest.raises(IllegalDecision, match=r"\S"):
        state.apply(0, decision)
    assert state.pending() == Pending(0, "flip") and state.flipped == [0]


def test_only_the_pending_seat_may_decide(make_state):
    state = make_state()
    assert "seat 0" in state.validate(1, {"square": [0, 0]})
    with pytest.raises(IllegalDecision):
        state.apply(1, {"square": [0, 0]})


def test_an_empty_square_cannot_be_flipped(make_state, take):
    state = make_state({(2, 2): "diamond"})
    take(state, [(2, 2)])
    assert "empty" in state.validate(1, {"square": [2, 2]})


@pytest.mark.parametrize(
    ("decision", "reason"),
    [
        ({"stop": True}, "expected"),
        ({"square": [5, 5]}, "not empty"),
        ({"square": [9, 9]}, "off the board"),
        ({"square": [1, 1], "stop": True}, "expected"),
        ("leave", "JSON object"),
    ],
)
def test_malformed_spider_moves_are_refused(make_state, take, decision, reason):
    state = make_state({(1, 1): "diamond", (5, 5): "spider"})
    take(state, [(1, 1)])
    state.apply(1, {"square": [5, 5]})
    assert state.pending() == Pending(1, "move_spider")
    message = state.validate(1, decision)
    assert message is not None and reason in message


def test_default_is_the_first_face_down_square_then_stop(make_state, take):
    state = make_state({(0, 0): "diamond", (0, 1): "scroll"})
    take(state, [(0, 0)])
    assert state.default_decision() == {"square": [0, 1]}  # (0, 0) is empty now
    state.apply(1, state.default_decision())
    assert state.default_decision() == {"stop": True}


def test_default_spider_move_leaves_it(make_state, take):
    state = make_state({(1, 1): "diamond", (5, 5): "spider"})
    take(state, [(1, 1)])
    state.apply(1, {"square": [5, 5]})
    assert state.default_decision() == {"square": None}
    assert state.validate(1, state.default_decision()) is None


def test_defaults_alone_stall_and_the_safety_cap_ends_the_game():
    # Seed 3 puts an Egg (sets of 2) on (0, 0): flipping it and stopping keeps nothing, every turn.
    state = Treasure().new_state(None, 3, 4)
    assert state.grid[0] == "egg"
    while not state.is_terminal():
        decision = state.default_decision()
        assert state.validate(state.pending().seat, decision) is None
        state.apply(state.pending().seat, decision)
    assert (state.end_reason, state.turn, state.scores()) == ("turn_cap", MAX_TURNS, [0, 0, 0, 0])
    with pytest.raises(IllegalDecision):
        state.default_decision()


def test_player_count_is_2_to_6():
    game = Treasure()
    assert (game.min_players, game.max_players, game.decision_kinds) == (2, 6, ("flip", "move_spider"))
    for bad in (1, 7):
        with pytest.raises(ValueError, match="2-6 players"):
            game.new_state(None, 1, bad)
    with pytest.raises(ValueError, match="unknown option"):
        game.new_state({"speed": 1}, 1, 2)
