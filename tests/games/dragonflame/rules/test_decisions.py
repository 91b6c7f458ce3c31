"""Decision shapes, refusals with a reason, and the documented defaults."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import new, play_out, set_banners

from ladder.games.base import IllegalDecision


@pytest.mark.parametrize(("decision", "reason"), [
    ({}, "play: expected"),
    ({"card": 3, "castle": 1}, "play: card must be a card id"),
    ({"card": "c1", "castle": "1"}, "play: castle must be a castle number"),
    ({"card": "c1", "castle": True}, "play: castle must be a castle number"),
    ({"card": "c1", "castle": 1, "extra": 1}, "play: expected"),
])
def test_malformed_plays_are_refused_with_a_reason(decision, reason):
    state = new(3)
    set_banners(state, [1, 2, 3])
    assert state.validate(0, decision).startswith(reason)
    with pytest.raises(IllegalDecision):
        state.apply(0, decision)


def test_a_decision_must_be_a_json_object_from_the_pending_seat():
    state = new(3)
    set_banners(state, [1, 2, 3])
    assert state.validate(0, ["c1", 1]) == "a decision must be a JSON object"
    assert state.validate(2, {"card": state.hands[2][0], "castle": 1}).startswith("it is seat 0's")


def test_malformed_attacks_are_refused():
    state = new(3)
    play_out(state)
    seat = state.pending().seat
    assert state.validate(seat, {"castle": None}) == "attack: castle must be a castle number, got None"
    assert state.validate(seat, {"castle": 7}).startswith("there is no castle 7")
    assert state.validate(seat, {"side": "left", "index": 0}).startswith("attack: expected")


def test_defaults_are_legal_and_documented():
    state = new(3)
    set_banners(state, [1, 2, 3])
    assert state.default_decision() == {"card": state.hands[0][0], "castle": 1}
    play_out(state)
    assert state.default_decision() == {"castle": 1}
    state.apply(state.pending().seat, state.default_decision())
    while state.pending() is not None:
        decision = state.default_decision()
        assert state.validate(state.pending().seat, decision) is None
        if state.pending().kind == "flame":
            assert decision == {"side": "left", "index": 0}
        state.apply(state.pending().seat, decision)
    with pytest.raises(IllegalDecision):
        state.default_decision()


def test_a_spy_may_be_declined_with_null():
    state = new(3)
    set_banners(state, [1, 2, 3])
    state._pending = type(state._pending)(0, "spy")
    assert state.validate(0, {"castle": None}) is None
    assert state.default_decision() == {"castle": None}
