"""Real Celery workers (processes started here) on the real Redis and a real PostgreSQL database:
matches run end to end through worker and beat, and a worker SIGKILLed in the middle of a match
loses no match and applies no rating twice (the sweeper requeues it, it finishes exactly once).

Needs Redis on 127.0.0.1:6379, PostgreSQL on 127.0.0.1:5432 and the strict sandbox (root and
bubblewrap); without them these tests skip, or fail under LADDER_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

import pytest
from service_support import (
    LADDER,
    SLOW_BOT,
    UID_BASE_RANGE,
    add_user_bot,
    alive,
    descendants,
    house_versions,
    kill_group,
    match_row,
    pg_url,  # noqa: F401 (fixture)
    proc_of,
    procs_of,
    rating_changes_per_match,
    redis_url,  # noqa: F401 (fixture)
    sandbox_groups_of,
    service_env,
    start,
    still_running,
    stop,
    uid_of,
    wait_until,
)
from sqlalchemy import func
from sqlmodel import select

from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.games import get_game
from ladder.models import BotVersion, Match, Rating, RatingClock, Replay
from ladder.services.matches import queue_match
from ladder.services.ratings import recompute_ratings
from workers.queue import celery_app, tasks

STALE_AFTER = 12  # seconds: short, so the sweeper takes a dead worker's match back quickly


@pytest.fixture
def ladder_db(pg_url, tmp_path):  # noqa: F811 (fixture)
    """A migrated PostgreSQL database with the starter bots, via `ladder migrate`; (url, sessions)."""
    import subprocess

    env = service_env(database_url=pg_url, redis_url=None, instance=tmp_path, sandbox="strict")
    done = subprocess.run([*LADDER, "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    engine = make_engine(pg_url)
    yield pg_url, session_factory(engine)
    engine.dispose()


@pytest.fixture
def sender(redis_url, ladder_db, tmp_path):  # noqa: F811 (fixture)
    """The Celery app of this test process, pointed at the test's Redis database, to send tasks."""
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
    celery_app.configure(Settings(env="test", instance_dir=tmp_path, database_url=ladder_db[0], redis_url=redis_url,
                                  match_stale_after=STALE_AFTER))
    yield celery_app.app
    celery_app.app.ladder_settings = saved[0]
    celery_app.app.conf.update(saved[1])


def _no_survivors(proc, before: set[int]) -> None:
    left = [pid for pid in before if alive(pid)]
    assert proc.poll() is not None and not left, f"processes left running: {left}"


def _reader(sessions, match_id: int):
    """(the match row, its rating changes per match), each read in a session of its own."""
    def read():
        with sessions() as session:
            return match_row(session, match_id), rating_changes_per_match(session)
    return read


def test_worker_and_beat_play_validation_and_rated_matches(ladder_db, redis_url, tmp_path, strict_sandbox):  # noqa: F811
    url, sessions = ladder_db
    with sessions() as session:
        version = add_user_bot(session, username="alice", code=SLOW_BOT.replace(b"DELAY = 0.08", b"DELAY = 0"),
                               active=False)
    env = service_env(database_url=url, redis_url=redis_url, instance=tmp_path, sandbox=strict_sandbox,
                      LADDER_SCHEDULER_INTERVAL="1", LADDER_MATCH_STALE_AFTER="60")
    logs = [tmp_path / "worker.log", tmp_path / "beat.log"]
    worker = start(["worker", "--concurrency", "2", "--name", "e2e@%h"], env, logs[0])
    beat = start(["scheduler"], env, logs[1])
    try:
        def enough():
            with sessions() as s:
                active = s.get(BotVersion, version.id).status == "active"
                rated = s.exec(select(func.count()).select_from(Match)
                               .where(Match.status == "finished", Match.ranked == True)).one()  # noqa: E712
                return active and rated >= 4
        wait_until(enough, 120, "the validation game and 4 rated matches", logs)
        workers_processes = descendants(worker.pid) | {worker.pid}
    finally:
        codes = stop(beat), stop(worker)
    assert codes[1] == 0, "the worker did not shut down warmly on SIGTERM"
    _no_survivors(worker, workers_processes)
    with sessions() as session:
        finished = session.exec(select(Match).where(Match.status == "finished")).all()
        assert not session.exec(select(Match).where(Match.status == "failed")).all()
        rated = rating_changes_per_match(session)
        for match in finished:
            assert session.get(Replay, match.id) is not None
            if match.ranked:
                assert rated[match.id] == len(match_seats(session, match.id))
        assert set(rated) == {m.id for m in finished if m.ranked}
        assert recompute_ratings(session=session) == []


def match_seats(session, match_id):
    from ladder.models import Seat

    return session.exec(select(Seat).where(Seat.match_id == match_id)).all()


@pytest.mark.parametrize("victim", ["worker", "pool-process"])
def test_a_match_whose_worker_is_killed_finishes_exactly_once(ladder_db, redis_url, sender, tmp_path, victim,  # noqa: F811
                                                               strict_sandbox):
    url, sessions = ladder_db
    with sessions() as session:
        slow = add_user_bot(session, username="alice", code=SLOW_BOT)
        quick = house_versions(session, "treasure", get_game("treasure").validation_bots)  # two starters
        match = queue_match(session=session, game="treasure", seats=[slow.id, *quick])
        clock = session.get(RatingClock, 1).applied
    env = service_env(database_url=url, redis_url=redis_url, instance=tmp_path, sandbox=strict_sandbox,
                      LADDER_MATCH_STALE_AFTER=str(STALE_AFTER))
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    first = start(["worker", "--concurrency", "1", "--name", "first@%h"], env, logs[0])
    second = None
    try:
        read = _reader(sessions, match.id)
        assert tasks.dispatch_matches([match.id], celery_app.MATCH_QUEUE) == 1
        claimed = wait_until(lambda: read()[0].claimed_by, 60, "the first claim", logs)
        time.sleep(1.0)  # well inside the match: the slow bot takes seconds
        assert read()[0].status == "running"
        if victim == "worker":
            kill_group(first)  # the whole worker, as if its machine died
        else:
            pool = [p for p in descendants(first.pid) if _parent(p) == first.pid]
            assert pool, "no pool process found"
            for pid in pool:
                _kill(pid)
        row, rated = read()
        assert (row.status, rated) == ("running", {})  # left behind by the dead worker, unrated
        if victim == "worker":
            second = start(["worker", "--concurrency", "1", "--name", "second@%h"], env, logs[1])

        def finished():
            if read()[0].status == "finished":
                return True
            tasks.sweep_stale.apply_async()  # what beat sends every few seconds
            time.sleep(1)
            return False
        wait_until(finished, STALE_AFTER + 90, "the requeued match to finish", logs, interval=0.5)
    finally:
        for proc in (first, second):
            if proc is not None:
                stop(proc)
    with sessions() as session:
        row = match_row(session, match.id)
        assert row.status == "finished" and row.attempts == 2 and row.claimed_by != claimed
        assert rating_changes_per_match(session) == {match.id: 3}
        assert session.get(RatingClock, 1).applied == clock + 1  # one rating update, never a second one
        assert sum(r.games for r in session.exec(select(Rating))) == 3
        assert recompute_ratings(session=session) == []


def _parent(pid: int) -> int | None:
    from pathlib import Path

    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _kill(pid: int) -> None:
    import os

    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("how, grace, ends", [
    ("SIGINT to the group", 1, "queued"),  # Ctrl-C in a terminal: the slow match outlasts 1 s
    ("SIGTERM to the worker", 300, "finished"),  # a container stop: the match has all the time it needs
])
def test_ladder_worker_honours_its_grace_and_leaves_no_sandbox(ladder_db, redis_url, sender, tmp_path,  # noqa: F811
                                                               strict_sandbox, how, grace, ends):
    """`ladder worker --grace S` on its own (#23): a stop signal mid-match lets the match finish
    within S, or tears it down after S and gives it back to the queue uncounted; the worker exits 0
    and nothing of the match's sandboxes (processes, cgroups) outlives it."""
    url, sessions = ladder_db
    with sessions() as session:
        slow = add_user_bot(session, username="alice", code=SLOW_BOT)
        quick = house_versions(session, "treasure", get_game("treasure").validation_bots)
        match = queue_match(session=session, game="treasure", seats=[slow.id, *quick])
    env = service_env(database_url=url, redis_url=redis_url, instance=tmp_path, sandbox=strict_sandbox,
                      LADDER_MATCH_STALE_AFTER="600")  # no sweep meddles: what happens is the grace's doing
    log = tmp_path / "worker.log"
    worker = start(["worker", "--concurrency", "1", "--name", "graced@%h", "--grace", str(grace)], env, log)
    try:
        read = _reader(sessions, match.id)
        assert tasks.dispatch_matches([match.id], celery_app.MATCH_QUEUE) == 1

        def bots():
            return {p for p in procs_of(descendants(worker.pid)) if uid_of(p[0]) in UID_BASE_RANGE}

        wait_until(lambda: read()[0].status == "running" and len(bots()) >= 3, 300, "the match's bots", [log])
        family = procs_of(descendants(worker.pid)) | {proc_of(worker.pid)}
        if how.startswith("SIGINT"):
            os.killpg(worker.pid, signal.SIGINT)
        else:
            worker.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace + 300  # a bound against a hang only: the grace itself is the worker's
        while worker.poll() is None and time.monotonic() < deadline:
            family |= procs_of(descendants(worker.pid))  # the pool process and the bots, as they come and go
            time.sleep(0.1)
        code = worker.wait(timeout=30)
    finally:
        if worker.poll() is None:
            kill_group(worker)
    assert code == 0, log.read_text()[-3000:]
    with sessions() as session:
        row = match_row(session, match.id)
    assert row.status == ends, (row.status, log.read_text()[-3000:])
    if ends == "queued":
        assert (row.claimed_by, row.attempts) == (None, 0)  # given back, its claim not counted
    left = [p for p in family if p is not None and still_running(p)]
    assert left == [], left
    assert sandbox_groups_of({pid for pid, _ in family if pid}) == []
