"""A seat's decisions for its owner (ladder/replay/decisions.py): each request's log entry, its time
against the clock, the bank it leaves, and the stderr written while answering it."""

from __future__ import annotations

from dataclasses import replace

from ladder.play import play_builtin
from ladder.replay.decisions import seat_decisions
from ladder.replay.model import Decision, SandboxRun


def _game():
    return play_builtin("treasure", ["random", "careful"], seed=4).replay


def _with_run(replay, seat, run, stderr):
    seats = tuple(replace(s, run=run, stderr=stderr) if s.seat == seat else s for s in replay.seats)
    return replace(replay, seats=seats)


def test_each_request_gets_its_entry_time_bank_and_stderr():
    replay = _game()
    mine = [i for i, e in enumerate(replay.log) if isinstance(e, Decision) and e.seat == 0]
    pieces = [f"thinking about request {k}\n".encode() for k in range(1, len(mine) + 1)]
    marks = [sum(len(p) for p in pieces[:k]) for k in range(1, len(mine) + 1)]
    timings = [[1500.0, 900.0] if k == 1 else [20.0, 10.0] for k in range(len(mine))]  # the first overruns
    run = SandboxRun("strict", timings=tuple(timings), clock={"decision_ms": 1000, "bank_ms": 10000},
                     stderr_marks=tuple(marks), stderr_bytes=marks[-1])
    got = seat_decisions(_with_run(replay, 0, run, b"".join(pieces).decode()), 0)
    assert [d.entry for d in got] == mine and [d.request for d in got] == list(range(1, len(mine) + 1))
    assert got[1].wall_ms == 1500.0 and got[1].bank_left_ms == 9500.0 and got[0].bank_left_ms == 10000.0
    assert got[-1].bank_left_ms == 9500.0 and got[0].decision_ms == 1000
    assert [d.stderr for d in got] == [p.decode() for p in pieces]
    again = SandboxRun.from_json(run.to_json())
    assert again == run  # the new fields round-trip through the replay's JSON


def test_a_cut_log_keeps_the_pieces_it_still_holds_and_an_old_record_has_no_clock():
    replay = _game()
    count = sum(isinstance(e, Decision) and e.seat == 0 for e in replay.log)
    marks = tuple(100 * k for k in range(1, count + 1))
    tail = ("x" * 100) * 2  # the last two requests' stderr only: the rest was dropped
    run = SandboxRun("strict", timings=tuple([5.0, 5.0] for _ in range(count)), stderr_marks=marks,
                     stderr_bytes=marks[-1])
    got = seat_decisions(_with_run(replay, 0, run, tail), 0)
    assert [d.stderr for d in got[-2:]] == ["x" * 100] * 2 and all(d.stderr is None for d in got[:-2])
    assert all(d.decision_ms is None and d.bank_left_ms is None for d in got)
    old = SandboxRun("strict", timings=((5.0, 5.0),))
    assert "clock" not in old.to_json() and "stderr_marks" not in old.to_json()  # older records stay as they were
    assert [d.stderr for d in seat_decisions(_with_run(replay, 0, old, "all of it"), 0)] == [None]
    assert seat_decisions(replay, 1) == []  # an in-process bot: nothing recorded
