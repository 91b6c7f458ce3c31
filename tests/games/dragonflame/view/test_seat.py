"""DragonFlame's table for a person (view/seat.py): the castles, villages and dragons as the
observation has them, drawn by the match page's own table; the castles the request offers."""

from __future__ import annotations

import json

from ladder.games import get_game
from ladder.games.dragonflame.view.lines import card_text

GAME = get_game("dragonflame")
SEAT = GAME.part("seat_view")


def test_every_frame_is_the_table_the_seat_sees() -> None:
    state = GAME.new_state({}, 4, 3)
    kinds = set()
    while (pending := state.pending()) is not None:
        observation = state.observation(pending.seat)
        frame = SEAT.frame(observation)
        json.dumps(frame)
        table, me = frame["table"], observation["seat"]
        assert [c["number"] for c in table["castles"]] == [c["number"] for c in observation["castles"]]
        for drawn, seen in zip(table["castles"], observation["castles"], strict=True):
            # a face-down card of another seat shows as hidden unless the observation holds it
            assert [d["text"] == "a hidden card" for d in drawn["cards"]] == [not x.get("card") for x in seen["cards"]]
        assert [h["fire"] for h in table["hoards"]] == observation["fire"]
        assert [c["text"] for c in table["hands"][me]["cards"]] == [card_text(c) for c in observation["hand"]]
        assert all(h["cards"] is None for s, h in enumerate(table["hands"]) if s != me)  # others' hands unseen
        request = observation["request"]
        picks = SEAT.picks(observation)
        assert picks == ({"castles": request["castles"]} if request["kind"] in ("play", "spy", "attack") else {})
        kinds.add(pending.kind)
        state.apply(pending.seat, state.default_decision())
    assert {"play", "attack"} <= kinds
