"""A seat played by a bot process: speaks docs/protocol.md to it through workers.sandbox.process
(never starting anything itself).

It keeps the bot frozen outside its own requests, spends the time bank, records wall and CPU time
per decision, and turns every misbehaviour into a `Fault`: strikes (bad_json, wrong_id, illegal)
play the decision's default and tell the bot; any takeover fault, or the last strike, hands the
seat to the fallback (workers/match/seats/base.py). Events for a frozen bot are queued and written
just before its next request (or `end`): it could not read them earlier anyway. What the ladder did
wrong is never a fault of the bot (workers/match/blame.py): a bot that cannot be started raises
LadderFault from `start`, and a start-up death the ladder caused voids the match (MatchVoid),
which the runner turns into a LadderFault once the game has run out. When it closes the process,
the seat keeps what the process did as one run record (workers/sandbox/record.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from ladder.games.base import Game
from ladder.play import BotFault
from ladder.replay import SandboxRun
from workers.match import blame, protocol
from workers.match.protocol import Fault, TimeControl
from workers.match.seats.base import MatchVoid, Seat
from workers.sandbox.record import RunRecord, status_of

log = logging.getLogger(__name__)

STARTUP_GRACE_S = 0.25


class SandboxedSeat(Seat):
    # read_line's answers other than a process's ("disconnect", "flood"), each to its Fault: an
    # outside seat's link has them; the fault and strike handling stays this class's, shared
    LINK_FAULTS: dict[str, Any] = {}
    MAX_LINE_BYTES = protocol.MAX_LINE_BYTES  # what hello tells the bot

    def __init__(self, name: str, game: Game | str, mode: str, clock: TimeControl, strikes: int = protocol.STRIKES,
                 lines: protocol.EventLines | None = None, void: MatchVoid | None = None,
                 final_attempt: bool = True, process: Callable[[], Any] | None = None):
        super().__init__(name, game, strikes=strikes, void=void, final_attempt=final_attempt)
        self.lines = lines or protocol.EventLines()  # shared by the seats of a match: encode once
        self.mode, self.clock = mode, clock
        self.process = process  # starts the bot's BotProcess (the runner's factory)
        self.proc: Any = None  # a workers.sandbox.process.BotProcess once started
        self.started_at = time.monotonic()
        self.ready: dict[str, Any] | None = None
        self.pending: list[bytes] = []  # lines for the bot, written before its next request
        self.disconnects: list[dict[str, Any]] = []  # an outside seat's cuts (none for a process)
        self.bank_ms = float(clock.bank_ms)
        self.cpu_mark = 0.0  # the bot's CPU seconds when it was last asked to freeze
        self.stderr_marks: list[int] = []  # its stderr's byte count at each answer, one per timing
        self.run: RunRecord | None = None

    # --- start and handshake ---------------------------------------------------------------

    def start(self, process_factory: Callable[[], Any] | None = None) -> None:
        """`process_factory()` (default: the one the seat was made with) returns a started
        BotProcess. A failure (SandboxError, SlotBusy, SubprocessError, EAGAIN...) is the ladder's,
        never the bot's: it raises LadderFault."""
        factory = process_factory or self.process
        self.started_at = time.monotonic()
        try:
            self.proc = factory()
        except Exception as exc:
            log.warning("seat %s: the sandbox could not start the bot: %r", self.name, exc)
            raise blame.start_failure(exc) from exc

    def _greet(self, hello: dict[str, Any]) -> None:
        message = protocol.hello(
            game=hello["game"], seat=hello["seat"], players=hello["players"], options=hello["options"],
            bot_seed=hello["bot_seed"], time=self.clock,
            limits=protocol.limits_json(max_line_bytes=self.MAX_LINE_BYTES, strikes=self.max_strikes),
        )
        # Bots start together and are greeted one after another: a bot whose ready is already
        # waiting must not lose its seat because the seat before it used its whole allowance.
        deadline = max(self.started_at + self.clock.startup_ms / 1000, time.monotonic() + STARTUP_GRACE_S)
        ok, why = self.proc.send_line(protocol.encode(message), deadline)
        if not ok:
            self._fail(self._send_fault(why, "start-up"))
        line, why = self.proc.read_line(deadline)
        if why != "ok":
            self._fail(self._read_fault(why, "start-up"))
        info, fault = protocol.decode_ready(line)
        if fault is not None:
            self._fail(fault)
        self.ready = info
        self.proc.freeze(wait=False)
        self.cpu_mark = self.proc.cpu_seconds()

    # --- the game ----------------------------------------------------------------------------

    def _queue_event(self, event: dict[str, Any]) -> None:
        if self.proc is not None:
            self.pending.append(self.lines.line(event))

    def _ask(self, rid: int, kind: str, observation: dict[str, Any]) -> Any:
        proc = self.proc
        data = b"".join(self.pending) + protocol.encode(protocol.request(rid, kind, observation))
        self.pending.clear()
        t0 = time.monotonic()
        deadline = t0 + (self.clock.decision_ms + self.bank_ms) / 1000
        during = f"request {rid} ({kind})"
        ok, why = proc.send_line(data, deadline, thaw=True)  # the bot's clock runs from here
        line = None
        if ok:
            line, why = proc.read_line(deadline)
        wall_ms = (time.monotonic() - t0) * 1000
        proc.freeze(wait=False)  # the kernel completes it while the engine works
        # The bot's CPU since it was last asked to freeze: frozen in between, it used none but
        # what it took to stop, so one reading per decision serves as this one's end and the next's start.
        cpu, self.cpu_mark = self.cpu_mark, proc.cpu_seconds()
        self.timings.append([round(wall_ms, 2), round((self.cpu_mark - cpu) * 1000, 2)])
        # how much it had written to stderr by its answer: the owner's view splits its log per decision
        # (ladder/replay/decisions.py); output the drain thread has not read yet counts for the next one
        self.stderr_marks.append(proc.stderr_total)
        self.bank_ms = max(0.0, self.bank_ms - max(0.0, wall_ms - self.clock.decision_ms))
        if not ok:
            self._fail(self._send_fault(why, during))
        if why != "ok":
            self._fail(self._read_fault(why, during))
        decision, fault = protocol.decode_answer(line, rid)
        if fault is not None:
            self.raised = fault
            raise BotFault(fault.status, fault.reason)
        return decision

    def _tell_refused(self, rid: int, fault: Fault, default: Any) -> None:
        self.pending.append(protocol.encode(protocol.error(rid, fault.code, fault.reason, default)))

    def _let_go(self, fault: Fault, voided: bool) -> None:
        self.pending.clear()
        self.close()

    # --- faults --------------------------------------------------------------------------------

    def _send_fault(self, why: str, during: str) -> Fault:
        if why == "timeout":
            code = "startup" if during == "start-up" else "timeout"
            return Fault(code, f"did not read its input during {during}")
        # the pipe is gone: most likely the bot exited, and then its exit says more
        why = self.proc.read_line(time.monotonic() + 0.5)[1]
        if why == "exited":
            return self._read_fault(why, during)
        return Fault("exited", f"closed its input during {during}")

    def _read_fault(self, why: str, during: str) -> Fault:
        if why in self.LINK_FAULTS:  # an outside seat's link (workers/match/seats/outside.py)
            return self.LINK_FAULTS[why](self, during)
        if why == "timeout":
            if during == "start-up":
                return Fault("startup", f"no ready within {self.clock.startup_ms} ms")
            return Fault("timeout", f"no answer to {during} within {self.clock.decision_ms} ms and the time bank")
        if why == "oversized":
            return Fault("oversized", f"a line over {protocol.MAX_LINE_BYTES} bytes during {during}")
        if why == "closed":
            return Fault("exited", f"closed its output during {during}")
        if during == "start-up":
            ladder = blame.startup_death(
                exit_signal=self.proc.exit_signal, monitor_signal=self.proc.monitor_signal,
                program_started=self.proc.program_started(), events=self.proc.limit_events())
            if ladder is not None and not blame.charges_seat(ladder, self.final_attempt):
                log.warning("seat %s: the ladder failed at start-up: %s", self.name, ladder.reason)
                self.void.fault = self.void.fault or ladder
                return Fault("error", f"the ladder failed: {ladder.reason}")
        code, sig = self.proc.exit_code, self.proc.exit_signal
        foreign = blame.foreign_oom(self.proc.limit_events()) if sig is not None else None
        if foreign is not None:  # mid-game too: its own limits are all a bot answers for
            log.warning("seat %s: %s", self.name, foreign.reason)
            self.void.fault = self.void.fault or foreign
            return Fault("error", f"the ladder failed: {foreign.reason}")
        if sig is not None:
            limits = {k: v for k, v in self.proc.limit_events().items() if v and k != "memory_limit_bytes"}
            hit = f" ({', '.join(f'{k} {v}' for k, v in sorted(limits.items()))})" if limits else ""
            return Fault("crash", f"killed by {blame.signal_name(sig)} during {during}{hit}")
        if code:
            return Fault("crash", f"exited with code {code} during {during}")
        return Fault("exited", f"exited during {during}")

    # --- the end -----------------------------------------------------------------------------

    def send_end(self, results: list[dict[str, Any]], grace_s: float) -> None:
        if self.takeover is not None or self.proc is None:
            return
        self.proc.thaw()
        data = b"".join(self.pending) + protocol.encode(protocol.end(results, self.hello.get("seat", 0)))
        self.pending.clear()
        self.proc.send_line(data, time.monotonic() + grace_s)

    def wait_exit(self, deadline: float) -> None:
        """Give the bot until `deadline` to exit after `end` (whatever it still writes is dropped)."""
        if self.proc is None:
            return
        while time.monotonic() < deadline and self.proc.read_line(deadline)[1] == "ok":
            pass

    def close(self) -> None:
        """Stop the process (if it still runs) and keep its run record."""
        proc = self.proc
        if proc is None or self.run is not None:
            return
        running = proc.exit_code is None and proc.exit_signal is None  # no exit seen: the ladder stops it
        try:  # read while its group still exists: the close removes it
            cpu, events = max(self.cpu_mark, proc.cpu_seconds()), dict(proc.limit_events())
        except (OSError, ValueError):
            cpu, events = self.cpu_mark, {}
        clean = proc.close()
        code, sig = proc.exit_code, proc.exit_signal
        self.run = RunRecord(
            status=status_of(code, sig, running), time_s=cpu, wall_s=time.monotonic() - self.started_at,
            peak_memory_bytes=events.get("memory_peak_bytes"), exit_code=code, signal=sig, clean=clean,
            running=running, limits=blame.limits_reached(events, None if running else sig),
            monitor_signal=proc.monitor_signal, stderr=proc.stderr_tail(), stderr_bytes=proc.stderr_total,
            events=MappingProxyType(events))

    def _run(self, sandbox: str, takeover: dict[str, Any] | None) -> tuple[SandboxRun, str]:
        run = self.run
        sandbox_run = SandboxRun(
            sandbox=sandbox, ready=self.ready, strikes=tuple(self.strikes), takeover=takeover,
            timings=tuple(self.timings), bank_left_ms=round(self.bank_ms, 2),
            stderr_bytes=run.stderr_bytes if run is not None else 0,
            exit=run.exit_json() if run is not None else {"code": None, "signal": None},
            clean=run.clean if run is not None else None, disconnects=tuple(self.disconnects),
            clock={"decision_ms": self.clock.decision_ms, "bank_ms": self.clock.bank_ms},
            stderr_marks=tuple(self.stderr_marks),
        )
        # replacement characters are 3 bytes: re-cap so binary garbage cannot triple the log
        stderr = run.stderr if run is not None else b""
        return sandbox_run, stderr.decode("utf-8", "replace").encode()[-protocol.LOG_BYTES:].decode("utf-8", "ignore")
