"""What seats see: the public board, the turn, the hoards, and a request only for the pending seat."""

from __future__ import annotations

import json

from ladder.games.treasure.rules.tiles import COLS


def test_observation_shows_the_public_board_and_the_request(make_state, take):
    state = make_state({(1, 1): "diamond", (2, 2): "scroll", (3, 3): "potion"}, players=3)
    take(state, [(1, 1)])
    state.apply(1, {"square": [2, 2]})
    obs = state.observation(1)
    assert obs["grid"][1][1] == "empty" and obs["grid"][2][2] == "scroll" and obs["grid"][3][3] == "down"
    assert obs["flipped"] == [{"square": [2, 2], "kind": "scroll"}]
    assert (obs["current"], obs["turn"], obs["players"], obs["seat"]) == (1, 2, 3, 1)
    assert obs["hoards"][0]["diamond"] == 1 and sum(obs["hoards"][1].values()) == 0
    assert obs["request"]["kind"] == "flip" and obs["request"]["can_stop"] is True
    assert len(obs["request"]["squares"]) == 47 and [2, 2] not in obs["request"]["squares"]
    assert obs["set_sizes"]["chest"] == 4 and obs["tile_counts"]["dragon"] == 12
    others = [state.observation(seat) for seat in (0, 2)]
    assert all("request" not in o for o in others)
    assert all(o["grid"] == obs["grid"] and o["flipped"] == obs["flipped"] for o in others)


def test_a_tile_turned_back_shows_as_down_again(make_state):
    state = make_state({(0, 0): "chest"})
    state.apply(0, {"square": [0, 0]})
    state.apply(0, {"stop": True})
    assert all(state.observation(s)["grid"][0][0] == "down" for s in (0, 1))
    assert "chest" not in json.dumps(state.observation(1)["grid"])


def test_observations_do_not_depend_on_face_down_tiles(make_state):
    # Swapping two face-down tiles (one of them seen earlier) changes no seat's observation.
    state = make_state({(0, 0): "dragon", (0, 1): "diamond", (0, 2): "scroll", (6, 6): "egg"})
    state.apply(0, {"square": [0, 1]})
    state.apply(0, {"square": [0, 0]})  # a Dragon after a Diamond: both go back
    state.apply(1, {"square": [0, 2]})
    before = [state.observation(s) for s in (0, 1)]
    state.grid[0], state.grid[6 * COLS + 6] = state.grid[6 * COLS + 6], state.grid[0]
    assert [state.observation(s) for s in (0, 1)] == before


def test_every_flip_is_a_public_event_with_square_and_kind(make_state):
    state = make_state({(4, 2): "potion"})
    state.apply(0, {"square": [4, 2]})
    event = state.events[-1]
    assert (event.type, event.to, dict(event.data)) == ("flip", None, {"seat": 0, "square": [4, 2], "kind": "potion"})
    assert all(e.visible_to(seat) for e in state.events for seat in (0, 1))


def test_events_and_observations_are_plain_json(make_state, take):
    state = make_state()
    take(state, [(3, 5)])
    text = json.dumps([e.as_json() for e in state.events] + [state.observation(1), state.breakdown()])
    assert json.loads(text)[0] == {
        "type": "game_start",
        "data": {"players": 2, "rows": 7, "cols": 7, "max_turns": state.max_turns},
        "to": None,
    }
