"""How Treasure reads (ladder/games/treasure/view/steps.py): lines for the CLI, a drawing per turn."""

from __future__ import annotations

from ladder.games import get_game
from ladder.games.render import renderer_for, seat_namer
from ladder.games.treasure.view import steps as render
from ladder.play import play_builtin
from ladder.replay import Replay


def test_the_game_names_its_renderer():
    assert renderer_for(get_game("treasure")) is render


def test_event_lines_read_as_sentences():
    who = seat_namer(["ann", "bo"])
    flip = {"type": "flip", "data": {"seat": 1, "square": [2, 3], "kind": "spider"}, "to": None}
    assert render.event_line(flip, who) == "bo (seat 1) flips D3: spider"
    end = {"type": "turn_end", "data": {"seat": 0, "reason": "dragon", "returned": [[0, 0], [1, 1]]}, "to": None}
    assert render.event_line(end, who) == "ann (seat 0): a Dragon after other tiles! 2 tiles go back face down"
    keep = {"type": "keep", "data": {"seat": 0, "tiles": {"chest": 2}, "squares": [[0, 0], [0, 1]]}, "to": None}
    assert render.event_line(keep, who) == "ann (seat 0) keeps 2 chest"


def test_every_event_of_a_game_has_a_line_that_is_not_a_raw_dump():
    replay = play_builtin("treasure", ["careful", "random"], seed=3).replay.to_json()
    who = seat_namer(["a", "b"])
    events = [e for e in replay["log"] if "type" in e]
    lines = [render.event_line(e, who) for e in events]
    # only a plain stop says nothing (the keep line before it told it all)
    for event, line in zip(events, lines, strict=True):
        assert line or (event["type"] == "turn_end" and event["data"]["reason"] == "stop"), event
    assert not any(line.startswith(("flip:", "keep:", "turn_end:")) for line in lines)


def test_turns_carry_a_drawing_of_the_cave():
    replay = play_builtin("treasure", ["careful", "random"], seed=3).replay.to_json()
    turns = [s for s in render.sections(Replay.from_json(replay), ["a", "b"]) if s.title.startswith("Turn ")]
    assert turns and all(len(s.drawing) == 7 and all(len(row) == 7 for row in s.drawing) for s in turns)


def test_score_cells_give_each_tile_kind_its_own_column():
    from ladder.games.treasure.view.steps import score_cells

    cells = score_cells({"tiles": {"gold": 3, "gem_stone": 1}, "dragons": 2, "spider_bonus": 1})
    assert cells == [("Gold", "3"), ("Gem stone", "1"), ("Dragons", "2"), ("Spider bonus", "1")]
