"""Live matches: the matches being played, and what a spectator sees of one while it runs.

A worker publishes each match's public entries to the relay (workers/queue/live.py, whose
docstring lists the messages); the web tier only reads them back. Each web process keeps one
`Feed` per watched match: the messages read so far and the viewer frames drawn from them, so a
hundred spectators of one match cost one relay reader and one drawing per new batch, and a long
poll waits on the feed, not on the relay (`Feeds.wait`: one thread of the process reads a match's
topic at a time, the others wait for what it brings).

Frames are the game's own public view (the `stream` of its view module, seat None, nothing
revealed) drawn from the public entries (ladder/replay/public.py), so the live view is the
finished replay's public view as far as it has got: tests/replay/test_public.py. A feed feeds its
stream only the entries that came since it last drew, and answers from the client's last frame on
(ladder/games/frames.py): a batch costs what its own entries cost, however long the match has been
running (`ladder bench live` prints it early and late in a long match).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, select

from ladder.games.frames import FrameStream, Heading
from ladder.models import Match, MatchStatus
from ladder.relay.backends import MAX_READ, START, Relay, RelayError, RelayMessage, topics
from ladder.replay.public import typed_public_entry
from ladder.services.errors import Invalid, NotFound
from ladder.services.match_lists import ListedSeat, seats_by_match
from ladder.services.viewer import viewer_module

ENDED = (MatchStatus.FINISHED, MatchStatus.FAILED)
NOTE = ("Live: what the table sees as it happens. Hidden cards, private trades and the reasons for "
        "refused decisions are shown once the match is over.")
READ_SLICE = 2.0  # a feed's reader waits on the relay this long at a time, then looks at the clock again


# --- which matches are being played --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LiveMatch:
    match: Match
    seats: list[ListedSeat]


def live_matches(*, session: Session, game: str | None = None, limit: int = 20) -> list[LiveMatch]:
    """The matches being played now (of `game`), the most recently started first."""
    query = select(Match).where(Match.status == MatchStatus.RUNNING)
    if game is not None:
        query = query.where(Match.game == game)
    matches = list(session.exec(query.order_by(Match.started_at.desc(), Match.id.desc()).limit(limit)))
    seats = seats_by_match(session=session, match_ids=[m.id for m in matches])
    return [LiveMatch(m, seats.get(m.id, [])) for m in matches]


def live_match_json(live: LiveMatch) -> dict[str, Any]:
    m = live.match
    return {"id": m.id, "game": m.game, "kind": m.kind, "ranked": m.ranked,
            "started_at": m.started_at.isoformat() if m.started_at else None,
            "seats": [{"seat": s.seat, "bot_id": s.bot_id, "bot": s.bot_name}
                      for s in sorted(live.seats, key=lambda s: s.seat)]}


# --- one match's feed ----------------------------------------------------------------------------

@dataclass
class Feed:
    """What this process has read of one match's public topic, and the frames drawn of it."""

    match_id: int
    cursor: str = START  # the id of the last message read
    started: str = ""  # the id of the current attempt's start message: names the attempt, whoever plays it
    heading: Heading | None = None  # from the start message of the current attempt
    entries: list[dict[str, Any]] = field(default_factory=list)  # the current attempt's entries read so far
    fed: int = 0  # how many of them the stream has drawn
    stream: FrameStream | None = None  # the game's public frames of entries[:fed]
    ended: str | None = None  # the end message's status
    broken: bool = False  # a gap, or the topic lost its start: the live view stops, the replay follows
    reading: bool = False  # a thread is reading the relay for this feed
    cond: threading.Condition = field(default_factory=threading.Condition)

    def apply(self, message: RelayMessage) -> None:
        data = message.data
        kind = data.get("type")
        if kind == "start":
            self.started = message.id
            self.heading = _heading(data)
            self.entries, self.fed, self.stream = [], 0, None
            self.ended, self.broken = None, self.heading is None
        elif kind == "entries":
            entries = data.get("entries") or []
            if self.heading is None or data.get("first") != len(self.entries):
                self.broken = True  # messages were lost (trimmed, or read from the middle)
            elif not self.broken:
                self.entries.extend(entries)
        elif kind == "gap":
            self.broken = True
        elif kind == "end":
            self.ended = str(data.get("status"))
        self.cursor = message.id

    @property
    def received(self) -> int:
        return len(self.entries)

    def draw(self) -> FrameStream | None:
        """The stream fed the entries that came since it last drew (under `cond`); None: nothing
        to draw (no viewer for the game, no start, or a broken feed)."""
        if self.broken or self.heading is None:
            return None
        if self.stream is None:
            module = viewer_module(self.heading.game)
            if module is None:
                return None
            self.stream = module.stream(self.heading, None, reveal=False)
        try:
            self.stream.feed([typed_public_entry(raw) for raw in self.entries[self.fed:]], self.fed)
        except (KeyError, TypeError, ValueError):  # not an entry the worker publishes: the replay follows
            self.broken, self.stream = True, None
            return None
        self.fed = len(self.entries)
        return self.stream


def _heading(start: dict[str, Any]) -> Heading | None:
    try:
        names = [str(n) for n in start.get("names") or []]
        return Heading(str(start.get("game")), int(start.get("players") or len(names)),
                       dict(start.get("options") or {}), tuple(names))
    except (TypeError, ValueError):
        return None


class Feeds:
    """This process's feeds, the most recently watched kept (one relay, one database)."""

    def __init__(self, relay: Relay, size: int = 64) -> None:
        self.relay = relay
        self.size = size
        self._feeds: OrderedDict[int, Feed] = OrderedDict()
        self._lock = threading.Lock()

    def feed(self, match_id: int) -> Feed:
        with self._lock:
            feed = self._feeds.get(match_id)
            if feed is None:
                feed = self._feeds[match_id] = Feed(match_id)
                while len(self._feeds) > self.size:
                    self._feeds.popitem(last=False)
            self._feeds.move_to_end(match_id)
            return feed

    def catch_up(self, feed: Feed, wait: float = 0.0) -> None:
        """Read what the topic holds past the feed's cursor; with `wait`, wait up to that long for
        the cursor to move (one thread reads the relay, the others wait on the feed)."""
        deadline = time.monotonic() + wait
        with feed.cond:
            start = feed.cursor
            while True:
                if not feed.reading:
                    self._read(feed, block=min(READ_SLICE, max(0.0, deadline - time.monotonic())))
                elif feed.cursor == start:
                    feed.cond.wait(max(0.0, deadline - time.monotonic()))
                if feed.cursor != start or time.monotonic() >= deadline:
                    return

    def _read(self, feed: Feed, block: float) -> None:
        """Called holding feed.cond; releases it while the relay is read."""
        feed.reading = True
        cursor = feed.cursor
        feed.cond.release()
        messages: list[RelayMessage] = []
        try:
            batch = self.relay.read(topics.public(feed.match_id), cursor, limit=MAX_READ, block=block)
            while batch:
                messages += batch
                if len(batch) < MAX_READ:
                    break
                batch = self.relay.read(topics.public(feed.match_id), batch[-1].id, limit=MAX_READ)
        finally:
            feed.cond.acquire()
            feed.reading = False
            for message in messages:
                feed.apply(message)
            feed.cond.notify_all()


@dataclass(frozen=True, slots=True)
class LiveFrames:
    """The viewer's answer: frames from `start` on replace the ones the client has from there."""

    status: str  # the match's status in the database
    done: bool  # the match is over: the finished replay takes over
    live: bool  # the live view can be drawn (False: not started yet, or broken)
    cursor: str
    attempt: str  # the start message's id: a new one means the frames start over
    start: int
    frames: list[dict[str, Any]]
    total: int
    names: list[str]
    game: str

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "done": self.done, "live": self.live, "cursor": self.cursor,
                "attempt": self.attempt, "from": self.start, "frames": self.frames, "total": self.total,
                "names": self.names, "game": self.game, "view": "public", "seat": None, "note": NOTE,
                "score_label": _score_label(self.game), "results": []}


def _score_label(game: str) -> str:
    module = viewer_module(game)
    label = getattr(module, "score_label", None)
    return label(None, False) if callable(label) else "score"


def _match(session: Session, match_id: int) -> Match:
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}")
    return match


def live_frames(*, session: Session, feeds: Feeds, match_id: int, cursor: str | None = None, attempt: str = "",
                have: int = 0, wait: float = 0.0) -> LiveFrames:
    """What the viewer of a running match draws next. `cursor`, `attempt` and `have` (frames it
    holds) are what the client had; with `wait`, wait up to that long for something newer. The
    answer repeats the client's last frame (a fault line may still join it) and sends the rest."""
    match = _match(session, match_id)  # the client's cursor is only compared with the feed's, never read
    feed = feeds.feed(match_id)
    if match.status not in ENDED:
        feeds.catch_up(feed)
        with feed.cond:
            fresh = feed.cursor != cursor
        if not fresh and wait > 0:
            session.rollback()  # no read transaction (and its old snapshot) stays open while it waits
            feeds.catch_up(feed, wait)
            match = _match(session, match_id)  # the end may have come meanwhile: the database says so
    with feed.cond:
        stream = feed.draw()
        total = stream.count() if stream is not None else 0
        same_attempt = attempt == feed.started
        start = max(0, min(have, total) - 1) if same_attempt else 0
        frames = stream.frames_from(start) if stream is not None else []
        names = list(feed.heading.names) if feed.heading is not None else []
        # The database says when it is over; the end message only wakes the polls (it is sent after
        # the result is stored, and never for a match given back to the queue).
        return LiveFrames(str(match.status), match.status in ENDED, total > 0, feed.cursor, feed.started, start,
                          frames, total, names, match.game)


def live_messages(*, session: Session, relay: Relay, match_id: int, after: str = START, wait: float = 0.0,
                  limit: int = 200) -> dict[str, Any]:
    """The API's raw feed: the topic's messages after `after` (the messages are documented in
    workers/queue/live.py), waiting up to `wait` seconds for the first when there is none."""
    match = _match(session, match_id)
    if wait > 0 and match.status not in ENDED:
        session.rollback()  # no read transaction stays open while it waits
    try:
        messages = relay.read(topics.public(match_id), after, limit=limit, block=0.0 if match.status in ENDED else wait)
    except RelayError as exc:  # a cursor that is not one of the relay's ids
        raise Invalid(str(exc)) from None
    if wait > 0 and match.status not in ENDED:
        session.rollback()
        match = _match(session, match_id)
    return {"match": match_id, "status": str(match.status), "cursor": messages[-1].id if messages else after,
            "messages": [{"id": m.id, **m.data} for m in messages]}
