"""Treasure's table for a person (view/seat.py): the cave as the observation has it, the squares the
request offers outlined for a click."""

from __future__ import annotations

import json

from ladder.games import get_game

GAME = get_game("treasure")
SEAT = GAME.part("seat_view")


def test_every_frame_is_the_cave_the_seat_sees() -> None:
    state = GAME.new_state({}, 3, 2)
    kinds, turns = set(), 0
    while (pending := state.pending()) is not None and turns < 400:
        observation = state.observation(pending.seat)
        frame = SEAT.frame(observation)
        json.dumps(frame)
        board, grid = frame["board"], observation["grid"]
        assert board["hl"] == [list(s) for s in observation["request"]["squares"]]
        for r, row in enumerate(grid):
            for c, face in enumerate(row):
                state_, kind = board["cells"][r][c]
                assert state_ == ("empty" if face == "empty" else "down" if face == "down" else "up")
                assert kind == ("" if face in ("empty", "down") else face)  # no face-down tile is told
        assert frame["scores"] == [sum(h.values()) for h in observation["hoards"]]
        kinds.add(pending.kind)
        state.apply(pending.seat, state.default_decision())
        turns += 1
    assert "flip" in kinds


def test_a_click_on_a_square_picks_the_forms_choice_for_it() -> None:
    """The viewer names squares "C5"; the form's values are "row,col": the targets map one to the other,
    and every value they give is one of the form's own choices."""
    state = GAME.new_state({}, 3, 2)
    observation = state.observation(state.pending().seat)
    spec = SEAT.targets(observation)["targets"][0]
    choices = {c.value for c in GAME.part("forms").form(observation).field("square").choices}
    assert spec["values"]["C5"] == "4,2" and set(spec["values"].values()) <= choices
