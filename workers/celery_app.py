"""The Celery application, configured from the ladder's one settings object.

Broker: Redis when `REDIS_URL` is set (the multi-machine path). Otherwise the embedded broker of
`ladder up`: kombu's SQLAlchemy transport on an SQLite file in the instance directory
(`Settings.broker_url`). Why that one, and not the filesystem transport: it needs no server and
no new dependency (SQLAlchemy is already here), a message is taken inside one `BEGIN IMMEDIATE`
transaction so two consumers can never read the same message or a half-written one (the
filesystem transport moves a file that its producer may still be writing), and it is one file
that lives and dies with the instance directory. Neither embedded transport redelivers a message
whose worker was SIGKILLed (both mark it taken when it is fetched), and neither does Redis until
the visibility timeout passes: that is why the database, not the broker, is the queue of record
and the sweeper re-sends what the broker lost (workers/tasks.py).

Reliability settings follow Celery's guide for long tasks: the message is acknowledged after the
task (`acks_late`), a worker process reserves one message at a time (prefetch 1), JSON only, and
the hard time limit < the stale-match threshold < the broker's visibility timeout, so a match that
is still running is never swept or redelivered.

The app reads the environment lazily, the first time its configuration is needed; a test or a
command can bind its own Settings first with `configure(settings)`.
"""

from __future__ import annotations

import os
import socket
from datetime import timedelta
from typing import Any

from celery import Celery

from ladder.config import Settings

MATCH_QUEUE = "ladder.matches"  # rated ladder matches, fed by the scheduler
PRIORITY_QUEUE = "ladder.priority"  # validation and challenge games, scheduler ticks, sweeps
QUEUES = (MATCH_QUEUE, PRIORITY_QUEUE)
TASKS_MODULE = "workers.tasks"


class LadderCelery(Celery):
    """Celery that knows the ladder's Settings (bound once per process)."""

    ladder_settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self.ladder_settings is None:
            self.ladder_settings = Settings.from_env()
        return self.ladder_settings


def time_limits(settings: Settings) -> tuple[int, int]:
    """(soft, hard) seconds for one match task: the hard limit ends well before the sweeper would
    call the match stale, so a live match is never requeued under the feet of its worker."""
    stale = settings.match_stale_after
    hard = max(1, stale - max(1, min(60, stale // 5)))
    soft = max(1, hard - max(1, min(30, hard // 10)))
    return soft, hard


def sweep_interval(settings: Settings) -> float:
    """How often the sweeper runs: a few times per stale period, between once a second and a minute."""
    return float(min(60, max(1, settings.match_stale_after // 4)))


def worker_id() -> str:
    """Who holds a claim: host and process, so a claim names the process that can finish it."""
    return f"{socket.gethostname()}:{os.getpid()}"


def celery_config(settings: Settings) -> dict[str, Any]:
    """Celery's settings for these ladder settings (plain data: printable, testable)."""
    soft, hard = time_limits(settings)
    # Redis re-sends an unacknowledged message after this long; it must exceed any task's life.
    visibility = settings.match_stale_after + 300
    transport: dict[str, Any] = {}
    if settings.redis_url is not None:
        transport = {"visibility_timeout": visibility}
    else:
        # SQLite write locks are short here; wait for them instead of failing the poll.
        transport = {"connect_args": {"timeout": 30}}
    return {
        "broker_url": settings.broker_url,
        "broker_transport_options": transport,
        "broker_connection_retry_on_startup": True,
        "task_serializer": "json",
        "result_serializer": "json",
        "event_serializer": "json",
        "accept_content": ["json"],
        "task_ignore_result": True,  # results live in the database; no result backend needed
        "result_backend": None,
        "task_acks_late": True,
        "task_reject_on_worker_lost": False,  # the claim guard and the sweeper own recovery: no loops
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": soft,
        "task_time_limit": hard,
        "task_default_queue": MATCH_QUEUE,
        "task_routes": {
            f"{TASKS_MODULE}.schedule_matches": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.sweep_stale": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.validate_version": {"queue": PRIORITY_QUEUE},
        },
        # the embedded transport has no broadcast: remote control (celery inspect) only with Redis
        "worker_enable_remote_control": settings.redis_url is not None,
        "worker_hijack_root_logger": False,
        "worker_max_tasks_per_child": 200,  # bounds any slow leak in a long-lived pool process
        "beat_schedule": beat_schedule(settings),
        "beat_schedule_filename": str(settings.instance_dir / "celerybeat-schedule"),
        "timezone": "UTC",
        "enable_utc": True,
    }


def beat_schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """Periodic work: keep the queue fed, and requeue what dead workers left running. A tick that
    is not consumed before the next one is due expires: a busy ladder needs no backlog of ticks."""
    tick = settings.scheduler_interval
    sweep = sweep_interval(settings)
    return {
        "schedule-matches": {
            "task": f"{TASKS_MODULE}.schedule_matches",
            "schedule": timedelta(seconds=tick),
            "options": {"expires": max(1.0, tick)},
        },
        "sweep-stale": {
            "task": f"{TASKS_MODULE}.sweep_stale",
            "schedule": timedelta(seconds=sweep),
            "options": {"expires": max(1.0, sweep)},
        },
    }


app = LadderCelery("ladder", include=[TASKS_MODULE], set_as_current=False)
app.add_defaults(lambda: celery_config(app.settings))  # evaluated on first use, not at import


def configure(settings: Settings) -> LadderCelery:
    """Bind `settings` to the app (before or after its configuration was first read)."""
    app.ladder_settings = settings
    if app.configured:
        app.conf.update(celery_config(settings))
        # connections and producers are pooled per app: ones made for the previous broker must go
        app._pool = None
        if "amqp" in app.__dict__:
            app.amqp._producer_pool = None
    return app
