"""The relay: the one channel between a running match and the outside world.

Spectators following a live match, a person playing a seat from the browser and a program playing
a seat from its owner's machine all talk to the worker that plays the match through topics of this
relay, never to the worker itself: the web tier relays, it never plays, and it may run on another
host than the worker.

A topic is an append-only log of JSON messages. Each message gets an id, ordered within its topic;
a reader passes the last id it has read and gets only what came after it, so a reload, a dropped
connection or a second tab loses nothing and repeats nothing. Ids are opaque strings ("0" is
"before the first"), comparable only by the backend that made them.

Backends, picked by `relay_for` from the one settings object:
- Redis streams (XADD/XREAD) when REDIS_URL is set, so web and workers may be on different hosts;
- the ladder's own database (table `relay_messages`) otherwise, so `ladder up`'s embedded SQLite
  setup needs nothing more; a blocking read polls;
- an in-process memory relay for tests and single-process tools.

Every topic is trimmed to its last MAX_TOPIC_MESSAGES and expires TOPIC_TTL after its last write,
so an abandoned match cannot grow the store without bound; one message is at most
MAX_MESSAGE_BYTES of JSON (a flood of huge answers is refused, not stored).
"""

from __future__ import annotations

import json
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ladder.config import Settings

MAX_MESSAGE_BYTES = 256 * 1024
MAX_TOPIC_MESSAGES = 10_000
TOPIC_TTL = timedelta(days=1)
MAX_TOPIC_LENGTH = 200
MAX_READ = 1000
POLL_SECONDS = 0.1  # the database backend's blocking read: how often it looks again
START = "0"

_TOPIC = re.compile(rf"^[A-Za-z0-9:_.-]{{1,{MAX_TOPIC_LENGTH}}}$")


class RelayError(ValueError):
    """A message, topic or id the relay refuses: the caller's fault, never the relay's."""


@dataclass(frozen=True)
class RelayMessage:
    id: str
    data: dict[str, Any]


class topics:  # lower case: a namespace of topic names, read as topics.public(7)
    """The topic names, in one place."""

    @staticmethod
    def public(match_id: int) -> str:
        """A match's public entries, as they happen (live spectators)."""
        return f"match:{int(match_id)}:public"

    @staticmethod
    def seat_down(match_id: int, seat: int) -> str:
        """Requests from the worker to an outside seat (a person or a remote program)."""
        return f"match:{int(match_id)}:seat:{int(seat)}:down"

    @staticmethod
    def seat_up(match_id: int, seat: int) -> str:
        """An outside seat's answers back to the worker."""
        return f"match:{int(match_id)}:seat:{int(seat)}:up"

    @staticmethod
    def seat_waiter(match_id: int, seat: int, conn: str) -> str:
        """One polling connection's waiting GETs, a mark each: the newest is the one that waits
        (ladder/web/api/seat_poll.py). `conn` is the ladder's own hex name of the connection."""
        return f"match:{int(match_id)}:seat:{int(seat)}:conn:{conn}"


def _check_topic(topic: str) -> str:
    if not isinstance(topic, str) or not _TOPIC.match(topic):
        raise RelayError(f"bad relay topic {topic!r}: 1-{MAX_TOPIC_LENGTH} of A-Z a-z 0-9 : _ . -")
    return topic


def encode(message: dict[str, Any]) -> str:
    """The message as compact JSON, refused when it is not a JSON object or is too large."""
    if not isinstance(message, dict):
        raise RelayError("a relay message is a JSON object")
    try:
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RelayError(f"a relay message must be JSON: {exc}") from None
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise RelayError(f"a relay message is at most {MAX_MESSAGE_BYTES} bytes of JSON")
    return text


class Relay(ABC):
    """Append-only topics of JSON messages; see the module's docstring."""

    def publish(self, topic: str, message: dict[str, Any]) -> str:
        """Append one message; returns its id."""
        return self.publish_many(topic, [message])[0]

    def publish_many(self, topic: str, messages: Iterable[dict[str, Any]]) -> list[str]:
        """Append messages in order in one round trip; returns their ids. All or none are stored."""
        return self.publish_encoded(topic, [encode(m) for m in messages])

    def publish_encoded(self, topic: str, bodies: Sequence[str]) -> list[str]:
        """`publish_many` for messages the caller already encoded as compact JSON objects (the live
        publisher builds its batches from entries it encoded once to measure them); the size cap
        still holds. All or none are stored."""
        for body in bodies:
            if not isinstance(body, str) or not body.startswith("{"):
                raise RelayError("a relay message is a JSON object")
            if len(body.encode()) > MAX_MESSAGE_BYTES:
                raise RelayError(f"a relay message is at most {MAX_MESSAGE_BYTES} bytes of JSON")
        if not bodies:
            return []
        return self._append(_check_topic(topic), list(bodies))

    def read(self, topic: str, after: str = START, *, limit: int = 200, block: float = 0.0) -> list[RelayMessage]:
        """The messages after id `after`, oldest first, at most `limit`. With `block` > 0 and nothing
        there yet, wait up to `block` seconds for the first one (a long poll)."""
        _check_topic(topic)
        limit = max(1, min(int(limit), MAX_READ))
        key = self._parse_id(after)
        deadline = time.monotonic() + max(0.0, block)
        while True:
            found = self._read_now(topic, key, limit)
            remaining = deadline - time.monotonic()
            if found or remaining <= 0:
                return found
            self._wait(topic, key, remaining)

    @abstractmethod
    def last_id(self, topic: str) -> str:
        """The id of the topic's newest message, START when it has none."""

    @abstractmethod
    def delete(self, topic: str) -> None:
        """Forget a topic (nothing happens when it does not exist)."""

    def close(self) -> None:  # noqa: B027 - only some backends hold resources
        """Release connections."""

    # -- per backend --

    @abstractmethod
    def _append(self, topic: str, bodies: Sequence[str]) -> list[str]: ...

    @abstractmethod
    def _read_now(self, topic: str, after: Any, limit: int) -> list[RelayMessage]: ...

    @abstractmethod
    def _parse_id(self, message_id: str) -> Any:
        """The backend's form of an id; RelayError when it is not one (ids come from clients)."""

    def _wait(self, topic: str, after: Any, seconds: float) -> None:
        time.sleep(min(POLL_SECONDS, seconds))


def _sequence_id(message_id: str) -> int:
    if not isinstance(message_id, str) or not message_id.isascii() or not message_id.isdigit() or len(message_id) > 19:
        raise RelayError(f"bad relay message id {message_id!r}")
    return int(message_id)


class MemoryRelay(Relay):
    """In one process: tests, and tools that play and watch in the same process."""

    def __init__(self) -> None:
        self._topics: dict[str, list[tuple[int, str]]] = {}
        self._next: dict[str, int] = {}
        self._changed = threading.Condition()

    def _append(self, topic, bodies):
        with self._changed:
            log = self._topics.setdefault(topic, [])
            ids = []
            for body in bodies:
                seq = self._next.get(topic, 0) + 1
                self._next[topic] = seq
                log.append((seq, body))
                ids.append(str(seq))
            del log[:-MAX_TOPIC_MESSAGES]
            self._changed.notify_all()
        return ids

    def _read_now(self, topic, after, limit):
        with self._changed:
            log = self._topics.get(topic, [])
            return [RelayMessage(str(seq), json.loads(body)) for seq, body in log if seq > after][:limit]

    def _wait(self, topic, after, seconds):
        with self._changed:
            log = self._topics.get(topic, [])
            if not log or log[-1][0] <= after:
                self._changed.wait(seconds)

    def _parse_id(self, message_id):
        return _sequence_id(message_id)

    def last_id(self, topic):
        with self._changed:
            return str(self._next.get(_check_topic(topic), 0))

    def delete(self, topic):
        with self._changed:
            self._topics.pop(_check_topic(topic), None)
            self._next.pop(topic, None)


class SqlRelay(Relay):
    """The ladder's own database (table relay_messages): SQLite for `ladder up`, or PostgreSQL
    without Redis. `seq` is the topic's max + 1 under the primary key (topic, seq): a concurrent
    publisher that took the same number fails on the key and tries again, so sequence numbers
    commit in order and a reader resuming after seq N never misses one that commits later."""

    TRIES = 20

    def __init__(self, engine: Engine) -> None:
        from ladder.models import RelayEntry

        self.engine = engine
        self._table = RelayEntry.__table__

    def _append(self, topic, bodies):
        import sqlalchemy as sa
        from sqlalchemy.exc import IntegrityError

        from ladder.models import utcnow

        t = self._table
        for attempt in range(self.TRIES):
            try:
                with self.engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
                    last = conn.execute(sa.select(sa.func.max(t.c.seq)).where(t.c.topic == topic)).scalar() or 0
                    now = utcnow()
                    rows = [{"topic": topic, "seq": last + i, "body": body, "created_at": now}
                            for i, body in enumerate(bodies, 1)]
                    conn.execute(t.insert(), rows)
                    newest = last + len(bodies)
                    if newest > MAX_TOPIC_MESSAGES and (last // 100) != (newest // 100):
                        # trimmed every hundred messages, not on each append: one cheap DELETE
                        conn.execute(t.delete().where(t.c.topic == topic, t.c.seq <= newest - MAX_TOPIC_MESSAGES))
                    if last == 0:
                        # a new topic (a new match): a good moment to drop whole expired topics
                        conn.execute(t.delete().where(t.c.created_at < now - TOPIC_TTL))
                return [str(row["seq"]) for row in rows]
            except IntegrityError:
                if attempt == self.TRIES - 1:
                    raise
                time.sleep(0.005 * (attempt + 1))
        raise AssertionError("unreachable")

    def _read_now(self, topic, after, limit):
        import sqlalchemy as sa

        t = self._table
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.c.seq, t.c.body).where(t.c.topic == topic, t.c.seq > after)
                                .order_by(t.c.seq).limit(limit)).all()
        return [RelayMessage(str(seq), json.loads(body)) for seq, body in rows]

    def _parse_id(self, message_id):
        return _sequence_id(message_id)

    def last_id(self, topic):
        import sqlalchemy as sa

        t = self._table
        with self.engine.connect() as conn:
            last = conn.execute(sa.select(sa.func.max(t.c.seq)).where(t.c.topic == _check_topic(topic))).scalar()
        return str(last or 0)

    def delete(self, topic):
        with self.engine.connect().execution_options(sqlite_begin="IMMEDIATE") as conn, conn.begin():
            conn.execute(self._table.delete().where(self._table.c.topic == _check_topic(topic)))


_STREAM_ID = re.compile(r"^\d{1,20}(-\d{1,20})?$")


class RedisRelay(Relay):
    """Redis streams: one stream per topic under `ladder:relay:`, trimmed approximately to
    MAX_TOPIC_MESSAGES (XADD MAXLEN ~) and expiring TOPIC_TTL after the last write. A blocking
    read is XREAD BLOCK, so a long poll costs Redis nothing while it waits."""

    PREFIX = "ladder:relay:"

    def __init__(self, url: str) -> None:
        import redis

        # The socket timeout must outlast the longest XREAD BLOCK (a long poll), plus slack.
        self.redis = redis.Redis.from_url(url, socket_timeout=60, socket_connect_timeout=10, health_check_interval=30)

    def _key(self, topic: str) -> str:
        return self.PREFIX + topic

    def _append(self, topic, bodies):
        key = self._key(topic)
        pipe = self.redis.pipeline(transaction=True)
        for body in bodies:
            pipe.xadd(key, {"m": body}, maxlen=MAX_TOPIC_MESSAGES, approximate=True)
        pipe.expire(key, int(TOPIC_TTL.total_seconds()))
        result = pipe.execute()
        return [i.decode() if isinstance(i, bytes) else i for i in result[: len(bodies)]]

    def _parse_id(self, message_id):
        if message_id == START:
            return "0-0"
        if not isinstance(message_id, str) or not _STREAM_ID.match(message_id):
            raise RelayError(f"bad relay message id {message_id!r}")
        return message_id

    @staticmethod
    def _messages(entries) -> list[RelayMessage]:
        out = []
        for message_id, fields in entries:
            mid = message_id.decode() if isinstance(message_id, bytes) else message_id
            out.append(RelayMessage(mid, json.loads(fields[b"m"] if b"m" in fields else fields["m"])))
        return out

    def read(self, topic, after=START, *, limit=200, block=0.0):
        # XREAD BLOCK waits in Redis itself, instead of the base class's polling loop.
        key = self._key(_check_topic(topic))
        after_id = self._parse_id(after)
        limit = max(1, min(int(limit), MAX_READ))
        block_ms = int(max(0.0, min(block, 55.0)) * 1000)
        reply = self.redis.xread({key: after_id}, count=limit, block=block_ms or None)
        if not reply:
            return []
        return self._messages(reply[0][1])

    def _read_now(self, topic, after, limit):
        return self.read(topic, after, limit=limit)

    def last_id(self, topic):
        newest = self.redis.xrevrange(self._key(_check_topic(topic)), count=1)
        return self._messages(newest)[0].id if newest else START

    def delete(self, topic):
        self.redis.delete(self._key(_check_topic(topic)))

    def close(self):
        self.redis.close()


def relay_for(settings: Settings, engine: Engine | None = None) -> Relay:
    """Redis streams when REDIS_URL is set, else the ladder's database (the given engine, or one
    made for the settings' database, which must be migrated)."""
    if settings.redis_url:
        return RedisRelay(settings.redis_url)
    if engine is None:
        from ladder.db import make_engine

        engine = make_engine(settings)
    return SqlRelay(engine)
