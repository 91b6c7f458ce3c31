"""A seat of a match played by a person in the browser: the proxy `ladder.play.play_game` talks to.

It never sees the person: it writes to the relay (ladder/relay.py) what the seat may see, on topic
`match:<id>:seat:<n>:down` (a hello, the events addressed to the seat, each request with its
observation and deadline, a refusal, the takeover, the end), and reads the page's answers and
presence on `...:up`, which the web tier writes (ladder/services/person_seat.py). The other seats'
bots stay frozen while the person thinks (workers/match/seat.py freezes a bot outside its own
requests), so the person's clock costs them nothing.

A person who runs out of their clock (`clock_s` a decision), whose page has not been seen for
`absent_s` (a closed tab: the page long-polls the relay through the web, and each poll says
"here"), or whose match outlives `budget_s` is handled like a faulty bot: the game's fallback bot
takes the seat for the rest of the game and the seat forfeits. Refused answers are strikes, as
for a bot. The methods besides the game's three are the runner's (workers/match/runner.py), the
same as a SandboxedSeat's.

A match the ladder plays again from the start (a voided attempt, a match given back by a stopping
worker) writes a `restart` before its `hello`, so the page starts its table afresh; during a voided
attempt the fallback plays the seat at once and the person is asked nothing more.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from bots import load_builtin, reference_bot
from ladder.play import BotFault, fresh_json
from ladder.relay import START, Relay, topics
from ladder.replay import SandboxRun, SeatRecord
from workers.match import protocol
from workers.match.protocol import Fault

log = logging.getLogger(__name__)

RESTART_REASON = "the ladder plays this game again from the start (its own failure, not yours)"
POLL_S = 1.0  # the longest one blocking read of the up topic: how late an absence is noticed


class PersonSeat:
    wire = True  # it only serialises what it is handed (to the relay)
    void: Any = None  # the match's MatchVoid (workers/match/seat.py), set by the runner

    def __init__(self, *, relay: Relay, match_id: int, seat: int, game: str, name: str, clock_s: float = 120.0,
                 absent_s: float = 45.0, budget_s: float | None = None, strikes: int = protocol.STRIKES,
                 clock: Any = time.monotonic, wall: Any = time.time) -> None:
        self.relay, self.match_id, self.seat, self.game, self.name = relay, match_id, seat, game, name
        self.clock_s, self.absent_s, self.max_strikes = float(clock_s), float(absent_s), strikes
        self.now, self.wall = clock, wall
        self.ends_at = None if budget_s is None else self.now() + budget_s
        self.down, self.up = topics.seat_down(match_id, seat), topics.seat_up(match_id, seat)
        # Answers left from an earlier attempt of this match (one the ladder voided) are not this game's.
        self.up_after = relay.last_id(self.up)
        self.hello: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []  # everything seen, so the fallback can catch up
        self.outbox: list[dict[str, Any]] = []  # events not yet written: they go with the next request
        self.request_id = 0
        self.kind: str | None = None
        self.strikes: list[dict[str, Any]] = []
        self.takeover: Fault | None = None
        self.takeover_at: int | None = None
        self.fallback: Any = None
        self.timings: list[list[float]] = []
        self.last_seen = self.now()

    # --- the game --------------------------------------------------------------------------

    def setup(self, hello: dict[str, Any]) -> None:
        self.hello = dict(hello)
        if self.relay.last_id(self.down) != START:  # an earlier attempt's table: the page starts over
            self._send({"type": "restart", "reason": RESTART_REASON})
        self._send({"type": "hello", "game": hello["game"], "seat": hello["seat"], "players": hello["players"],
                    "options": hello["options"], "clock_s": self.clock_s})

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self.fallback is not None:
            self.fallback.on_event(fresh_json(event))
        else:
            self.outbox.append({"type": "event", "event": event})

    def decide(self, kind: str, observation: dict[str, Any]) -> Any:
        if self.fallback is None and self.void is not None and self.void.fault is not None:
            self._take_over(None)  # a void attempt: nothing of it counts, the person waits for the restart
        if self.fallback is not None:
            return self.fallback.decide(kind, fresh_json(observation))
        self.request_id += 1
        rid, self.kind = self.request_id, kind
        start = self.now()
        deadline = start + self.clock_s
        if self.ends_at is not None and self.ends_at < deadline:
            deadline = self.ends_at
        self.last_seen = max(self.last_seen, start)  # the absence counts from here at the earliest
        request = {"type": "request", "id": rid, "kind": kind, "observation": observation,
                   "deadline": round(self.wall() + (deadline - start), 3), "clock_s": self.clock_s}
        self._send(*self.outbox, request)
        self.outbox.clear()
        while True:
            now = self.now()
            if now >= deadline:
                why = "the match's time for a person ran out" if deadline == self.ends_at else \
                    f"no answer to request {rid} ({kind}) within the person's clock of {self.clock_s:g} s"
                self._fail(Fault("timeout", why))
            if now - self.last_seen >= self.absent_s:
                self._fail(Fault("exited", f"left the table: the page was not seen for {self.absent_s:g} s"))
            wait = min(POLL_S, deadline - now, self.last_seen + self.absent_s - now)
            for message in self.relay.read(self.up, self.up_after, limit=100, block=max(0.01, wait)):
                self.up_after = message.id
                data = message.data
                if data.get("type") == "here":
                    self.last_seen = self.now()
                elif data.get("type") == "answer" and data.get("id") == rid and "decision" in data:
                    self.last_seen = self.now()
                    self.timings.append([round((self.now() - start) * 1000, 2), 0.0])
                    return data["decision"]
                # anything else (a late answer to an earlier request, a stranger's junk) is dropped

    def refused(self, entry: dict[str, Any]) -> None:
        """play_game played the default instead of this seat's answer: a strike, told to the page."""
        if self.takeover is not None:
            return
        reason = str(entry["fault"].get("reason"))
        self.strikes.append({"request": self.request_id, "kind": self.kind, "code": "illegal", "reason": reason})
        self._send({"type": "refused", "id": self.request_id, "reason": reason, "played": entry["decision"]})
        if len(self.strikes) >= self.max_strikes:
            self._take_over(Fault("illegal", f"{len(self.strikes)} strikes, the last: {reason}"))

    # --- faults and takeover -----------------------------------------------------------------

    def _fail(self, fault: Fault) -> None:
        self._take_over(fault)
        raise BotFault(fault.status, fault.reason, forfeit=True)

    def _take_over(self, fault: Fault | None) -> None:
        self.outbox.clear()
        if fault is not None:
            log.info("match %s seat %s: the fallback takes the person's seat: %s", self.match_id, self.seat,
                     fault.reason)
            self.takeover, self.takeover_at = fault, self.request_id
            self._send({"type": "takeover", "code": fault.code, "reason": fault.reason})
        bot = load_builtin(self.game, reference_bot(self.game))()
        bot.setup(self.hello)
        for event in self.events:
            bot.on_event(fresh_json(event))
        self.fallback = bot

    def _send(self, *messages: dict[str, Any]) -> None:
        """To the page; a relay that fails loses the page, never the match (the clock then ends it)."""
        try:
            self.relay.publish_many(self.down, list(messages))
        except Exception as exc:  # RelayError, or the backend's own (Redis, the database)
            log.warning("match %s seat %s: not relayed: %r", self.match_id, self.seat, exc)

    # --- the runner's calls ------------------------------------------------------------------

    @property
    def status(self) -> str:
        return "ok" if self.takeover is None else self.takeover.status

    @property
    def reason(self) -> str | None:
        return None if self.takeover is None else f"{self.takeover.code}: {self.takeover.reason}"

    def send_end(self, results: list[dict[str, Any]], grace_s: float) -> None:
        self._send(*self.outbox, {"type": "end", "results": results})
        self.outbox.clear()

    def wait_exit(self, deadline: float) -> None:
        pass  # no process

    def close(self) -> None:
        pass

    def completed(self, record: SeatRecord, *, forfeit: bool, sandbox: str) -> SeatRecord:
        takeover = None
        if self.takeover is not None:
            takeover = {"code": self.takeover.code, "reason": self.takeover.reason, "request": self.takeover_at}
        run = SandboxRun(sandbox="person", strikes=tuple(self.strikes), takeover=takeover,
                         timings=tuple(self.timings))
        return replace(record, status=self.status, reason=self.reason, forfeit=forfeit, run=run, stderr="")
