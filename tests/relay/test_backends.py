"""The relay (ladder/relay/backends.py): every behaviour on every backend (memory, SQLite, PostgreSQL, Redis)."""

from __future__ import annotations

import threading
import time

import pytest
from service_support import pg_url, redis_url  # noqa: F401 (fixtures)

from ladder.config import Settings
from ladder.db import make_engine, upgrade
from ladder.relay.backends import (
    MAX_MESSAGE_BYTES,
    MAX_TOPIC_MESSAGES,
    MemoryRelay,
    RedisRelay,
    RelayError,
    SqlRelay,
    relay_for,
    topics,
)


@pytest.fixture(params=["memory", "sqlite", "postgresql", "redis"])
def relay(request):
    if request.param == "memory":
        yield MemoryRelay()
        return
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        relay = relay_for(Settings(redis_url=url))
        assert isinstance(relay, RedisRelay)
        yield relay
        relay.close()
        return
    if request.param == "sqlite":
        yield SqlRelay(request.getfixturevalue("engine_sqlite"))
        return
    engine = make_engine(request.getfixturevalue("pg_url"))
    upgrade(engine)
    yield SqlRelay(engine)
    engine.dispose()


@pytest.fixture
def engine_sqlite(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'relay.sqlite3'}")
    upgrade(engine)
    yield engine
    engine.dispose()


def test_a_reader_gets_what_came_after_its_last_id_in_order(relay):
    topic = topics.public(1)
    assert relay.read(topic) == []
    assert relay.last_id(topic) == "0"
    first = relay.publish(topic, {"n": 0})
    more = relay.publish_many(topic, [{"n": i} for i in range(1, 5)])
    got = relay.read(topic)
    assert [m.data["n"] for m in got] == [0, 1, 2, 3, 4]
    assert [m.id for m in got] == [first, *more]
    assert relay.last_id(topic) == more[-1]
    # resuming after the second message repeats nothing and loses nothing
    assert [m.data["n"] for m in relay.read(topic, got[1].id)] == [2, 3, 4]
    assert relay.read(topic, got[-1].id) == []
    assert [m.data["n"] for m in relay.read(topic, limit=2)] == [0, 1]


def test_topics_are_separate_and_deletable(relay):
    relay.publish(topics.seat_down(3, 0), {"to": 0})
    relay.publish(topics.seat_down(3, 1), {"to": 1})
    assert [m.data for m in relay.read(topics.seat_down(3, 1))] == [{"to": 1}]
    relay.delete(topics.seat_down(3, 1))
    assert relay.read(topics.seat_down(3, 1)) == []
    assert [m.data for m in relay.read(topics.seat_down(3, 0))] == [{"to": 0}]


def test_a_blocking_read_wakes_for_a_message_published_meanwhile(relay):
    topic = topics.seat_up(9, 2)
    start = relay.last_id(topic)

    def later():
        time.sleep(0.3)
        relay.publish(topic, {"answer": 42})

    thread = threading.Thread(target=later)
    thread.start()
    got = relay.read(topic, start, block=20)
    thread.join()
    assert [m.data for m in got] == [{"answer": 42}]


def test_a_blocking_read_with_nothing_new_returns_empty_after_its_wait(relay):
    began = time.monotonic()
    assert relay.read(topics.public(77), block=0.3) == []
    assert time.monotonic() - began >= 0.25


@pytest.mark.parametrize("bad", ["", "a b", "x" * 201, "match:1\x00", "../etc"])
def test_bad_topics_are_refused(relay, bad):
    with pytest.raises(RelayError):
        relay.publish(bad, {})
    with pytest.raises(RelayError):
        relay.read(bad)


@pytest.mark.parametrize("bad", ["abc", "-1", "1e9", "", "1-x", "\x00", "9" * 30])
def test_ids_from_clients_are_checked(relay, bad):
    with pytest.raises(RelayError):
        relay.read(topics.public(1), bad)


def test_messages_must_be_json_objects_of_bounded_size(relay):
    topic = topics.public(5)
    with pytest.raises(RelayError):
        relay.publish(topic, ["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(RelayError):
        relay.publish(topic, {"x": float("nan")})
    with pytest.raises(RelayError):
        relay.publish(topic, {"x": "y" * MAX_MESSAGE_BYTES})
    # a refused batch stores nothing, not even its good part
    with pytest.raises(RelayError):
        relay.publish_many(topic, [{"ok": 1}, {"x": object()}])
    assert relay.read(topic) == []
    relay.publish(topic, {"text": "ünïcödé ✓"})
    assert relay.read(topic)[0].data == {"text": "ünïcödé ✓"}


def test_concurrent_publishers_never_make_a_reader_skip_a_message(relay):
    topic = topics.seat_up(11, 0)
    per_writer, writers = 25, 4
    seen: list[tuple[int, int]] = []
    done = threading.Event()

    def writer(w):
        for i in range(per_writer):
            relay.publish(topic, {"w": w, "i": i})

    def reader():
        after = "0"
        while not done.is_set() or len(seen) < per_writer * writers:
            for m in relay.read(topic, after, block=0.2):
                seen.append((m.data["w"], m.data["i"]))
                after = m.id
            if done.is_set() and relay.last_id(topic) == after:
                break

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    watcher.join(60)
    assert sorted(seen) == sorted((w, i) for w in range(writers) for i in range(per_writer))
    for w in range(writers):  # each writer's own messages stay in its order
        assert [i for ww, i in seen if ww == w] == list(range(per_writer))


def test_a_topic_is_trimmed_to_its_newest_messages(relay, monkeypatch):
    import ladder.relay.backends

    monkeypatch.setattr(ladder.relay.backends, "MAX_TOPIC_MESSAGES", 150)
    topic = topics.public(12)
    for start in range(0, 400, 50):
        relay.publish_many(topic, [{"n": n} for n in range(start, start + 50)])
    kept = [m.data["n"] for m in relay.read(topic, limit=1000)]
    assert kept[-1] == 399 and kept == list(range(kept[0], 400))
    if isinstance(relay, RedisRelay):
        # Redis trims approximately (whole radix-tree nodes), and its own MAXLEN was fixed at XADD time
        assert len(kept) == 400 or len(kept) >= 150
    else:
        assert 150 <= len(kept) <= 250


def test_max_topic_messages_is_the_documented_bound():
    assert MAX_TOPIC_MESSAGES == 10_000


def test_expired_topics_are_dropped_when_a_new_topic_starts(engine_sqlite):
    import sqlalchemy as sa

    from ladder.models import RelayEntry

    relay = SqlRelay(engine_sqlite)
    relay.publish(topics.public(1), {"old": True})
    with engine_sqlite.begin() as conn:
        conn.execute(sa.update(RelayEntry.__table__).values(created_at=sa.text("'2000-01-01 00:00:00'")))
    relay.publish(topics.public(2), {"new": True})
    assert relay.read(topics.public(1)) == []
    assert relay.read(topics.public(2))[0].data == {"new": True}


def test_redis_topics_expire(request):
    import redis

    url = request.getfixturevalue("redis_url")
    relay = RedisRelay(url)
    relay.publish(topics.public(3), {"a": 1})
    ttl = redis.Redis.from_url(url).ttl(RedisRelay.PREFIX + topics.public(3))
    assert 0 < ttl <= 86_400
    relay.close()


def test_relay_for_picks_the_database_without_redis(tmp_path):
    relay = relay_for(Settings(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    assert isinstance(relay, SqlRelay)
