"""What a seat sees: its hand, public castles and hoards, its own face-down cards; no one else's
hand, no other face-down card, never the deck's order; private events go to their seat only."""

from __future__ import annotations

import json

from games.dragonflame.helpers import new, set_banners


def test_a_seat_sees_its_hand_and_only_the_sizes_of_the_others():
    state = new(3)
    obs = state.observation(1)
    assert [c["id"] for c in obs["hand"]] == state.hands[1] and obs["hand_sizes"] == [3, 3, 3]
    text = json.dumps(obs)
    assert all(f'"{cid}"' not in text for s in (0, 2) for cid in state.hands[s])
    assert obs["deck"] == len(state.deck) and "c" not in str(obs["deck"])


def test_face_down_cards_are_known_to_the_player_who_played_them_only():
    state = new(4)
    set_banners(state, [4, 1, 2, 3])  # seat 0 holds banner 4: DDD
    while state.pending().seat != 0:
        state.apply(state.pending().seat, {"card": state.hands[state.pending().seat][0], "castle": 1})
    card = state.hands[0][0]
    state.apply(0, {"card": card, "castle": 5})
    mine = state.observation(0)["castles"][4]["cards"]
    assert mine == [{"face": "down", "by": 0, "card": mine[0]["card"]}] and mine[0]["card"]["id"] == card
    for seat in (1, 2, 3):
        assert state.observation(seat)["castles"][4]["cards"] == [{"face": "down", "by": 0}]
        assert card not in json.dumps(state.observation(seat))
    public = [e for e in state.events if e.type == "play"][-1]
    assert public.data == {"seat": 0, "castle": 5, "face": "down"} and public.to is None
    assert public is state.events[-1]  # no other event: the player knows its card from its decision
    assert all(card not in json.dumps(e.as_json()) for e in state.events if e.type != "hand")


def test_face_up_cards_are_public():
    state = new(3)
    set_banners(state, [1, 2, 3])
    card = state.hands[0][0]
    state.apply(0, {"card": card, "castle": 2})
    for seat in range(3):
        assert state.observation(seat)["castles"][1]["cards"][0]["card"]["id"] == card


def test_hands_are_dealt_in_private_events():
    state = new(3)
    hands = [e for e in state.events if e.type == "hand"]
    assert [e.to for e in hands] == [(0,), (1,), (2,)]
    assert [[c["id"] for c in e.data["cards"]] for e in hands] == state.hands
    assert state.events[0].type == "setup" and state.events[0].to is None


def test_the_request_goes_only_to_the_deciding_seat():
    state = new(3)
    set_banners(state, [2, 3, 1])
    assert state.observation(2)["request"] == {"kind": "play", "face": "up", "cards": state.hands[2],
                                               "castles": [1, 2, 3, 4]}
    assert "request" not in state.observation(0) and "request" not in state.observation(1)


def test_observations_and_events_are_plain_json():
    state = new(2)
    while state.pending() is not None:
        state.apply(state.pending().seat, state.default_decision())
    text = json.dumps([e.as_json() for e in state.events] + [state.observation(0), state.breakdown()])
    assert json.loads(text)[0]["type"] == "setup"
