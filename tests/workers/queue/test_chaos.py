"""Fault injection on a running ladder (PostgreSQL, Redis, Celery workers and beat in processes of
their own, the feed on): messages dropped from a busy broker, Redis restarted mid-play, workers
killed between taking and claiming a message and between recording a result and its ratings, and
a drain after such kills. When the faults stop, every match open at that moment must end within
the stale timeout plus the re-send bound (plus `SLACK` for its own play and a worker's restart),
every finished ranked match must have one rating change per seat, and every rating recompute.

The runner is replaced (tests/workers/queue/chaos_worker.py) by one that sleeps about a second and
reports random ranks: these tests are about the queue, the broker and the database, and need
matches short and cheap enough to stay under a minute each. Real sandboxed matches are killed in
tests/workers/queue/test_celery_integration.py. Timeouts are short settings (STALE, RESEND); the same
procedure with production settings is in docs/operations.md, "Chaos".

Needs Redis on 127.0.0.1:6379, PostgreSQL on 127.0.0.1:5432 and redis-server on the PATH (the
restart test runs a private one on a free loopback port); skips without them, fails under
LADDER_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from needs import unavailable
from service_support import (
    add_user_bot,
    kill_group,
    pg_url,  # noqa: F401 (fixture)
    redis_url,  # noqa: F401 (fixture)
    service_env,
    stop,
)
from sqlalchemy import func
from sqlmodel import select

from ladder.db import make_engine, session_factory, upgrade
from ladder.models import Match, RatingChange, utcnow
from ladder.services.bots import seed_house_bots
from ladder.services.queue_control import set_draining
from ladder.services.ratings import missing_rating_changes, recompute_ratings

STALE = 8  # LADDER_MATCH_STALE_AFTER: the hard time limit is 7 s, a sweep every second
RESEND = 4  # LADDER_MATCH_RESEND_AFTER: Redis visibility timeout 2 s, restore scans every second
SLACK = 20  # a match's own play and queue wait, a worker restarting, on a loaded 2-core machine
FAULTS = float(os.environ.get("LADDER_CHAOS_SECONDS", "12"))  # seconds of faults; raise it for a longer run
CHAOS_WORKER = Path(__file__).with_name("chaos_worker.py")
OPEN = ("queued", "running")


@pytest.fixture
def chaos_db(pg_url):  # noqa: F811 (fixture)
    """A migrated PostgreSQL database with the starter bots: (url, sessions)."""
    engine = make_engine(pg_url)
    upgrade(engine)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session)
        for n in range(9):  # enough Treasure bots for more tables than one worker keeps up with
            add_user_bot(session, username=f"owner{n}", code=b"# played by the chaos runner\n", name=f"b{n}")
    yield pg_url, sessions
    engine.dispose()


class Ladder:
    """Beat and `workers` chaos workers (`concurrency` pool processes each), restarted when killed."""

    def __init__(self, tmp_path: Path, database_url: str, broker_url: str, workers: int = 2, concurrency: int = 2,
                 queues: tuple[str | None, ...] = (), **chaos: str):
        self.tmp = tmp_path
        self.chaos_file = tmp_path / "chaos-on"
        self.chaos_file.touch()
        self.env = service_env(
            database_url=database_url, redis_url=broker_url, instance=tmp_path, sandbox="none",
            LADDER_MATCH_STALE_AFTER=str(STALE), LADDER_MATCH_RESEND_AFTER=str(RESEND),
            LADDER_SCHEDULER_INTERVAL="1", LADDER_QUEUE_TARGET="3", LADDER_TABLES_PER_TICK="3",
            LADDER_EVENT_SLOTS="0", LADDER_CHAOS_FILE=str(self.chaos_file), LADDER_CHAOS_PLAY_SECONDS="1",
            **chaos)
        self.concurrency = concurrency
        self.queues = queues  # per worker (-Q); none given: both of the ladder's
        self.logs = [tmp_path / "beat.log", *(tmp_path / f"worker{i}.log" for i in range(workers))]
        self.beat = self._start(["scheduler", "-l", "WARNING"], self.logs[0])
        self.workers = [self._worker(i) for i in range(workers)]
        self.restarts = 0

    def _start(self, argv: list[str], log: Path) -> subprocess.Popen:
        with open(log, "ab") as out:
            return subprocess.Popen([sys.executable, str(CHAOS_WORKER), *argv], env=self.env, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)

    def _worker(self, i: int) -> subprocess.Popen:
        name = f"chaos{i}-{time.monotonic_ns()}@%h"
        queues = ["-Q", self.queues[i]] if i < len(self.queues) and self.queues[i] else []
        return self._start(["worker", "-c", str(self.concurrency), "-n", name, "-l", "WARNING", *queues],
                           self.logs[1 + i])

    def tick(self) -> None:
        """Restart what died (a killed worker, as its supervisor would)."""
        for i, proc in enumerate(self.workers):
            if proc.poll() is not None:
                kill_group(proc)  # its pool processes too, if any survived
                self.workers[i] = self._worker(i)
                self.restarts += 1

    def stop_faults(self) -> None:
        self.chaos_file.unlink(missing_ok=True)

    def kills(self) -> int:
        return sum(p.read_text(errors="replace").count("CHAOS kill") for p in self.logs if p.exists())

    def close(self) -> None:
        for proc in (self.beat, *self.workers):
            stop(proc, timeout=10)

    def tails(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.logs if p.exists())


def run_for(ladder: Ladder, seconds: float, step: Callable[[], object] | None = None, interval: float = 0.3,
            until: Callable[[], bool] | None = None) -> None:
    """Supervise for `seconds`, calling `step`; with `until`, go on (up to three times as long)
    until it holds: a loaded machine plays fewer matches, so it meets fewer faults."""
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds or (until is not None and not until()
                                                               and elapsed < 3 * seconds):
        ladder.tick()
        if step is not None:
            step()
        time.sleep(interval)


def wait_for(ladder: Ladder, predicate: Callable[[], object], timeout: float, what: str) -> float:
    """Seconds until `predicate` held, supervising the ladder meanwhile; fails after `timeout`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{ladder.tails()}")
        ladder.tick()
        time.sleep(0.25)
    return time.monotonic() - start


def statuses(sessions, ids=None) -> dict[int, str]:
    with sessions() as session:
        query = select(Match.id, Match.status)
        if ids is not None:
            query = query.where(Match.id.in_(list(ids)))
        return dict(session.exec(query).all())


def open_ids(sessions) -> set[int]:
    return {i for i, s in statuses(sessions).items() if s in OPEN}


def new_finished(sessions, since) -> int:
    with sessions() as session:
        return session.exec(select(func.count()).select_from(Match)
                            .where(Match.status == "finished", Match.created_at > since)).one()


def finished(sessions) -> int:
    return sum(s == "finished" for s in statuses(sessions).values())


def settle(ladder: Ladder, sessions) -> tuple[set[int], float]:
    """Stop the faults; (the matches open then, seconds until every one of them ended)."""
    ladder.stop_faults()
    ladder.tick()
    existing = open_ids(sessions)
    assert existing, "no match was open when the faults stopped: the test proves nothing"
    took = wait_for(ladder, lambda: not {i for i, s in statuses(sessions, existing).items() if s in OPEN},
                    STALE + RESEND + SLACK, f"the {len(existing)} matches open when the faults stopped to end")
    return existing, took


def check_ratings(sessions) -> dict[str, int]:
    """Every finished ranked match has exactly one rating change per seat, no other match has any
    (a failed or requeued match was never rated), and every rating recomputes."""
    with sessions() as session:
        assert missing_rating_changes(session=session) == []
        assert recompute_ratings(session=session) == []
        rated = session.exec(select(func.count(func.distinct(RatingChange.match_id)))).one()
        elsewhere = session.exec(select(func.count()).select_from(RatingChange).join(Match)
                                 .where((Match.status != "finished") | (Match.ranked == False))).one()  # noqa: E712
        assert elsewhere == 0
        return {"rated": rated, "failed": session.exec(
            select(func.count()).select_from(Match).where(Match.status == "failed")).one()}


def started(ladder: Ladder, sessions) -> None:
    """Wait until the ladder plays (a few matches finished) before the faults begin."""
    wait_for(ladder, lambda: finished(sessions) >= 3, 60 + SLACK, "the ladder to play its first matches")


def report(name: str, **facts: object) -> None:
    print(f"\nchaos {name}: " + ", ".join(f"{k}={v}" for k, v in facts.items()))


def test_messages_dropped_from_a_busy_broker_are_sent_again(chaos_db, redis_url, tmp_path):  # noqa: F811
    """Each message is taken out while others wait behind it, and the broker keeps messages waiting
    while its match is sent again: before the re-send bound, the sweeper re-sent only when the broker
    held none, so a busy ladder kept these matches queued for as long as it stayed busy."""
    import redis

    url, sessions = chaos_db
    broker = redis.Redis.from_url(redis_url)
    # one process plays, one runs the ticks and sweeps: the feed outpaces the play, the broker stays busy
    ladder = Ladder(tmp_path, url, redis_url, workers=2, concurrency=1, queues=("ladder.matches", "ladder.priority"))
    dropped: dict[int, float] = {}  # match id -> when its message was taken out
    samples: list[int] = []  # messages waiting in the broker, sampled through the run

    def drop() -> None:
        messages = broker.lrange("ladder.matches", 0, -1)
        samples.append(len(messages))
        if len(dropped) >= 10 or len(messages) < 2 or random.random() < 0.5:
            return  # only ever from a busy broker: others wait behind the one dropped
        body = random.choice(messages)
        if broker.lrem("ladder.matches", 1, body):
            match_id = int(json.loads(json.loads(body)["headers"]["argsrepr"].strip("(,)")))
            dropped.setdefault(match_id, time.monotonic())

    try:
        started(ladder, sessions)
        run_for(ladder, FAULTS, drop, until=lambda: len(dropped) >= 5)
        assert len(dropped) >= 5, f"only {len(dropped)} messages dropped; broker lengths {samples}"
        existing, took = settle(ladder, sessions)
        late = [m for m, s in statuses(sessions, dropped).items() if s in OPEN]
        assert not late, f"dropped matches {late} still open"
    finally:
        ladder.close()
    facts = check_ratings(sessions)
    busy = sum(n > 0 for n in samples) / max(1, len(samples))
    assert busy > 0.5, f"the broker was not busy: {samples}"
    report("drops", dropped=len(dropped), broker_busy=f"{busy:.0%} of samples", open_at_stop=len(existing),
           all_ended_after_s=round(took, 1), **facts)


@pytest.fixture
def private_redis(tmp_path):
    """A redis-server of this test's own on a free loopback port, no persistence: (url, restart)."""
    server = shutil.which("redis-server")
    if server is None:
        unavailable("redis-server is not installed (the restart test runs a private one)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(tmp_path)]
    procs = []

    def up() -> None:
        import redis

        procs.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        client = redis.Redis(port=port, socket_timeout=1)
        for _ in range(100):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return
            time.sleep(0.05)
        pytest.fail("the private redis-server did not start")

    def restart() -> None:
        procs[-1].send_signal(signal.SIGKILL)  # only ever this test's own server
        procs[-1].wait(10)
        time.sleep(0.5)
        up()

    up()
    try:
        yield f"redis://127.0.0.1:{port}/0", restart
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)


def test_redis_restarted_mid_play_loses_no_match(chaos_db, private_redis, tmp_path):
    """A restarted Redis (no persistence) has lost every waiting and unacknowledged message: each
    match open at a restart must still end, within the bound, while the feed goes on."""
    url, sessions = chaos_db
    broker_url, restart = private_redis
    ladder = Ladder(tmp_path, url, broker_url)
    recovered = []
    try:
        started(ladder, sessions)
        for _ in range(2):
            run_for(ladder, 2)
            at_restart = open_ids(sessions)
            restart()
            restarted_at = utcnow()
            recovered.append((len(at_restart), round(wait_for(
                ladder, lambda ids=at_restart: not {i for i, s in statuses(sessions, ids).items() if s in OPEN},
                STALE + RESEND + SLACK, f"the {len(at_restart)} matches open at a Redis restart to end"), 1)))
        # the feed is back: beat and the workers reconnected by themselves, new tables are played
        wait_for(ladder, lambda: new_finished(sessions, restarted_at) >= 2, 30 + SLACK, "new matches after the restart")
        existing, took = settle(ladder, sessions)
    finally:
        ladder.close()
    facts = check_ratings(sessions)
    report("redis restarts", open_at_restart_and_s_to_end=recovered, open_at_stop=len(existing),
           all_ended_after_s=round(took, 1), **facts)


def test_workers_killed_before_their_claim_and_inside_their_recording(chaos_db, redis_url, tmp_path):  # noqa: F811
    url, sessions = chaos_db
    ladder = Ladder(tmp_path, url, redis_url, LADDER_CHAOS_CLAIM="0.15", LADDER_CHAOS_RATINGS="0.15",
                    LADDER_CHAOS_GROUP="1")
    try:
        started(ladder, sessions)
        run_for(ladder, FAULTS, until=lambda: ladder.kills() >= 4)
        kills = ladder.kills()
        assert kills >= 4, f"only {kills} kills\n{ladder.tails()}"
        existing, took = settle(ladder, sessions)
    finally:
        ladder.close()
    facts = check_ratings(sessions)
    report("kills", kills=kills, worker_restarts=ladder.restarts, open_at_stop=len(existing),
           all_ended_after_s=round(took, 1), **facts)


def test_a_drained_ladder_empties_after_worker_kills(chaos_db, redis_url, tmp_path):  # noqa: F811
    url, sessions = chaos_db
    # the workers' own settings would keep the queue full: only the switch drains
    ladder = Ladder(tmp_path, url, redis_url, LADDER_CHAOS_CLAIM="0.15", LADDER_CHAOS_RATINGS="0.15",
                    LADDER_CHAOS_GROUP="1")
    try:
        started(ladder, sessions)
        run_for(ladder, FAULTS, until=lambda: ladder.kills() >= 4)
        kills = ladder.kills()
        assert kills >= 4, f"only {kills} kills\n{ladder.tails()}"
        with sessions() as session:
            set_draining(session=session, on=True)
        drained_at = utcnow()
        ladder.stop_faults()
        took = wait_for(ladder, lambda: not open_ids(sessions), STALE + RESEND + SLACK, "0 open matches")
        with sessions() as session:
            # a tick already past its check may queue one more round; nothing after that
            late = session.exec(select(func.count()).select_from(Match)
                                .where(Match.created_at > drained_at + timedelta(seconds=3))).one()
        assert late == 0
        run_for(ladder, 3)
        assert not open_ids(sessions)  # and it stays empty
    finally:
        ladder.close()
    facts = check_ratings(sessions)
    report("drain", kills=kills, worker_restarts=ladder.restarts, drained_after_s=round(took, 1), **facts)
