"""What a worker tells its operator, from the task layer (workers/queue/tasks.py): a match's end
as the database recorded it (one log line, counters, its duration), each attempt's phases, the
attempts the ladder voided and the sandbox step that failed, the sweeper's sends; and the
worker's own metrics endpoint and logging set-up.

Everything is read after the fact, from the runner's return and the database, so the match code
(workers/match, workers/queue/jobs.py) stays as it is: the runner is wrapped, never edited.
"""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

from prometheus_client.core import GaugeMetricFamily

from ladder.db import session_scope
from ladder.services.monitoring import match_end
from ladder.telemetry import metrics

log = logging.getLogger("ladder.match")
_START_STEP = re.compile(r"the sandbox could not start the bot: (?:([a-z][a-z0-9_ ()-]{0,40}?) failed|(.{0,40}))")
STEPS = 40  # distinct step labels kept per process at most: a label set never grows without bound
_steps: set[str] = set()


def measured_runner(plan: Any, env: Any) -> Any:
    """workers.queue.jobs's default runner, with each attempt's phases measured (as `ladder bench
    service` does) and a voided attempt counted before it propagates to the retry."""
    from dataclasses import replace

    from workers.match import blame
    from workers.match.phases import Phases
    from workers.queue.jobs import default_runner

    game = plan.game.name
    phases = Phases()
    try:
        result = default_runner(plan, replace(env, phases=phases))
    except blame.LadderFault as fault:
        attempt_voided(game, fault.reason)
        raise
    for name, phase in phases.totals.items():
        metrics.MATCH_PHASE.labels(game, name).observe(phase.wall)
    return result


def attempt_voided(game: str, reason: str) -> None:
    metrics.ATTEMPTS_VOIDED.labels(game).inc()
    step = start_step(reason)
    if step is not None:
        metrics.SANDBOX_START_FAILURES.labels(step).inc()


def start_step(reason: str) -> str | None:
    """The failed step of a start failure's reason (blame.start_failure in workers/match/blame.py: "...: cgroup
    join failed: EACCES" gives "cgroup join"); None for another fault."""
    found = _START_STEP.search(reason)
    if found is None:
        return None
    step = found.group(1) or "other"
    if step not in _steps and len(_steps) >= STEPS:
        return "other"
    _steps.add(step)
    return step


def match_ended(sessions, match_id: int, result: Any) -> None:
    """After play_match: a claimed match's end, as recorded, logged once and counted; anything
    else (skipped: another worker had it; refused: the sweeper took it back) is logged as such."""
    if result.status not in ("finished", "failed"):
        log.info("match %s: %s %s", match_id, result.status, result.detail,
                 extra={"ladder": {"event": "match_" + result.status, "match": match_id, "detail": result.detail}})
        return
    with session_scope(sessions) as session:
        end = match_end(session=session, match_id=match_id)
    if end is None:  # the sweeper requeued it between the result and this read: its next end is logged
        log.info("match %s: %s here, but no longer ended in the database", match_id, result.status)
        return
    metrics.MATCHES_ENDED.labels(end.game, end.status).inc()
    if end.duration_s is not None:
        metrics.MATCH_DURATION.labels(end.game).observe(end.duration_s)
    if end.rating_changes:
        metrics.RATINGS_APPLIED.labels(end.game).inc(end.rating_changes)
    why = f": {end.failure_reason[:300]}" if end.failure_reason else ""
    log.info("match %s %s (%s, attempt %s, %s s, worker %s): %s%s", end.match_id, end.status, end.game,
             end.attempts, end.duration_s, end.worker, ", ".join(end.bots), why,
             extra={"ladder": {"event": "match_end", **end.as_json()}})


def swept(sent: dict[str, int], failed: list[int]) -> None:
    from workers.queue.celery_app import MATCH_QUEUE, PRIORITY_QUEUE

    for key, queue in (("ladder", MATCH_QUEUE), ("priority", PRIORITY_QUEUE)):
        if sent.get(key):
            metrics.SWEEPER_SENT.labels(queue).inc(sent[key])
    if failed:
        metrics.SWEEPER_GAVE_UP.inc(len(failed))


def heartbeat_gauges(instance_dir) -> list[GaugeMetricFamily]:
    from workers.queue import heartbeat

    age = GaugeMetricFamily("ladder_worker_heartbeat_age_seconds", "Seconds since each worker node on this "
                            "machine wrote its heartbeat (workers/queue/heartbeat.py)", labels=["node"])
    for beat in heartbeat.read_all(instance_dir, time.time()):
        age.add_metric([beat.node], beat.age_s)
    return [age]


def serve_metrics(settings) -> Any:
    """The worker's /metrics on `worker_metrics_host`:`worker_metrics_port` (every pool process's
    values, summed, and this machine's heartbeats), served by the main process's thread."""
    if settings.worker_metrics_port is None:
        return None
    from prometheus_client import start_http_server

    registry = metrics.scrape_registry(metrics.FunctionCollector(
        "heartbeat", lambda: heartbeat_gauges(settings.instance_dir)))
    httpd, _thread = start_http_server(settings.worker_metrics_port, addr=settings.worker_metrics_host,
                                       registry=registry)
    # pool processes forked later (max_tasks_per_child) must not keep the port open after we die
    os.register_at_fork(after_in_child=httpd.socket.close)
    log.info("worker metrics at http://%s:%s/metrics", settings.worker_metrics_host, settings.worker_metrics_port)
    return httpd


def process_exited(**_kwargs: Any) -> None:
    """Celery's worker_process_shutdown, in the pool process: its live values go."""
    metrics.mark_process_dead(os.getpid())


def install(app, settings) -> None:
    """Wire the worker's observability into Celery before it starts: the heartbeat bootstep, the
    metrics endpoint once the pool is up (no pool process keeps its socket), the pool
    processes' exit, and JSON logs in place of Celery's own set-up when asked for."""
    from celery import signals

    from ladder.telemetry import logs
    from workers.queue.heartbeat import Heartbeat

    app.steps["worker"].add(Heartbeat)
    signals.worker_ready.connect(lambda **_: serve_metrics(settings), weak=False)
    signals.worker_process_shutdown.connect(process_exited, weak=False)
    if settings.log_format == "json":
        signals.setup_logging.connect(lambda **_: logs.configure("json"), weak=False)
