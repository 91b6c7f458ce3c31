"""The spectators' side of live matches (ladder/services/live.py) on every relay backend, the
worker and the web tier each with a relay of their own (two processes, or two hosts with Redis):
spectators long-polling a match while a worker's publisher (workers/queue/live.py) sends it see
every public entry once, in order, and end with the finished replay's public view; one thread per
process reads a match's topic while the others wait for what it brings."""

from __future__ import annotations

import random
import threading

import pytest
from frames_support import drawings
from service_support import pg_url, redis_url  # noqa: F401 (fixtures)

from ladder.config import Settings
from ladder.db import make_engine, upgrade
from ladder.games import get_game
from ladder.play import default_bot_names, make_bots, play_game
from ladder.relay.backends import MemoryRelay, relay_for, topics
from ladder.replay.public import public_log
from ladder.services.live import Feeds
from workers.queue.live import LivePublisher

GAME = "drachengold"


@pytest.fixture(params=["memory", "sqlite", "postgresql", "redis"])
def relays(request, tmp_path):
    """(the worker's relay, the web tier's relay): two clients of one store."""
    if request.param == "memory":
        relay = MemoryRelay()
        yield relay, relay
        return
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        pair = relay_for(Settings(redis_url=url)), relay_for(Settings(redis_url=url))
        yield pair
        for relay in pair:
            relay.close()
        return
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    engines = make_engine(url), make_engine(url)
    upgrade(engines[0])
    yield tuple(relay_for(Settings(), engine=engine) for engine in engines)
    for engine in engines:
        engine.dispose()


def test_spectators_follow_a_whole_match_through_the_relay(relays):
    worker_relay, web_relay = relays
    match_id = random.randrange(10**6, 10**9)
    feeds = Feeds(web_relay)
    feed = feeds.feed(match_id)
    counts: list[list[int]] = [[], [], []]

    def spectate(seen: list[int]) -> None:
        while True:
            feeds.catch_up(feed, wait=5)
            with feed.cond:
                seen.append(feed.received)
                if feed.ended is not None:
                    return

    spectators = [threading.Thread(target=spectate, args=(seen,), daemon=True) for seen in counts]
    for thread in spectators:
        thread.start()
    names = default_bot_names(GAME, get_game(GAME).default_players)
    live = LivePublisher(worker_relay, match_id, every=0.01)
    live.begin(game=GAME, options=None, names=names)
    played = play_game(GAME, make_bots(GAME, names), seed=5, names=names, on_entry=live.append)
    live.end("finished")
    live.close()
    for thread in spectators:
        thread.join(60)
        assert not thread.is_alive()
    assert feed.received == len(public_log(played.replay.log)) and not feed.broken and feed.ended == "finished"
    assert drawings(feed.draw().frames_from(0)) == drawings(get_game(GAME).part("view").frames(played.replay, None,
                                                                                                reveal=False))
    for seen in counts:
        assert seen == sorted(seen) and seen[-1] == feed.received
    web_relay.delete(topics.public(match_id))


def test_a_feed_read_from_the_middle_of_a_trimmed_topic_is_broken_not_wrong():
    relay = MemoryRelay()
    relay.publish(topics.public(3), {"type": "entries", "first": 400, "entries": [{"type": "x", "data": {},
                                                                                    "to": None}]})
    feeds = Feeds(relay)
    feed = feeds.feed(3)
    feeds.catch_up(feed)
    assert feed.broken and feed.received == 0 and feed.draw() is None


def test_a_process_keeps_a_bounded_number_of_feeds():
    feeds = Feeds(MemoryRelay(), size=3)
    first = feeds.feed(1)
    for match_id in range(2, 6):
        feeds.feed(match_id)
    assert feeds.feed(1) is not first  # the oldest was let go; it is read again when asked
