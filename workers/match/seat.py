"""One seat of a match played by a bot process: the proxy `ladder.play.play_game` talks to.

It speaks docs/protocol.md to the process (through workers.sandbox.process, never starting anything
itself), keeps the bot frozen outside its own requests, spends the time bank, records wall and CPU
time per decision, and turns every misbehaviour into a `Fault`. Strikes (bad_json, wrong_id,
illegal) play the decision's default and tell the bot; the `strikes`-th strike, or any takeover
fault, hands the seat to the game's fallback bot (`Game.fallback_bot`) for the rest of the game. Events for a
frozen bot are queued and written just before its next request (or `end`): it could not read them
earlier anyway. What the ladder did wrong is never a fault of the bot (workers/match/blame.py): a bot
that cannot be started raises LadderFault from `start`, and a start-up death the ladder caused
voids the match (MatchVoid), which the runner turns into a LadderFault once the game has run out.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from bots import load_builtin, reference_bot
from ladder.play import BotFault, fresh_json
from ladder.replay import SandboxRun, SeatRecord
from workers.match import blame, protocol
from workers.match.protocol import Fault, TimeControl

log = logging.getLogger(__name__)

STARTUP_GRACE_S = 0.25


class MatchVoid:
    """Shared by the seats of one match: once the ladder failed (workers.match.blame) the match is void,
    every seat hands its bot to the fallback, the game runs out in process, the runner raises."""

    def __init__(self) -> None:
        self.fault: blame.LadderFault | None = None


class SandboxedSeat:
    wire = True  # play_game may hand it the engine's values: it only serialises them (or copies)
    # read_line's answers other than a process's ("disconnect", "flood"), each to its Fault: an
    # outside seat's link has them; the fault and strike handling stays this class's, shared
    LINK_FAULTS: dict[str, Any] = {}
    MAX_LINE_BYTES = protocol.MAX_LINE_BYTES  # what hello tells the bot

    def __init__(self, name: str, game: str, mode: str, clock: TimeControl, strikes: int = protocol.STRIKES,
                 lines: protocol.EventLines | None = None, void: MatchVoid | None = None,
                 final_attempt: bool = True):
        self.lines = lines or protocol.EventLines()  # shared by the seats of a match: encode once
        self.void = void or MatchVoid()
        self.final_attempt = final_attempt  # whether an uncertain ladder fault stands as the bot's
        self.name, self.game, self.mode, self.clock, self.max_strikes = name, game, mode, clock, strikes
        self.proc: Any = None  # a workers.sandbox.process.BotProcess once started
        self.started_at = time.monotonic()
        self.hello: dict[str, Any] = {}
        self.ready: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []  # everything seen, so a fallback can catch up
        self.pending: list[bytes] = []  # lines for the bot, written before its next request
        self.request_id = 0
        self.kind: str | None = None
        self.raised: Fault | None = None  # the strike decide() raised for the current request
        self.strikes: list[dict[str, Any]] = []
        self.disconnects: list[dict[str, Any]] = []  # an outside seat's cuts (none for a process)
        self.takeover: Fault | None = None
        self.takeover_at: int | None = None  # request id (0: before the first request)
        self.fallback: Any = None
        self.bank_ms = float(clock.bank_ms)
        self.timings: list[list[float]] = []  # [wall ms, cpu ms] per answered request
        self.cpu_mark = 0.0  # the bot's CPU seconds when it was last asked to freeze
        self.stderr = b""
        self.stderr_bytes = 0
        self.exit: dict[str, int | None] = {"code": None, "signal": None}
        self.clean: bool | None = None

    # --- start and handshake ---------------------------------------------------------------

    def start(self, process_factory) -> None:
        """`process_factory()` returns a started BotProcess. A failure (SandboxError, SlotBusy,
        SubprocessError, EAGAIN...) is the ladder's, never the bot's: it raises LadderFault."""
        self.started_at = time.monotonic()
        try:
            self.proc = process_factory()
        except Exception as exc:
            log.warning("seat %s: the sandbox could not start the bot: %r", self.name, exc)
            raise blame.start_failure(exc) from exc

    def setup(self, hello: dict[str, Any]) -> None:
        self.hello = dict(hello)
        if self._voided():
            return
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

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self.fallback is not None or self._voided():
            self.fallback.on_event(fresh_json(event))
        elif self.takeover is None and self.proc is not None:
            self.pending.append(self.lines.line(event))

    def decide(self, kind: str, observation: dict[str, Any]) -> Any:
        if self.fallback is not None or self._voided():
            return self.fallback.decide(kind, fresh_json(observation))
        self.request_id += 1
        self.kind, self.raised = kind, None
        rid, proc = self.request_id, self.proc
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

    def refused(self, entry: dict[str, Any]) -> None:
        """play_game replaced this seat's answer by `entry["decision"]` (the default): a strike."""
        if self.takeover is not None or self.proc is None:
            return  # the takeover fault itself, or the fallback's own mistake: no bot to tell
        fault = self.raised or Fault("illegal", str(entry["fault"].get("reason")))
        rid = self.request_id
        self.strikes.append({"request": rid, "kind": self.kind, "code": fault.code, "reason": fault.reason})
        self.pending.append(protocol.encode(protocol.error(rid, fault.code, fault.reason, entry["decision"])))
        if len(self.strikes) >= self.max_strikes:
            self._take_over(Fault(fault.code, f"{len(self.strikes)} strikes, the last: {fault.reason}"))

    # --- faults and takeover -----------------------------------------------------------------

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
        if why in self.LINK_FAULTS:  # an outside seat's link (workers/match/outside_seat.py)
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

    def _voided(self) -> bool:
        """Whether the match is void: then this seat's bot is handed to the fallback at once."""
        if self.void.fault is None:
            return False
        if self.takeover is None:
            self._take_over(Fault("error", f"the match is void: {self.void.fault.reason}"))
        return True

    def _fail(self, fault: Fault) -> None:
        self._take_over(fault)
        raise BotFault(fault.status, fault.reason, forfeit=True)

    def _take_over(self, fault: Fault) -> None:
        self.takeover, self.takeover_at = fault, self.request_id
        self.pending.clear()
        self.close()
        bot = load_builtin(self.game, reference_bot(self.game))()
        bot.setup(self.hello)
        for event in self.events:
            bot.on_event(fresh_json(event))
        self.fallback = bot

    # --- the end -----------------------------------------------------------------------------

    @property
    def status(self) -> str:
        return "ok" if self.takeover is None else self.takeover.status

    @property
    def reason(self) -> str | None:
        return None if self.takeover is None else f"{self.takeover.code}: {self.takeover.reason}"

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
        proc = self.proc
        if proc is None or self.clean is not None:
            return
        # a dead bot's counters, read while its group exists: a whole table killed is the ladder's (blame.table_killed)
        self.end_events = proc.limit_events() if self.takeover is not None else {}
        self.clean = proc.close()
        self.stderr, self.stderr_bytes = proc.stderr_tail(), proc.stderr_total
        self.exit = {"code": proc.exit_code, "signal": proc.exit_signal}

    def completed(self, record: SeatRecord, *, forfeit: bool, sandbox: str) -> SeatRecord:
        """play_game's record of this seat as the replay keeps it: its status is the takeover's
        (refused answers alone leave it "ok"), with what the sandbox saw and the bot's log."""
        takeover = None
        if self.takeover is not None:
            takeover = {"code": self.takeover.code, "reason": self.takeover.reason, "request": self.takeover_at}
        run = SandboxRun(
            sandbox=sandbox, ready=self.ready, strikes=tuple(self.strikes), takeover=takeover,
            timings=tuple(self.timings), bank_left_ms=round(self.bank_ms, 2), stderr_bytes=self.stderr_bytes,
            exit=self.exit, clean=self.clean, disconnects=tuple(self.disconnects),
        )
        # replacement characters are 3 bytes: re-cap so binary garbage cannot triple the log
        stderr = self.stderr.decode("utf-8", "replace").encode()[-protocol.LOG_BYTES:].decode("utf-8", "ignore")
        return replace(record, status=self.status, reason=self.reason, forfeit=forfeit, run=run, stderr=stderr)
