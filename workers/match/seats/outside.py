"""A seat played by a program outside the sandbox, on its owner's machine, through the relay.

The program speaks the same JSON lines as a sandboxed bot (docs/protocol.md); they travel over the
relay (ladder/relay/backends.py; topics and messages: ladder/relay/seat_relay.py) to the web tier's websocket
(ladder/web/api/seat_socket.py) and back. `OutsideSeat` is a `SandboxedSeat` whose process is a `RelayLink`,
so strikes, takeovers, the clock and the replay record are that class's, not a copy: the clock
counts the network (a decision's deadline is the same wall time as a sandboxed bot's). What a
link adds: every connection cut is a `disconnect` fault of the seat, listed in the replay (an HTTP
client's connection, which lives by its polls, is cut when it lets its lease run out); the
third cut, or a seat still cut off when a deadline passes, hands it to the fallback bot; a line
over the remote cap is `oversized` and lines sent unasked past a slack are a `flood`, both a
takeover as for a process. Nothing waits past the clock: each read ends at the seat's deadline.

A match played again from the start (an attempt the ladder voided, or a match a stopping worker
gave back) keeps the seat's topics and its client's connection: a voided attempt that is not the
last says no `close`, and the next attempt's first line is a `restart` (ladder/relay/seat_relay.py), so
the client starts its program afresh instead of meeting a second `hello` mid-stream.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ladder.games.base import Game
from ladder.relay import seat_relay
from ladder.replay import SandboxRun
from workers.match import protocol
from workers.match.protocol import Fault, TimeControl
from workers.match.seats.base import MatchVoid
from workers.match.seats.process import SandboxedSeat

MAX_CUTS = seat_relay.MAX_CUTS
POLL_S = 1.0  # longest single wait on the relay: a read never outlives its deadline by more
STARTUP_FLOOR_MS = 15000  # an outside seat's start-up allowance at least: time to connect
RESTART_REASON = "the ladder plays this match again from the start (its own failure, not a bot's)"


class RelayLink:
    """The calls SandboxedSeat makes of a BotProcess, over the relay's two topics of one seat."""

    exit_code = exit_signal = monitor_signal = None
    stderr_total = 0

    def __init__(self, relay: Any, match_id: int, seat: int, *, on_cut: Callable[[], None],
                 max_cuts: int = MAX_CUTS):
        self.relay, self.on_cut, self.max_cuts = relay, on_cut, max_cuts
        self.down, self.up = seat_relay.down_topic(match_id, seat), seat_relay.up_topic(match_id, seat)
        self.lines: deque[bytes] = deque()
        self.cuts = 0
        self.sticky: str | None = None  # an answer every later read gives: the link is finished
        self.delivered = False
        self.finished = False
        self.close_reason: str | None = "the match is over"  # None: no close (the match is played again)
        self.live: set[Any] = set()  # the web tier's connections to this seat now open (by their id)
        # an HTTP client's connection lives by its polls: each says until when (wall clock) it holds
        self.leases: dict[Any, float] = {}
        self.after = self._catch_up()

    @property
    def connected(self) -> bool:
        return bool(self.live)

    def _catch_up(self) -> str:
        """Note the connections open now, and start reading after everything said up before the
        match started (a voided attempt's lines are not this match's)."""
        after = "0"
        while True:
            batch = self.relay.read(self.up, after, limit=1000)
            if not batch:
                return after
            for message in batch:
                after = message.id
                mark, conn = message.data.get("mark"), message.data.get("conn")
                if mark in ("connect", "lease"):
                    self.live.add(conn)
                    if isinstance(message.data.get("until"), (int, float)):
                        self.leases[conn] = float(message.data["until"])
                elif mark == "cut":
                    self.live.discard(conn)
                    self.leases.pop(conn, None)

    # --- what the seat calls ---------------------------------------------------------------------

    def send_line(self, data: bytes, deadline: float, thaw: bool = False) -> tuple[bool, str]:
        if self.finished:
            return False, "closed"
        lines = [line.decode("ascii") for line in data.splitlines() if line]
        self.relay.publish_many(self.down, [{"line": line} for line in lines])
        return True, "ok"

    def read_line(self, deadline: float) -> tuple[bytes | None, str]:
        while True:
            if self.sticky is not None:  # before any line: the third cut takes the seat at once
                return None, self.sticky
            if self.lines:
                return self.lines.popleft(), "ok"
            if self.delivered:
                return None, "closed"
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout" if self.connected else "cutoff"
            self._take(self.relay.read(self.up, self.after, limit=64, block=min(left, POLL_S)))
            self._lapse()

    def _take(self, batch: list) -> None:
        for message in batch:
            self.after = message.id
            data = message.data
            line = data.get("line")
            if isinstance(line, str):
                self.lines.append(line.encode("utf-8", "replace"))
                continue
            mark, conn = data.get("mark"), data.get("conn")
            until = data.get("until") if isinstance(data.get("until"), (int, float)) else None
            if mark in ("connect", "lease"):
                at = data.get("at") if isinstance(data.get("at"), (int, float)) else None
                if conn in self.live and conn in self.leases and at is not None and at > self.leases[conn]:
                    self._cut(conn)  # it stopped polling past its lease before this poll: a cut, then back
                # A newer connection replaces every other: that is their cut, counted here. A websocket
                # also says its own cut, but only after its handler ends, up to a second later. By then
                # the new connection may have answered, and a third cut counted late would never hand
                # the seat over if that answer was the match's last.
                if mark == "connect":
                    for other in [c for c in self.live if c != conn]:
                        self._cut(other)
                self.live.add(conn)
                if until is not None:  # a POST's shorter lease never cuts a GET that is still waiting
                    self.leases[conn] = max(self.leases.get(conn, 0.0), float(until))
            elif mark == "cut" and conn in self.live:  # not when a newer connection's mark counted it
                self._cut(conn)
            elif mark in ("oversized", "flood") and self.sticky is None:
                self.sticky = mark
            elif mark == "delivered":
                self.delivered = True

    def _cut(self, conn: Any) -> None:
        self.live.discard(conn)
        self.leases.pop(conn, None)
        self.cuts += 1
        self.on_cut()
        if self.cuts >= self.max_cuts and self.sticky is None:
            self.sticky = "disconnect"

    def _lapse(self) -> None:
        """An HTTP client that stopped polling: its lease ran out, and that is a cut."""
        now = time.time()
        for conn in [c for c, until in self.leases.items() if until < now and c in self.live]:
            self._cut(conn)

    def freeze(self, wait: bool = False) -> None:
        pass  # the program runs on its owner's machine: only the clock holds it

    def thaw(self) -> None:
        pass

    def cpu_seconds(self) -> float:
        return 0.0  # not ours to measure: timings keep the wall time, which is what the clock counts

    def program_started(self) -> bool:
        return True

    def limit_events(self) -> dict[str, int]:
        return {}

    def stderr_tail(self) -> bytes:
        return b""

    def close(self) -> bool:
        """Tell the web tier the seat is finished with (it closes the websocket with the reason),
        and count the cuts already reported: each cut before this is one fault, none is lost."""
        if self.finished:
            return True
        self.finished = True
        if self.close_reason is not None:
            self.relay.publish(self.down, {"close": self.close_reason[:120]})
        while True:
            batch = self.relay.read(self.up, self.after, limit=1000)
            if not batch:
                self._lapse()
                return True
            self._take(batch)


def _cut_fault(seat: OutsideSeat, during: str) -> Fault:
    return Fault("disconnect", f"the connection was cut {len(seat.disconnects)} times, the last during {during}")


def _cutoff_fault(seat: OutsideSeat, during: str) -> Fault:
    if during == "start-up":
        return Fault("startup", f"no program connected within {seat.clock.startup_ms} ms")
    return Fault("disconnect", f"still cut off at the deadline of {during}")


class OutsideSeat(SandboxedSeat):
    """A seat whose bot is a program outside, reached through the relay (see the module's doc)."""

    LINK_FAULTS = {
        "disconnect": _cut_fault,
        "cutoff": _cutoff_fault,
        "oversized": lambda seat, during: Fault(
            "oversized", f"a line over {seat_relay.MAX_LINE_BYTES} bytes during {during}"),
        "flood": lambda seat, during: Fault(
            "flood", f"more lines than requests (past {seat_relay.FLOOD_SLACK} spare) during {during}"),
    }
    MAX_LINE_BYTES = seat_relay.MAX_LINE_BYTES

    def __init__(self, name: str, game: Game | str, *, relay: Any, match_id: int, seat: int,
                 clock: TimeControl | None = None, strikes: int = protocol.STRIKES,
                 lines: protocol.EventLines | None = None, void: MatchVoid | None = None,
                 max_cuts: int = MAX_CUTS, final_attempt: bool = True):
        clock = clock or TimeControl()
        clock = replace(clock, startup_ms=max(clock.startup_ms, STARTUP_FLOOR_MS))
        super().__init__(name, game, "remote", clock, strikes, lines, void=void, final_attempt=final_attempt)
        self.relay, self.match_id, self.seat_number = relay, match_id, seat
        self.link = RelayLink(relay, match_id, seat, on_cut=self._cut, max_cuts=max_cuts)

    def start(self, process_factory: Any = None) -> None:
        if seat_relay.played_before(self.relay, self.match_id, self.seat_number):
            self.relay.publish(self.link.down, {"line": seat_relay.restart_line(RESTART_REASON)})
        super().start(lambda: self.link)

    def _cut(self) -> None:
        self.disconnects.append({"request": self.request_id, "reason": "the connection was cut"})

    def close(self) -> None:
        if self.void.fault is not None and not self.final_attempt:
            self.link.close_reason = None  # played again: the client stays for the restart
        elif self.void.fault is not None:
            self.link.close_reason = f"the match failed on the ladder's side: {self.void.fault.reason}"
        elif self.takeover is not None:
            self.link.close_reason = f"the fallback bot plays this seat now: {self.takeover.code}"
        super().close()

    def _run(self, sandbox: str, takeover: dict[str, Any] | None) -> tuple[SandboxRun, str]:
        return super()._run("remote", takeover)
