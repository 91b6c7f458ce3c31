"""The readable step list built from replays (ladder/web/steps.py asks the game's renderer)."""

from __future__ import annotations

from dataclasses import replace

from ladder.play import play_builtin
from ladder.replay import ENGINE_VERSION, SCHEMA_VERSION, Decision, Fault, Header, LoggedEvent, Replay, SeatRecord
from ladder.web.steps import steps


def test_treasure_turns_carry_the_grid_as_it_stood():
    replay = play_builtin("treasure", ["careful", "random", "careful"], seed=5).replay
    sections = steps(replay, ["a", "b", "c"])
    assert sections[0].title == "Setup"
    turns = [s for s in sections if s.title.startswith("Turn ")]
    assert turns[0].title == "Turn 1: a (seat 0)"
    events = [e for e in replay.log if isinstance(e, LoggedEvent)]
    flips = sum(1 for e in events if e.type == "flip")
    assert sum(line.startswith("flips ") for s in sections for line in s.lines) == flips
    for section in turns:
        assert section.drawing is not None and len(section.drawing) == 7 and all(len(r) == 7 for r in section.drawing)
    kept = [e.to_json() for e in events if e.type == "keep"]
    assert kept, "a game where nobody keeps a tile says nothing"
    # once kept, a square is empty in every later turn's grid
    first = kept[0]["data"]["squares"][0]
    index = next(i for i, s in enumerate(sections) if any(line.startswith("keeps") for line in s.lines))
    assert sections[index].drawing[first[0]][first[1]]["state"] == "kept"
    for later in sections[index + 1:]:
        assert later.drawing[first[0]][first[1]]["state"] in ("empty", "known")  # a spider may move in
    assert sections[-1].title == "End" and "Scores:" in sections[-1].lines[0]


def test_drachengold_negotiation_sits_between_the_kill_and_the_split():
    for seed in range(1, 10):
        replay = play_builtin("drachengold", ["greedy", "random", "greedy"], seed=seed).replay
        sections = steps(replay, ["g1", "r", "g2"])
        talks = [s for s in sections if s.transcript]
        if talks:
            break
    else:
        raise AssertionError("no negotiation in nine seeded games")
    section = talks[0]
    kinds = ["talk" if b.talk else "line" for b in section.blocks]
    assert kinds.index("talk") > 0  # the kill comes first
    before = section.blocks[kinds.index("talk") - 1].lines
    assert any(" is slain by " in line for line in before)
    talk = section.blocks[kinds.index("talk")]
    assert talk.label == "Negotiation" and talk.lines[0].startswith("Negotiation over D")
    assert any(" proposes p" in line for line in talk.lines) and any("votes:" in line for line in talk.lines)
    proposals = sum(len(e.data["proposals"]) for e in replay.log if getattr(e, "type", None) == "proposals")
    assert sum(" proposes p" in line for s in sections for line in s.transcript) == proposals


def test_a_fault_is_told_in_its_turn():
    replay = play_builtin("treasure", ["careful", "random"], seed=2).replay
    at = next(i for i, e in enumerate(replay.log) if getattr(e, "kind", None) == "flip")
    timed_out = replace(replay.log[at], fault=Fault("timeout", "no answer in 1000 ms"))
    replay = replace(replay, log=(*replay.log[:at], timed_out, *replay.log[at + 1:]))
    sections = steps(replay, ["slow", "r"])
    assert any("⚠ slow (seat 0): timeout on flip (no answer in 1000 ms)" in line
               for s in sections for line in s.lines)


def test_unknown_games_fall_back_to_plain_lines():
    replay = Replay(Header(SCHEMA_VERSION, ENGINE_VERSION, "toy", {}, 0, 1), (SeatRecord(0, "x"),),
                    (Decision(0, "pick", {"n": 3}), LoggedEvent("picked", {"n": 3}, None)), ())
    [section] = steps(replay, ["x"])
    assert section.lines == ["x (seat 0) decides pick: n=3", "picked: n=3"]
