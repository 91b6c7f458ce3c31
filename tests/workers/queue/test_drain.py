"""Draining (the `drain` switch in the database): nothing new is queued by any tick, whatever the
settings of the process running it, while the sweeper goes on requeueing and re-sending; a drained
ladder whose workers died reaches 0 open matches within the stale timeout (in-process, on SQLite
and PostgreSQL, with a simulated clock; tests/workers/queue/test_chaos.py does it with real workers)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from match_support import record_of
from service_support import SLOW_BOT, add_user_bot, house_versions
from sqlalchemy import func
from sqlmodel import select

from ladder.config import Settings
from ladder.games import get_game
from ladder.models import Match, utcnow
from ladder.replay import ENGINE_VERSION, SCHEMA_VERSION, Header, Replay, Result, SandboxRun, SeatRecord
from ladder.services.bots import seed_house_bots
from ladder.services.matches import claim_match, queue_match
from ladder.services.queue_control import draining, mark_sent, queue_state, set_draining
from ladder.services.tournaments import add_entrant, create_event, start_event
from ladder.services.users import set_admin, sign_up
from workers.queue.celery_app import sweep_interval
from workers.queue.events import feed
from workers.queue.jobs import play_match
from workers.queue.scheduler import schedule, sweep

STALE = 30


def quick_runner(plan, env):
    """A played match: seat order is rank order, nobody forfeits."""
    seats = range(len(plan.seats))
    return record_of(plan, Replay(
        Header(SCHEMA_VERSION, ENGINE_VERSION, "treasure", {}, 1, len(plan.seats), "strict"),
        seats=tuple(SeatRecord(i, f"b{i}", run=SandboxRun("strict")) for i in seats),
        log=(),
        results=tuple(Result(i, f"b{i}", 9 - i, i + 1, {}) for i in seats),
    ))


@pytest.fixture
def settings(tmp_path, db_url) -> Settings:
    # a worker's settings that would keep queueing: the switch, not LADDER_QUEUE_TARGET, drains
    return Settings(env="test", instance_dir=tmp_path, database_url=None if db_url.startswith("sqlite") else db_url,
                    match_stale_after=STALE, match_resend_after=10, queue_target=4, tables_per_tick=2, event_slots=4)


@pytest.fixture
def house(session, settings):
    seed_house_bots(session=session, username=settings.house_username)
    return {game: house_versions(session, game, get_game(game).validation_bots) for game in ("treasure", "drachengold")}


def _open(session) -> int:
    session.rollback()
    count = session.exec(select(func.count()).select_from(Match).where(Match.status.in_(("queued", "running")))).one()
    session.rollback()
    return count


def test_the_switch_is_shared_and_starts_off(session, sessions):
    assert draining(session=session) is False
    set_draining(session=session, on=True)
    with sessions() as other:  # another process's session sees it at once
        assert draining(session=other) is True
        assert queue_state(session=other).draining
    set_draining(session=session, on=False)
    assert draining(session=session) is False


def test_while_draining_no_tick_queues_anything(session, sessions, settings, house):
    pending = add_user_bot(session, username="alice", code=SLOW_BOT, active=False)
    organizer = sign_up(session=session, data={"username": "org", "password": "plan-7-dragon-events"})
    set_admin(session=session, username="org")
    event = create_event(session=session, organizer_id=organizer.id, name="e", game="treasure", table_size=2,
                         deals=2)
    for version_id in house["treasure"]:
        add_entrant(session=session, event_id=event.id, bot_id=_bot_of(session, version_id),
                    acting_user_id=organizer.id)
    start_event(session=session, event_id=event.id, acting_user_id=organizer.id)
    set_draining(session=session, on=True)
    assert len(schedule(sessions, settings, random.Random(1))) == 0
    assert feed(sessions, settings) == []
    assert _open(session) == 0
    session.expire_all()
    assert pending.status == "pending"  # validated once the drain ends
    set_draining(session=session, on=False)
    resumed = schedule(sessions, settings, random.Random(1))
    assert resumed.priority and resumed.ladder and feed(sessions, settings)


def _bot_of(session, version_id: int) -> int:
    from ladder.models import BotVersion

    return session.get(BotVersion, version_id).bot_id


def test_a_drained_ladder_whose_workers_died_empties_within_the_stale_timeout(session, sessions, settings, house):
    """Matches running under dead workers' claims, and queued ones whose messages were lost: with
    the drain on, ticks queue nothing, the sweeper requeues and re-sends, and a live worker plays
    what it is sent, until nothing is open, at most the stale timeout plus one sweep later."""
    t0 = utcnow()
    seats = [house["treasure"], house["drachengold"]]
    for n in range(4):  # running under claims of workers that were just killed
        match = queue_match(session=session, game=("treasure", "drachengold")[n % 2], seats=seats[n % 2])
        claim_match(session=session, match_id=match.id, worker_id=f"dead{n}", now=t0)
    for _ in range(3):  # queued, their messages lost with the broker
        match = queue_match(session=session, game="treasure", seats=house["treasure"])
        mark_sent(session=session, match_ids=[match.id], now=t0)
    set_draining(session=session, on=True)
    assert _open(session) == 7
    step = sweep_interval(settings)
    now, played = t0, 0
    while _open(session) and now - t0 < timedelta(seconds=3 * STALE):
        now += timedelta(seconds=step)  # one beat period: a tick and a sweep
        assert len(schedule(sessions, settings, random.Random(now.second))) == 0
        assert feed(sessions, settings) == []
        to_send, failed = sweep(sessions, settings, now=now)
        assert failed == []
        mark_sent(session=session, match_ids=to_send.ladder + to_send.priority, now=now)
        for match_id in to_send.ladder + to_send.priority:  # a live worker takes each message
            played += play_match(match_id, sessions=sessions, settings=settings, worker_id="alive",
                                 runner=quick_runner).status == "finished"
    assert _open(session) == 0
    assert played == 7
    assert now - t0 <= timedelta(seconds=STALE + step)


def test_without_the_drain_the_same_ladder_keeps_queueing(session, sessions, settings, house):
    """The control: the ticks of a worker whose settings keep a queue refill it after every sweep."""
    for _ in range(2):
        match = queue_match(session=session, game="treasure", seats=house["treasure"])
        claim_match(session=session, match_id=match.id, worker_id="dead", now=utcnow() - timedelta(seconds=STALE + 1))
    sweep(sessions, settings)
    assert len(schedule(sessions, settings, random.Random(3))) > 0
    assert _open(session) > 2
