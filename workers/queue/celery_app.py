"""The Celery application, configured from the ladder's one settings object.

Broker: Redis when `REDIS_URL` is set (the multi-machine path). Otherwise the embedded broker of
`ladder up`: kombu's SQLAlchemy transport on an SQLite file in the instance directory
(`Settings.broker_url`). Why that one, and not the filesystem transport: it needs no server and
no new dependency (SQLAlchemy is already here), a message is taken inside one `BEGIN IMMEDIATE`
transaction so two consumers can never read the same message or a half-written one (the
filesystem transport moves a file that its producer may still be writing), and it is one file
that lives and dies with the instance directory. Neither embedded transport redelivers a message
whose worker was SIGKILLed (both mark it taken when it is fetched), and Redis loses every message
when it restarts without persistence: that is why the database, not the broker, is the queue of
record, and the sweeper sends a queued match again whenever its last send is older than
`match_resend_after` (workers/queue/scheduler.py `sweep`), busy broker or not.

Reliability settings (the reasoning is beside `celery_config`): acknowledged after the task
(`acks_late`), one message reserved per pool process (prefetch 1), JSON only, the hard time limit
below the stale-match threshold so a live match is never swept, and a Redis visibility timeout
short enough that a message held by a dead worker comes back within the re-send bound.

The app reads the environment lazily, the first time its configuration is needed; a test or a
command can bind its own Settings first with `configure(settings)`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import Celery

from ladder.config import Settings

MATCH_QUEUE = "ladder.matches"  # rated ladder matches, fed by the scheduler
PRIORITY_QUEUE = "ladder.priority"  # validation and challenge games, scheduler ticks, sweeps
QUEUES = (MATCH_QUEUE, PRIORITY_QUEUE)
TASKS_MODULE = "workers.queue.tasks"


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
    """How often the sweeper runs: a few times per stale period and per re-send bound, between once
    a second and a minute (15 s with the defaults), so a lost message is sent again at most a
    quarter of the bound late."""
    return float(min(60, max(1, min(settings.match_stale_after, settings.match_resend_after) // 4)))


def visibility_timeout(settings: Settings) -> int:
    """Seconds Redis waits for an unacknowledged message's ack before handing it out again: half
    the re-send bound (see celery_config for why a short one is safe)."""
    return max(1, settings.match_resend_after // 2)


def restore_interval(settings: Settings) -> int:
    """Seconds between a worker's scans for messages past their visibility timeout: a quarter of the
    re-send bound, so timeout + scan stay within it."""
    return max(1, settings.match_resend_after // 4)


def worker_id() -> str:
    """Who holds a claim: host and process (with what proves it alive: workers/queue/claims.py), so
    a claim names the process that can finish it."""
    from workers.queue.claims import worker_id as claim_id

    return claim_id()


def celery_config(settings: Settings) -> dict[str, Any]:
    """Celery's settings for these ladder settings (plain data: printable, testable)."""
    soft, hard = time_limits(settings)
    # How a message comes back, and why a running match is never played twice:
    # - acks_late: the broker keeps a message until its task ends. If the whole worker dies (power,
    #   SIGKILL of its group) while holding one, Redis hands it out again once the visibility
    #   timeout passes; a worker scans for such messages every `restore_interval` (throttle 1:
    #   every scan is a real one), so it is back within timeout + interval = 3/4 of
    #   match_resend_after. The sweeper re-sends the match within the same bound anyway (a
    #   restarted Redis keeps nothing); the two only make duplicates, which the claim drops.
    # - The timeout is shorter than a long match, on purpose: a message whose match is still
    #   running is handed out again, and that delivery finds the match `running` (the guarded
    #   claim in services/matches.py matches no row) and is acknowledged, doing nothing. Only the
    #   sweeper takes a match from its worker, once it has been running `match_stale_after`
    #   seconds, and the hard time limit below kills any task before that. (The old choice, a
    #   timeout above the stale threshold, left a message of a worker killed before its claim
    #   waiting 20 minutes.)
    # - reject_on_worker_lost off: when a pool process dies mid-task (SIGKILL, the hard time
    #   limit, the OOM killer) its message is acknowledged, not requeued. A requeued copy could do
    #   nothing useful: the match is `running` under the dead claim until the sweeper requeues it
    #   (and sends it), and a match that kills its process each time must reach max_attempts and
    #   fail rather than loop.
    transport: dict[str, Any] = {}
    if settings.redis_url is not None:
        transport = {"visibility_timeout": visibility_timeout(settings),
                     "unacked_restore_interval": restore_interval(settings), "unacked_restore_throttle": 1}
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
        "task_reject_on_worker_lost": False,  # the claim guard and the sweeper own recovery (above)
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": soft,
        "task_time_limit": hard,
        "task_default_queue": MATCH_QUEUE,
        "task_routes": {
            f"{TASKS_MODULE}.schedule_matches": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.sweep_stale": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.validate_version": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.write_dumps": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.check_ratings": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.write_rating_reports": {"queue": PRIORITY_QUEUE},
            f"{TASKS_MODULE}.prune": {"queue": PRIORITY_QUEUE},
        },
        # the embedded transport has no broadcast: remote control (celery inspect) only with Redis
        "worker_enable_remote_control": settings.redis_url is not None,
        # task events (Flower, exporters) with Redis: sent, started, succeeded, failed, each a small
        # pub/sub message; the embedded broker has no fanout to carry them
        "worker_send_task_events": settings.redis_url is not None,
        "task_send_sent_event": settings.redis_url is not None,
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
    schedule = {
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
        # hourly, so a worker that was down at midnight writes yesterday's dumps within the hour;
        # a run with nothing missing costs one count query per game and day
        "write-dumps": {
            "task": f"{TASKS_MODULE}.write_dumps",
            "schedule": timedelta(hours=1),
            "options": {"expires": 3600},
        },
    }
    if settings.prune_interval:
        # retention (LADDER_RETAIN_*) and the artifacts' move to the store, in batches
        schedule["prune"] = {
            "task": f"{TASKS_MODULE}.prune",
            "schedule": timedelta(seconds=settings.prune_interval),
            "options": {"expires": settings.prune_interval},
        }
    if settings.ratings_check_interval:
        # the ratings check replays every rated match (ladder_ratings_check_ok); a large ladder may
        # space it out or turn it off (LADDER_RATINGS_CHECK_INTERVAL)
        schedule["check-ratings"] = {
            "task": f"{TASKS_MODULE}.check_ratings",
            "schedule": timedelta(seconds=settings.ratings_check_interval),
            "options": {"expires": settings.ratings_check_interval},
        }
    if settings.ratings_report_interval:
        # the accuracy report (docs/ratings.md) reads a bounded window of each game's history
        schedule["rating-reports"] = {
            "task": f"{TASKS_MODULE}.write_rating_reports",
            "schedule": timedelta(seconds=settings.ratings_report_interval),
            "options": {"expires": settings.ratings_report_interval},
        }
    return schedule


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
