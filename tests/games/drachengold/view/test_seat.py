"""Drachengold's table for a person (view/seat.py): the frame says what the observation says, hides
what the seat may not see, and offers on the board exactly the request's legal targets."""

from __future__ import annotations

import json
from collections import Counter

from ladder.games import get_game

GAME = get_game("drachengold")
SEAT = GAME.part("seat_view")


def _observations(options: dict, seed: int = 5, players: int = 3):
    state = GAME.new_state(options, seed, players)
    while (pending := state.pending()) is not None:
        yield state.observation(pending.seat)
        state.apply(pending.seat, state.default_decision())


def test_every_frame_of_a_game_is_the_observation_drawn() -> None:
    kinds = set()
    for observation in _observations({"rules": "advanced-a"}):
        frame = SEAT.frame(observation)
        json.dumps(frame)  # the page gets it as JSON
        board, me = frame["board"], observation["seat"]
        kinds.add(observation["request"]["kind"])
        shown = [d for d in observation["dragons"] if d]
        assert [s["id"] for s in board["slots"] if s] == [d["id"] for d in shown]
        assert [s["strength"] for s in board["slots"] if s] == [d["strength"] for d in shown]
        assert board["hoards"][me]["colours"] == dict(Counter(t["colour"] for t in observation["hoard"]))
        for s, hoard in enumerate(board["hoards"]):  # others' colours are never shown, only their count
            assert hoard["size"] == observation["hoard_sizes"][s]
            assert s == me or (hoard["colours"] == {} and hoard["unseen"] == hoard["size"])
        assert board["hands"][me]["cards"] == [c["kind"] for c in observation["hand"]]
    assert {"attack", "propose", "vote", "market_offer"} <= kinds


def test_the_board_offers_the_requests_targets() -> None:
    seen = set()
    for observation in _observations({"split": "strategic"}):
        request, picks = observation["request"], SEAT.picks(observation)
        if request["kind"] == "attack":
            assert picks == {"dragons": request["dragons"], "adventurers": request["adventurers"]}
            dragon, adventurer = SEAT.targets(observation)["targets"]
            assert (dragon["field"], adventurer["field"]) == ("dragon", "adventurer")  # the attack form's fields
            assert list(dragon["values"]) == request["dragons"] and list(adventurer["values"]) == request["adventurers"]
            marks = SEAT.frame(observation)["board"]["marks"]["dragons"]
            assert set(marks) == set(request["dragons"])
        elif request["kind"] == "theft_victim":
            assert picks == {"seats": request["candidates"]}
        else:
            assert picks == {}
        seen.add(request["kind"])
        if request["kind"] == "choose":
            assert SEAT.frame(observation)["board"]["division"]["shares"]
    assert {"attack", "divide", "choose"} <= seen


def test_private_events_read_as_sentences_with_names() -> None:
    names = ["ada", "greedy", "bargainer"].__getitem__
    offer = {"type": "offer", "data": {"id": "o1.0.0", "from": 0, "to": 1, "give": [{"id": "t1", "colour": "gold"}],
                                       "want": {"red": 2}}}
    assert SEAT.event_line(offer, names) == "ada offers greedy 1 gold for 2 red (offer o1.0.0)"
    done = {"type": "trade_done", "data": {"offer": "o1.0.0", "from": 0, "to": 1,
                                           "give": [{"id": "t1", "colour": "gold"}],
                                           "pay": [{"id": "t7", "colour": "red"}, {"id": "t8", "colour": "red"}]}}
    assert SEAT.event_line(done, names) == "Offer o1.0.0 accepted: ada gave 1 gold, greedy paid 2 red"
    attack = {"type": "attack", "data": {"seat": 0, "adventurer": "k4", "dragon": "D9", "total": 4, "strength": 8}}
    assert SEAT.event_line(attack, names).startswith("ada sends the k4 against D9")
