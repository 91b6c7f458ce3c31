"""The one pass over a Treasure replay (ladder/games/treasure/view/timeline.py) that both the step
list and the viewer frames draw on: what it tallies must be what the engine scored."""

from ladder.games.treasure.view.timeline import walk
from ladder.play import play_builtin
from ladder.replay import Replay


def test_the_pass_tallies_every_seat_s_tiles_as_the_engine_scored_them():
    for seed, names in ((1, ["careful", "random"]), (2, ["memory", "careful", "random", "careful"])):
        replay = play_builtin("treasure", names, seed=seed).replay.to_json()
        moments = list(walk(Replay.from_json(replay)))
        assert len(moments) == len(replay["log"])  # one moment per log entry, in order
        _, cave = moments[-1]
        for result in replay["results"]:
            tiles = {k: n for k, n in result["breakdown"]["tiles"].items() if n}
            assert cave.hoards[result["seat"]] == tiles
        assert cave.scores == [r["score"] for r in replay["results"]]
        assert not any(sq not in cave.empty and cave.known.get(sq) != "spider" for sq in cave.squares())


def test_a_keep_marks_its_squares_for_that_moment_only():
    replay = play_builtin("treasure", ["careful", "careful"], seed=3).replay.to_json()
    seen_keep = False
    for moment, cave in walk(Replay.from_json(replay)):
        if moment.kind == "keep":
            seen_keep = True
            squares = [tuple(s) for s in moment.data["squares"]]
            assert moment.hl == squares and all(moment.marks[sq] == "kept" for sq in squares)
            assert all(sq in cave.empty and cave.this_turn[sq] == "kept" for sq in squares)
        elif moment.kind == "flip":
            assert not moment.marks
    assert seen_keep
