"""The live publisher (workers/queue/live.py) on a MemoryRelay: for every game, every published
entry is the public replay's entry at the same place; the play loop's thread never touches the
relay; a relay that fails loses nothing once it is back and never stops the match; a voided
attempt starts the feed over; an entry too large for a message stops the live view there. And
workers.queue.jobs.play_match publishes a whole match: start, entries, end once it is recorded."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from match_support import record_of

from ladder.games import GAMES, get_game
from ladder.models import Match
from ladder.play import default_bot_names, make_bots, play_builtin, play_game
from ladder.relay.backends import MemoryRelay, topics
from ladder.replay.public import public_log
from ladder.services.live import Feed
from workers.queue.live import BATCH_BYTES, LivePublisher


class Recording(MemoryRelay):
    """A MemoryRelay that notes which threads published, and fails while `down` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: set[str] = set()
        self.down = False
        self.failures = 0

    def publish_encoded(self, topic, bodies):
        self.threads.add(threading.current_thread().name)
        if self.down:
            self.failures += 1
            raise ConnectionError("relay down")
        return super().publish_encoded(topic, bodies)


def messages(relay, match_id=1):
    return [m.data for m in relay.read(topics.public(match_id), limit=1000)]


def spectators_feed(relay, match_id=1) -> Feed:
    feed = Feed(match_id)
    for message in relay.read(topics.public(match_id), limit=1000):
        feed.apply(message)
    return feed


def publish_game(relay, game, seed, *, every=0.01, bots=None):
    names = default_bot_names(game, get_game(game).default_players)
    live = LivePublisher(relay, 1, every=every)
    live.begin(game=game, options=None, names=names)
    try:
        played = play_game(game, bots or make_bots(game, names), seed=seed, names=names, on_entry=live.append)
    finally:
        live.close()
    return played.replay


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_published_entry_is_the_public_replays_entry_at_the_same_place(game):
    relay = Recording()
    replay = publish_game(relay, game, seed=3)
    published = messages(relay)
    assert published[0] == {"type": "start", "attempt": 1, "game": game, "players": replay.header.players,
                            "options": dict(replay.header.options), "names": [s.bot for s in replay.seats]}
    batches = [m for m in published[1:] if m["type"] == "entries"]
    assert len(batches) == len(published) - 1  # nothing else, and no end: the job sends that
    entries = []
    for batch in batches:
        assert batch["first"] == len(entries)  # each batch says where it goes
        entries += batch["entries"]
    public = public_log(replay.log)
    assert len(entries) == len(public)
    for place, (sent, wanted) in enumerate(zip(entries, public, strict=True)):
        assert sent == wanted, place
    assert "seed" not in published[0]  # the seed is the match page's only once it is over
    assert relay.threads and threading.current_thread().name not in relay.threads


def test_a_failing_relay_never_stops_the_match_and_loses_nothing_once_back():
    relay = Recording()
    relay.down = True
    names = default_bot_names("treasure", 2)
    live = LivePublisher(relay, 1, every=0.001)
    live.begin(game="treasure", options=None, names=names)
    gate = threading.Event()
    seen = []

    def on_entry(entry):
        live.append(entry)
        seen.append(entry)
        if len(seen) == 40:  # some publishes failed meanwhile; then the relay comes back
            while relay.failures < 3:
                gate.wait(0.01)
            relay.down = False

    played = play_builtin("treasure", names, seed=5, on_entry=on_entry)
    live.close()
    assert relay.failures >= 3
    feed = spectators_feed(relay)
    assert not feed.broken and feed.entries == public_log(played.replay.log)


def test_a_relay_down_to_the_end_costs_the_feed_only():
    relay = Recording()
    relay.down = True
    live = LivePublisher(relay, 1, every=0.001)
    live.begin(game="treasure", options=None, names=["a", "b"])
    played = play_builtin("treasure", ["random", "random"], seed=2, on_entry=live.append)
    live.close(timeout=2)
    assert played.replay.results and messages(relay) == []


def test_a_new_attempt_starts_the_feed_over():
    relay = Recording()
    live = LivePublisher(relay, 1, every=0.001)
    live.begin(game="treasure", options=None, names=["a", "b"])
    play_builtin("treasure", ["random", "random"], seed=1, on_entry=live.append)  # voided, say
    live.begin(game="treasure", options=None, names=["a", "b"])
    second = play_builtin("treasure", ["random", "random"], seed=2, on_entry=live.append)
    live.end("finished")
    live.close()
    starts = [m for m in messages(relay) if m["type"] == "start"]
    assert [s["attempt"] for s in starts] == [1, 2]
    feed = spectators_feed(relay)
    second_start = [m.id for m in relay.read(topics.public(1)) if m.data["type"] == "start"][-1]
    assert feed.started == second_start and feed.ended == "finished"
    assert feed.entries == public_log(second.replay.log)


def test_an_entry_too_large_for_a_message_stops_the_live_view_there():
    relay = Recording()
    live = LivePublisher(relay, 1, every=0.001)
    live.begin(game="treasure", options=None, names=["a", "b"])
    small = {"type": "note", "data": {"n": 1}, "to": None}
    live.append(small)
    live.append({"type": "note", "data": {"text": "x" * (BATCH_BYTES + 10)}, "to": None})
    live.append(small)
    live.close()
    kinds = [(m["type"], m.get("first")) for m in messages(relay)]
    assert ("gap", 1) in kinds
    feed = spectators_feed(relay)
    assert feed.broken and feed.entries == [small]


def test_many_entries_go_out_in_messages_under_the_cap():
    relay = Recording()
    live = LivePublisher(relay, 1, every=60)  # one batch, sent by close
    live.begin(game="treasure", options=None, names=["a", "b"])
    entries = [{"type": "note", "data": {"text": f"{i:05d}" + "y" * 1000}, "to": None} for i in range(600)]
    for entry in entries:
        live.append(entry)
    live.close()
    batches = [m for m in messages(relay) if m["type"] == "entries"]
    assert len(batches) >= 2
    assert spectators_feed(relay).entries == entries


# --- the job ---------------------------------------------------------------------------------


def test_play_match_publishes_the_match_live(session, sessions, tmp_path):
    from service_support import house_versions

    from ladder.config import Settings
    from ladder.services.bots import seed_house_bots
    from ladder.services.matches import queue_match
    from workers.queue.jobs import play_match

    settings = Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict")
    seed_house_bots(session=session, username=settings.house_username)
    match = queue_match(session=session, game="treasure", seats=house_versions(session, "treasure")[:2], seed=11,
                        kind="challenge")
    session.commit()
    calls = []

    def runner(plan, env):
        names = plan.names
        played = play_builtin(plan.game.name, ["random"] * len(plan.seats), seed=plan.seed, options=plan.options,
                              on_entry=env.on_entry)
        calls.append((names, played.replay))
        seats = [replace(s, bot=names[i]) for i, s in enumerate(played.seats)]
        results = [replace(r, bot=names[r.seat]) for r in played.results]
        return record_of(plan, played.replay.completed(results=results, seats=seats, cgroup=None))

    relay = Recording()
    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner, relay=relay)
    assert result.status == "finished"
    [(names, replay)] = calls
    published = messages(relay, match.id)
    assert published[0]["type"] == "start" and published[-1] == {"type": "end", "status": "finished"}
    feed = spectators_feed(relay, match.id)
    assert list(feed.heading.names) == names and feed.entries == public_log(replay.log) and feed.ended == "finished"
    session.expire_all()
    assert session.get(Match, match.id).status == "finished"  # the end was sent once the result was stored
    # a second delivery of the same match is skipped and publishes nothing more
    again = play_match(match.id, sessions=sessions, settings=settings, worker_id="w2", runner=runner, relay=relay)
    assert again.status == "skipped" and messages(relay, match.id) == published
