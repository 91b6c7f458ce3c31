"""Thin Celery tasks: each receives ids, opens the process's database, calls workers.queue.jobs or
workers.queue.scheduler (which call the services), and sends new work to the broker only after the
database committed it. All of them are idempotent: a duplicate or redelivered message finds the
match already claimed or done and does nothing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded

from workers.queue.celery_app import MATCH_QUEUE, PRIORITY_QUEUE, app, worker_id

log = logging.getLogger(__name__)

_db: dict[int, Any] = {}  # pid -> session factory: each pool process opens its own connections
_stores: dict[int, Any] = {}  # pid -> (the settings, the store they name)
_relays: dict[int, Any] = {}  # pid -> (the engine of sessions(), the relay on it): the live feeds


def sessions():
    """This process's session factory (created on first use, again after a fork)."""
    pid = os.getpid()
    if pid not in _db:
        from ladder.db import make_engine, session_factory

        _db.clear()  # a forked child must not reuse its parent's connections
        _db[pid] = session_factory(make_engine(app.settings))
    return _db[pid]


def store():
    """This process's store of blobs (a boto3 client is not to be shared across a fork)."""
    pid = os.getpid()
    cached = _stores.get(pid)
    if cached is None or cached[0] is not app.settings:  # first use, a fork, or new settings (tests)
        from ladder.storage import open_store

        _stores.clear()
        _stores[pid] = cached = (app.settings, open_store(app.settings))
    return cached[1]


def relay():
    """This process's relay: Redis with REDIS_URL, else the very database (engine) `sessions()`
    plays in, which `ladder up` and the tests migrate (never a second engine on another file)."""
    engine = sessions().kw["bind"]
    cached = _relays.get(os.getpid())
    if cached is None or cached[0] is not engine:  # first use, a fork, or new settings (tests)
        from ladder.relay.backends import relay_for

        _relays.clear()
        _relays[os.getpid()] = cached = (engine, relay_for(app.settings, engine=engine))
    return cached[1]


def dispatch_matches(match_ids: Iterable[int], queue: str = PRIORITY_QUEUE) -> int:
    """Send run_match for committed, queued matches; the web site's LADDER_DISPATCH. Never raises:
    a message that cannot be sent is re-sent by the sweeper, which finds the match still queued.
    The number sent (the web site's sends are not recorded: the match's creation stands for them)."""
    return len(_dispatch(match_ids, queue))


def _dispatch(match_ids: Iterable[int], queue: str) -> list[int]:
    sent = []
    for match_id in match_ids:
        try:
            run_match.apply_async((int(match_id),), queue=queue)
            sent.append(int(match_id))
        except Exception as exc:  # the broker is down: the database keeps the match
            log.warning("match %s queued but not sent (%s); the sweeper will send it", match_id, exc)
    return sent


def _send_recorded(match_ids: Iterable[int], queue: str) -> int:
    """Send, then record when (matches.sent_at): the sweeper sends again what waits too long since."""
    from ladder.db import session_scope
    from ladder.services.queue_control import mark_sent

    sent = _dispatch(match_ids, queue)
    if sent:
        try:
            with session_scope(sessions()) as session:
                mark_sent(session=session, match_ids=sent)
        except Exception as exc:  # unrecorded, a match is only sent again a little early: harmless
            log.warning("matches %s sent, but the send was not recorded: %s", sent, exc)
    return len(sent)


def _send(queued) -> dict[str, int]:
    return {"ladder": _send_recorded(queued.ladder, MATCH_QUEUE),
            "priority": _send_recorded(queued.priority, PRIORITY_QUEUE)}


@app.task(bind=True, name="workers.queue.tasks.run_match")
def run_match(self, match_id: int) -> dict[str, Any]:
    """Claim, play and record one match (see workers.queue.jobs.play_match)."""
    from workers.queue import observe
    from workers.queue.jobs import play_match

    claim = f"{worker_id()}:{(self.request.id or 'local')[:8]}"  # names this delivery, not just the process
    try:
        result = play_match(match_id, sessions=sessions(), settings=app.settings, worker_id=claim, relay=relay(),
                            runner=observe.measured_runner, store=store())
    except SoftTimeLimitExceeded:  # raised while recording: the sweeper requeues the running match
        log.error("match %s: time limit reached while recording", match_id)
        raise
    try:  # the end as the database recorded it (a "finished" job may have recorded a failed match)
        observe.match_ended(sessions(), match_id, result)
    except Exception as exc:  # the result is stored: a failed read must not fail the task
        log.warning("match %s: %s, but its end could not be read back: %s", match_id, result.status, exc)
    return result.as_json()


@app.task(name="workers.queue.tasks.schedule_matches")
def schedule_matches() -> dict[str, int]:
    """A scheduler tick: queue validation games, ladder tables, event matches and open-ladder matches,
    then send them."""
    from workers.queue.events import feed
    from workers.queue.lobby import schedule_open
    from workers.queue.scheduler import schedule

    queued = schedule(sessions(), app.settings)
    queued.ladder += feed(sessions(), app.settings)  # tournament matches, within their share
    # the open ladder: remote bots waiting in the lobby, paired on the same tick (workers/queue/lobby.py)
    queued.ladder += schedule_open(sessions(), app.settings, relay())
    return _send(queued)


@app.task(name="workers.queue.tasks.sweep_stale")
def sweep_stale() -> dict[str, Any]:
    """Requeue matches whose worker died, re-send queued matches last sent too long ago, send them."""
    from workers.queue.observe import swept
    from workers.queue.scheduler import sweep

    queued, failed = sweep(sessions(), app.settings)
    if app.settings.redis_url is None:
        purge_delivered()
    sent = _send(queued)
    swept(sent, failed)
    return {**sent, "failed": failed}


@app.task(name="workers.queue.tasks.write_dumps")
def write_dumps() -> list[str]:
    """Each game's matches of every finished day as a Parquet dump (ladder/services/dumps.py)."""
    from datetime import UTC, datetime

    from ladder.services.dumps import write_daily_dumps

    written = write_daily_dumps(sessions(), store(), datetime.now(UTC).date())
    return [dump.filename for dump in written]


@app.task(name="workers.queue.tasks.prune")
def prune() -> dict[str, Any]:
    """Retention (ladder/services/retention.py), after a batch of the artifacts and bot data versions
    still held in the database is moved to the store (services/builds.py, services/botdata.py):
    `ladder admin prune` on the scheduler's clock."""
    from ladder.db import session_scope
    from ladder.services import botdata
    from ladder.services.builds import move_to_store
    from ladder.services.retention import Policy
    from ladder.services.retention import prune as run_prune

    settings = app.settings
    with session_scope(sessions()) as session:
        moved = move_to_store(session=session, store=store(), batch=settings.prune_batch)
        moved += botdata.move_to_store(session=session, store=store(), batch=settings.prune_batch)
        report = run_prune(session=session, store=store(), policy=Policy.from_settings(settings),
                           batch=settings.prune_batch)
    if moved or any(p.count for p in report.items):
        log.info("prune: moved %s artifacts and data versions to the store; %s", moved, "; ".join(report.lines()))
    return {"moved_to_store": moved, **report.as_json()}


@app.task(name="workers.queue.tasks.check_ratings")
def check_ratings() -> dict[str, int]:
    """`ladder ratings recompute`'s dry run, recorded for ladder_ratings_check_ok (services/ratings.py)."""
    from ladder.db import session_scope
    from ladder.services.ratings import check_ratings as check

    with session_scope(sessions()) as session:
        done = check(session=session)
        return {"differences": done.differences, "missing": done.missing}


@app.task(name="workers.queue.tasks.write_rating_reports")
def write_rating_reports() -> dict[str, int]:
    """Each game's ratings accuracy report, recomputed and stored (workers/queue/scheduler.py)."""
    from workers.queue.scheduler import rating_reports

    return rating_reports(sessions(), app.settings)


@app.task(name="workers.queue.tasks.validate_version")
def validate_version(version_id: int) -> int | None:
    """Check an uploaded version's package and queue its validation game (sent at once)."""
    from ladder.db import session_scope
    from workers.queue.scheduler import validate_version as validate

    with session_scope(sessions()) as session:
        match_id = validate(session, version_id, app.settings)
    if match_id is not None:
        _send_recorded([match_id], PRIORITY_QUEUE)
    return match_id


def purge_delivered() -> int:
    """The embedded broker keeps every delivered message as a hidden row; drop them. An unacked
    message lives in its consumer's memory (and is put back as a new row), so this loses nothing."""
    from sqlalchemy import create_engine, text

    engine = create_engine(app.settings.broker_url.removeprefix("sqla+"), connect_args={"timeout": 30})
    try:
        with engine.begin() as conn:
            return conn.execute(text("DELETE FROM kombu_message WHERE visible = 0")).rowcount
    except Exception as exc:  # no table yet, or the file is busy: the next sweep tries again
        log.info("broker clean-up skipped: %s", exc)
        return 0
    finally:
        engine.dispose()
