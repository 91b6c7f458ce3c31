"""A seat's decisions as its owner reviews them: per request the bot answered, its log entry, the
wall and CPU time it took against its clock, and the stderr it wrote while answering it. Pure, from
a replay (with the seat's stderr merged back: Replay.with_logs) and what the runner recorded in the
seat's SandboxRun: `timings` (one per request, in order, until a takeover), and, when recorded,
`clock` and `stderr_marks` (without them the clock and the per-request stderr are None)."""

from __future__ import annotations

from dataclasses import dataclass

from ladder.replay.model import Decision, Replay


@dataclass(frozen=True, slots=True)
class SeatDecision:
    request: int  # the protocol's request id for the seat (1, 2, ...)
    entry: int  # its index in the replay's log
    kind: str
    wall_ms: float
    cpu_ms: float
    decision_ms: int | None  # the clock's allowance per decision; None: not recorded
    bank_left_ms: float | None  # the time bank after this decision
    fault: str | None  # why the answer was refused (its default was played), if it was
    stderr: str | None  # what the bot wrote to stderr while answering; None: not recorded or not kept

    def as_json(self) -> dict:
        return {"request": self.request, "entry": self.entry, "kind": self.kind, "wall_ms": self.wall_ms,
                "cpu_ms": self.cpu_ms, "decision_ms": self.decision_ms, "bank_left_ms": self.bank_left_ms,
                "fault": self.fault, "stderr": self.stderr}


def seat_decisions(replay: Replay, seat: int) -> list[SeatDecision]:
    """The seat's answered requests in order; [] for a seat the runner saw nothing of (a house bot
    played in process, a local game)."""
    record = next((s for s in replay.seats if s.seat == seat), None)
    run = record.run if record is not None else None
    if run is None or not run.timings:
        return []
    clock = run.clock if isinstance(run.clock, dict) else None
    per_decision = clock.get("decision_ms") if clock else None
    bank = float(clock["bank_ms"]) if clock and "bank_ms" in clock else None
    pieces = _stderr_pieces(record.stderr, run.stderr_bytes, run.stderr_marks, len(run.timings))
    entries = [(i, e) for i, e in enumerate(replay.log) if isinstance(e, Decision) and e.seat == seat]
    out = []
    for number, ((index, entry), (wall, cpu)) in enumerate(zip(entries, run.timings, strict=False), 1):
        if bank is not None and per_decision is not None:
            bank = max(0.0, bank - max(0.0, wall - per_decision))
        out.append(SeatDecision(number, index, entry.kind, wall, cpu, per_decision,
                                None if bank is None else round(bank, 2),
                                entry.fault.reason if entry.fault is not None else None, pieces[number - 1]))
    return out


def _stderr_pieces(tail: str | None, total: int | None, marks: tuple[int, ...], count: int) -> list[str | None]:
    """Request k's stderr: the bytes between the marks before and after it, where the kept tail still
    holds them (the log keeps the last part of a long stderr: earlier pieces are None)."""
    if not marks or tail is None or total is None:
        return [None] * count
    data = tail.encode("utf-8")
    start = total - len(data)  # the byte offset of the tail in everything the bot wrote
    out, before = [], 0
    for k in range(count):
        after = marks[k] if k < len(marks) else None
        if after is None or before < start:
            out.append(None)
        else:
            out.append(data[before - start:after - start].decode("utf-8", "replace"))
        before = after if after is not None else before
    return out
