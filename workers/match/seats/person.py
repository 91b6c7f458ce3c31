"""A seat of a match played by a person in the browser: the proxy `ladder.play.play_game` talks to.

It never sees the person: it writes to the relay (ladder/relay/backends.py) what the seat may see, on topic
`match:<id>:seat:<n>:down` (a hello, the events addressed to the seat, each request with its
observation and deadline, a refusal, the takeover, the end), and reads the page's answers and
presence on `...:up`, which the web tier writes (ladder/services/person_seat.py). The other seats'
bots stay frozen while the person thinks (workers/match/seats/process.py freezes a bot outside its own
requests), so the person's clock costs them nothing.

A person who runs out of their clock (`clock_s` a decision), whose page has not been seen for
`absent_s` (a closed tab: the page long-polls the relay through the web, and each poll says
"here"), or whose match outlives `budget_s` is handled like a faulty bot: the game's fallback bot
takes the seat for the rest of the game and the seat forfeits. Refused answers are strikes, as
for a bot: the strikes and the takeover are every seat's (workers/match/seats/base.py).

A match the ladder plays again from the start (a voided attempt, a match given back by a stopping
worker) writes a `restart` before its `hello`, so the page starts its table afresh; during a voided
attempt the fallback plays the seat at once and the person is asked nothing more.
"""

from __future__ import annotations

import time
from typing import Any

from ladder.games.base import Game
from ladder.relay.backends import START, Relay, topics
from ladder.replay import SandboxRun
from workers.match import protocol
from workers.match.protocol import Fault
from workers.match.seats.base import MatchVoid, Seat, log

RESTART_REASON = "the ladder plays this game again from the start (its own failure, not yours)"
POLL_S = 1.0  # the longest one blocking read of the up topic: how late an absence is noticed


class PersonSeat(Seat):
    def __init__(self, *, relay: Relay, match_id: int, seat: int, game: Game | str, name: str, clock_s: float = 120.0,
                 absent_s: float = 45.0, budget_s: float | None = None, strikes: int = protocol.STRIKES,
                 void: MatchVoid | None = None, clock: Any = time.monotonic, wall: Any = time.time) -> None:
        super().__init__(name, game, strikes=strikes, void=void)
        self.relay, self.match_id, self.seat = relay, match_id, seat
        self.clock_s, self.absent_s = float(clock_s), float(absent_s)
        self.now, self.wall = clock, wall
        self.ends_at = None if budget_s is None else self.now() + budget_s
        self.down, self.up = topics.seat_down(match_id, seat), topics.seat_up(match_id, seat)
        # Answers left from an earlier attempt of this match (one the ladder voided) are not this game's.
        self.up_after = relay.last_id(self.up)
        self.outbox: list[dict[str, Any]] = []  # events not yet written: they go with the next request
        self.last_seen = self.now()

    # --- the game --------------------------------------------------------------------------

    def setup(self, hello: dict[str, Any]) -> None:
        self.hello = dict(hello)
        self._greet(self.hello)  # even in a void attempt: the page's table starts, and restarts after

    def _greet(self, hello: dict[str, Any]) -> None:
        if self.relay.last_id(self.down) != START:  # an earlier attempt's table: the page starts over
            self._send({"type": "restart", "reason": RESTART_REASON})
        self._send({"type": "hello", "game": hello["game"], "seat": hello["seat"], "players": hello["players"],
                    "options": hello["options"], "clock_s": self.clock_s})

    def _queue_event(self, event: dict[str, Any]) -> None:
        self.outbox.append({"type": "event", "event": event})

    def _ask(self, rid: int, kind: str, observation: dict[str, Any]) -> Any:
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

    def _tell_refused(self, rid: int, fault: Fault, default: Any) -> None:
        self._send({"type": "refused", "id": rid, "reason": fault.reason, "played": default})

    def _let_go(self, fault: Fault, voided: bool) -> None:
        self.outbox.clear()
        if not voided:  # a void attempt: nothing of it counts, the person waits for the restart
            self._send({"type": "takeover", "code": fault.code, "reason": fault.reason})

    def _send(self, *messages: dict[str, Any]) -> None:
        """To the page; a relay that fails loses the page, never the match (the clock then ends it)."""
        try:
            self.relay.publish_many(self.down, list(messages))
        except Exception as exc:  # RelayError, or the backend's own (Redis, the database)
            log.warning("match %s seat %s: not relayed: %r", self.match_id, self.seat, exc)

    # --- the runner's calls ------------------------------------------------------------------

    def send_end(self, results: list[dict[str, Any]], grace_s: float) -> None:
        self._send(*self.outbox, {"type": "end", "results": results})
        self.outbox.clear()

    def _run(self, sandbox: str, takeover: dict[str, Any] | None) -> tuple[SandboxRun, str]:
        return SandboxRun(sandbox="person", strikes=tuple(self.strikes), takeover=takeover,
                          timings=tuple(self.timings)), ""
