"""A tournament runs to the end on real Celery workers, Redis and PostgreSQL, and a worker
SIGKILLed in the middle of one of its matches loses no match and doubles none.

The event: a slow user bot against a starter bot, duplicate seated (2 deals x 2 seat orders).
Scheduler ticks are sent by the test (as beat would), with `LADDER_EVENT_SLOTS=1` (one event
match at a time) and no ladder matches (`LADDER_QUEUE_TARGET=0`), so which match is killed is
known. Needs Redis, PostgreSQL and the strict sandbox; skips without them, fails under
LADDER_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import subprocess
import time

import pytest
from service_support import (
    LADDER,
    SLOW_BOT,
    add_user_bot,
    kill_group,
    match_row,
    pg_url,  # noqa: F401 (fixture)
    redis_url,  # noqa: F401 (fixture)
    service_env,
    start,
    stop,
    wait_until,
)
from sqlmodel import select

from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.models import Bot, EventMatch, EventStatus, Match, MatchKind, RatingChange, TournamentEvent, User
from ladder.services.tournaments import add_entrant, answer_invitation, create_event, start_event
from workers.queue import celery_app, tasks

STALE_AFTER = 12


@pytest.fixture
def ladder_db(pg_url, tmp_path):  # noqa: F811 (fixture)
    env = service_env(database_url=pg_url, redis_url=None, instance=tmp_path, sandbox="strict")
    done = subprocess.run([*LADDER, "migrate"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    engine = make_engine(pg_url)
    yield pg_url, session_factory(engine)
    engine.dispose()


@pytest.fixture
def sender(redis_url, ladder_db, tmp_path):  # noqa: F811 (fixture)
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
    celery_app.configure(Settings(env="test", instance_dir=tmp_path, database_url=ladder_db[0], redis_url=redis_url,
                                  match_stale_after=STALE_AFTER))
    yield celery_app.app
    celery_app.app.ladder_settings = saved[0]
    celery_app.app.conf.update(saved[1])


def _event(session) -> int:
    slow = add_user_bot(session, username="alice", code=SLOW_BOT)
    organizer = User(username="org", password_hash="!", is_admin=True)
    session.add(organizer)
    session.commit()
    careful = session.exec(select(Bot).where(Bot.game == "treasure", Bot.builtin == "careful")).one()
    event = create_event(session=session, organizer_id=organizer.id, name="Kill cup", game="treasure",
                         table_size=2, deals=2, seed=5)
    for bot_id in (slow.bot_id, careful.id):
        add_entrant(session=session, event_id=event.id, bot_id=bot_id, acting_user_id=organizer.id)
    # alice accepts the invitation (the house bot needs no answer)
    answer_invitation(session=session, event_id=event.id, bot_id=slow.bot_id,
                      acting_user_id=session.get(Bot, slow.bot_id).owner_id, accept=True)
    start_event(session=session, event_id=event.id, acting_user_id=organizer.id)
    return event.id


def _event_rows(sessions, event_id):
    with sessions() as s:
        rows = s.exec(select(EventMatch, Match).outerjoin(Match, Match.id == EventMatch.match_id)
                      .where(EventMatch.event_id == event_id).order_by(EventMatch.index)).all()
        s.expunge_all()
        return rows


def test_an_event_finishes_with_every_match_exactly_once_after_a_worker_is_killed(
        ladder_db, redis_url, sender, tmp_path, strict_sandbox):  # noqa: F811
    url, sessions = ladder_db
    with sessions() as session:
        event_id = _event(session)
    env = service_env(database_url=url, redis_url=redis_url, instance=tmp_path, sandbox=strict_sandbox,
                      LADDER_MATCH_STALE_AFTER=str(STALE_AFTER), LADDER_EVENT_SLOTS="1", LADDER_QUEUE_TARGET="0")
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    first = start(["worker", "--concurrency", "1", "--name", "first@%h"], env, logs[0])
    second = None
    try:
        tasks.schedule_matches.apply_async()  # a beat tick: queues the first event match (one slot)

        def running():
            rows = _event_rows(sessions, event_id)
            live = [m for _, m in rows if m is not None and m.status == "running"]
            return live[0] if live else None
        victim = wait_until(running, 90, "an event match to start", logs)
        assert sum(m is not None for _, m in _event_rows(sessions, event_id)) == 1  # the share: one slot
        time.sleep(1.0)  # inside the match: the slow bot takes seconds
        kill_group(first)
        assert match_row(sessions(), victim.id).status == "running"
        second = start(["worker", "--concurrency", "1", "--name", "second@%h"], env, logs[1])

        def finished():
            with sessions() as s:
                if s.get(TournamentEvent, event_id).status == EventStatus.FINISHED:
                    return True
            tasks.schedule_matches.apply_async()
            tasks.sweep_stale.apply_async()
            time.sleep(1)
            return False
        wait_until(finished, STALE_AFTER + 240, "the event to finish", logs, interval=0.5)
    finally:
        for proc in (first, second):
            if proc is not None:
                stop(proc)
    rows = _event_rows(sessions, event_id)
    assert len(rows) == 4 and all(m is not None and m.status == "finished" for _, m in rows)
    assert len({m.id for _, m in rows}) == 4
    with sessions() as s:
        event_matches = s.exec(select(Match).where(Match.kind == MatchKind.EVENT)).all()
        assert sorted(m.id for m in event_matches) == sorted(m.id for _, m in rows)  # none doubled, none lost
        assert s.exec(select(RatingChange)).all() == []  # events never rate
    redone = match_row(sessions(), victim.id)
    assert redone.attempts == 2 and redone.status == "finished"
