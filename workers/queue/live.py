"""A match's public entries, published to the relay as the match is played (live spectators).

The play loop must not wait on the relay: a Redis round trip or an SQLite write lock taken per
entry would slow every match and tie its clock to the relay's health. So the play loop's thread
only appends each entry's public form (ladder/replay/public.py) to a queue, and a thread of the
publisher's own sends what has gathered every `every` seconds, in one `publish_many` round trip.
A relay that fails costs the spectators their live view, never the match: the batch is kept and
sent again on the next tick, and the match goes on.

Messages on `relay.topics.public(match_id)` (read by ladder/services/live.py):
- {"type": "start", "attempt": n, "game", "players", "options", "names"}: an attempt begins (a
  match voided by the ladder's own fault is played again from the start: blame.retrying);
- {"type": "entries", "first": k, "entries": [...]}: the attempt's public entries k, k+1, ...;
- {"type": "gap", "first": k}: entry k could not be sent (larger than a relay message); the live
  view stops there and the finished replay shows the rest;
- {"type": "end", "status": "finished" | "failed" | ...}: the match is over (its result is stored).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from ladder.games import get_game
from ladder.match import MatchPlan
from ladder.relay.backends import MAX_MESSAGE_BYTES, Relay, RelayError, encode, topics
from ladder.replay.public import public_entry

log = logging.getLogger(__name__)

EVERY_SECONDS = 0.25  # how often the thread publishes what gathered: a spectator's delay at most
BATCH_BYTES = MAX_MESSAGE_BYTES // 2  # an entries message stays well under the relay's cap
CLOSE_SECONDS = 5.0  # how long closing waits for the last batch to go out


class LivePublisher:
    """One match's live feed. `begin` at each attempt, `append` for every log entry (the play
    loop's on_entry), `end` once the result is stored, `close` always (it sends what is left)."""

    def __init__(self, relay: Relay, match_id: int, *, every: float = EVERY_SECONDS) -> None:
        self.relay = relay
        self.topic = topics.public(match_id)
        self.every = every
        self._queue: deque[tuple[str, Any]] = deque()  # ("entry", public form) or ("message", dict)
        self._unsent: list[str] = []  # encoded messages a failed publish kept for the next tick
        self._attempt = 0
        self._next = 0  # the next entry's index in this attempt's public entries (built by the thread)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False
        self.published = False  # whether a public entry went out (then a voided match is re-dealt)
        self.withheld = False  # a held match's feed (services/event_hold.py): nothing is sent

    def withhold(self) -> None:
        """Send nothing of this match: its events are held until its deal is over."""
        self.withheld = True

    # --- the play loop's side: appends only ---------------------------------------------------

    def begin(self, *, game: str, options: Mapping[str, Any] | None, names: Sequence[str]) -> None:
        """A new attempt of the match: spectators start over from this message."""
        self._begin(game, get_game(game).resolve_options(options), names)

    def begin_plan(self, plan: MatchPlan) -> None:
        """begin() for a match plan, whose options are resolved already: no game is looked up again."""
        self._begin(plan.game.name, plan.options, plan.names)

    def _begin(self, game: str, resolved: Mapping[str, Any], names: Sequence[str]) -> None:
        if self.withheld:
            return
        self._attempt += 1
        header = {"type": "start", "attempt": self._attempt, "game": game, "players": len(names),
                  "options": dict(resolved), "names": list(names)}
        self._queue.append(("message", header))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"live-{self.topic}", daemon=True)
            self._thread.start()

    def append(self, entry: dict[str, Any]) -> None:
        """The play loop's on_entry: the entry's public form joins the queue (nothing else)."""
        public = public_entry(entry) if not self.withheld else None
        if public is not None:
            self._queue.append(("entry", public))
            self.published = True

    def end(self, status: str) -> None:
        if not self.withheld:
            self._queue.append(("message", {"type": "end", "status": status}))

    def close(self, timeout: float = CLOSE_SECONDS) -> None:
        """Send what is queued and stop the thread (waits at most `timeout`)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("%s: the live feed's last batch was not sent in %.0f s", self.topic, timeout)

    # --- the publisher's thread ---------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._flush()
        self._flush()

    def _flush(self) -> None:
        messages = self._unsent + self._build()
        if not messages:
            return
        try:
            self.relay.publish_encoded(self.topic, messages)
        except Exception as exc:  # the relay is down or refused: the match goes on, the batch waits
            if not self._failing:
                log.warning("%s: live feed not published (%s: %s); trying again", self.topic, type(exc).__name__, exc)
            self._failing = True
            self._unsent = messages
            return
        if self._failing:
            log.info("%s: live feed published again", self.topic)
        self._failing = False
        self._unsent = []

    def _build(self) -> list[str]:
        """The queued items as encoded relay messages: runs of entries cut into messages under
        BATCH_BYTES. Each entry is encoded once, to measure it, and its text goes into the batch
        as it is (the relay would otherwise encode every entry a second time)."""
        out: list[str] = []
        batch: list[str] = []
        size = 0

        def close_batch() -> None:
            nonlocal batch, size
            if batch:
                out.append(f'{{"type":"entries","first":{self._next - len(batch)},"entries":[{",".join(batch)}]}}')
            batch, size = [], 0

        while self._queue:
            kind, item = self._queue.popleft()
            if kind == "message":
                close_batch()
                if item["type"] == "start":
                    self._next = 0
                try:
                    out.append(encode(item))
                except RelayError as exc:  # never expected (our own small dicts): say so, go on
                    log.warning("%s: live feed message %r not sent: %s", self.topic, item.get("type"), exc)
                continue
            try:
                text = json.dumps(item, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError):
                text = None
            length = len(text.encode()) if text is not None else 0
            if text is None or length > BATCH_BYTES:  # an entry no message can carry: the live view stops here
                close_batch()
                out.append(f'{{"type":"gap","first":{self._next}}}')
                self._next += 1
                continue
            if size + length > BATCH_BYTES:
                close_batch()
            batch.append(text)
            size += length + 1
            self._next += 1
        close_batch()
        return out
