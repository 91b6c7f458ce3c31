"""Treasure of the Dragons' viewer frames (ladder/games/treasure/view/frames.py) against the replay's
own events: which tiles are face up, which are gone, the running tile counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ladder.games.treasure.view.frames import frames, square_name
from ladder.play import play_builtin
from ladder.replay import Replay

GOLDEN = Path(__file__).parents[3] / "golden" / "treasure-seed5.json"
FRAME_EVENTS = {"game_start", "flip", "keep", "turn_end", "spider_move", "game_end"}


def _replays():
    yield json.loads(GOLDEN.read_text())
    for seed in (1, 2):
        yield play_builtin("treasure", ["careful", "random", "careful", "random"], seed=seed).replay.to_json()


def _expected(replay):
    """Per frame, walking the log independently: squares face up now, squares emptied, tiles won."""
    face_up, gone, won = set(), set(), [0] * replay["players"]
    out = []
    for entry in replay["log"]:
        kind, d = entry.get("type"), entry.get("data", {})
        if kind == "turn_start":
            face_up = set()
        elif kind == "flip":
            face_up.add(tuple(d["square"]))
        elif kind == "keep":
            face_up -= {tuple(s) for s in d["squares"]}
            gone |= {tuple(s) for s in d["squares"]}
            won[d["seat"]] += sum(d["tiles"].values())
        elif kind == "turn_end":
            face_up = set()
        elif kind == "spider_move" and d.get("to") is not None:
            gone.add(tuple(d["from"]))
            gone.discard(tuple(d["to"]))
        if kind in FRAME_EVENTS:
            out.append((set(face_up), set(gone), list(won)))
    return out


def _cells(frame, *states):
    return {(r, c) for r, row in enumerate(frame["board"]["cells"]) for c, (state, _) in enumerate(row)
            if state in states}


@pytest.mark.parametrize("replay", list(_replays()), ids=["golden", "seed1", "seed2"])
def test_every_frame_shows_the_tiles_the_flips_say(replay):
    got = frames(Replay.from_json(replay), None)
    expected = _expected(replay)
    assert len(got) == len(expected)
    for i, (frame, (face_up, gone, won)) in enumerate(zip(got, expected, strict=True)):
        if i == len(got) - 1:
            break  # the end clears the cave (checked below)
        assert _cells(frame, "up") == face_up, f"frame {i}: {frame['lines']}"
        assert _cells(frame, "empty", "kept") == gone, f"frame {i}"
        assert frame["scores"] == won
        assert sum(sum(h.values()) for h in frame["board"]["hoards"]) == sum(won)
        assert frame["board"]["left"] == 49 - len(gone)
    assert got[-1]["scores"] == [r["score"] for r in replay["results"]]


def test_a_flip_frame_names_the_square_and_shows_its_kind():
    replay = json.loads(GOLDEN.read_text())
    flips = [e["data"] for e in replay["log"] if e.get("type") == "flip"]
    flip_frames = [f for f in frames(Replay.from_json(replay), None) if any(" flips " in line for line in f["lines"])]
    assert len(flip_frames) == len(flips)
    for frame, flip in zip(flip_frames, flips, strict=True):
        r, c = flip["square"]
        assert f"flips {square_name(r, c)}: {flip['kind']}" in frame["lines"][-1]
        assert frame["board"]["cells"][r][c] == ["up", flip["kind"]]
        assert frame["board"]["hl"] == [[r, c]]


def test_square_names_match_the_moves():
    assert square_name(0, 0) == "A1" and square_name(4, 2) == "C5" and square_name(6, 6) == "G7"


def test_every_view_is_the_same_because_every_event_is_public():
    replay = Replay.from_json(json.loads(GOLDEN.read_text()))
    assert frames(replay, None) == frames(replay, 1) == frames(replay, None, reveal=True)


@pytest.mark.parametrize("replay", list(_replays()), ids=["golden", "seed1", "seed2"])
def test_each_frame_carries_the_log_index_of_the_event_it_shows(replay):
    """The owner's decisions (keyed by log index) follow the viewer's steps by this field."""
    shown = [i for i, e in enumerate(replay["log"]) if e.get("type") in FRAME_EVENTS]
    for seat in (None, 1):
        assert [f["entry"] for f in frames(Replay.from_json(replay), seat)] == shown
