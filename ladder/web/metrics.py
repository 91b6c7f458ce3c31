"""`/metrics` (Prometheus text format) and what every request adds to it: a count by route, method
and status, a latency histogram by route and, with LADDER_LOG_FORMAT=json, one log line.

The route label is the URL rule (`/matches/<int:match_id>`), never the path a client sent, so a
hostile client cannot grow the label set; a request that matched no rule is `unmatched`.
`/metrics` shows internals: the reverse proxy keeps it from the public (deploy/nginx/ladder.conf),
and Prometheus scrapes the web's own address.
"""

from __future__ import annotations

import logging
import time

from flask import Blueprint, Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.core import GaugeMetricFamily

from ladder.db import session_scope
from ladder.services.monitoring import snapshot
from ladder.services.ratings import latest_check
from ladder.telemetry import metrics

bp = Blueprint("metrics", __name__)
log = logging.getLogger("ladder.request")


@bp.get("/metrics")
def scrape():
    state = current_app.extensions["ladder"]
    body = metrics.exposition(metrics.FunctionCollector("database", lambda: database_gauges(state)))
    return Response(body, mimetype=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})


def database_gauges(state) -> list[GaugeMetricFamily]:
    """The queue as the database has it, read now (ladder/services/monitoring.py)."""
    with session_scope(state.sessions) as session:
        snap = snapshot(session=session, stale_after=state.settings.match_stale_after)
        check = latest_check(session)
    depth = GaugeMetricFamily("ladder_queue_depth", "Matches queued, by queue", labels=["queue"])
    oldest = GaugeMetricFamily("ladder_queue_oldest_age_seconds", "Age of the oldest queued match, by queue "
                               "(0 when the queue is empty)", labels=["queue"])
    for q in snap.queues:
        depth.add_metric([q.queue], q.depth)
        oldest.add_metric([q.queue], q.oldest_age_s)
    running = GaugeMetricFamily("ladder_matches_running", "Matches claimed by a worker and not yet ended",
                                value=snap.running)
    past = GaugeMetricFamily("ladder_matches_running_past_stale", "Matches running longer than "
                             "LADDER_MATCH_STALE_AFTER (the sweeper takes them back)", value=snap.running_past_stale)
    stale = GaugeMetricFamily("ladder_match_stale_after_seconds", "The stale bound (LADDER_MATCH_STALE_AFTER)",
                              value=state.settings.match_stale_after)
    claims = GaugeMetricFamily("ladder_worker_last_claim_age_seconds", "Seconds since a worker host last claimed "
                               "a match (hosts that claimed within the hour)", labels=["host"])
    for host, age in sorted(snap.last_claims.items()):
        claims.add_metric([host], age)
    families = [depth, oldest, running, past, stale, claims]
    if check is not None:  # none before the first check: an alert on "ok == 0" cannot fire on nothing
        families.append(GaugeMetricFamily(
            "ladder_ratings_check_ok", "1 when the newest ratings check (ladder ratings recompute, or the "
            "scheduler's) found every stored rating reproduced and no ranked match unrated, else 0",
            value=int(check.differences == 0 and check.missing == 0)))
        families.append(GaugeMetricFamily(
            "ladder_ratings_check_timestamp_seconds", "When the newest ratings check ran (Unix time)",
            value=check.checked_at.timestamp()))
        families.append(GaugeMetricFamily(
            "ladder_ratings_check_differences", "Stored rating numbers the newest check found differing",
            value=check.differences))
    return families


def init_request_metrics(app: Flask, json_lines: bool) -> None:
    app.before_request(_start)
    app.after_request(_observe_json if json_lines else _observe)


def _start() -> None:
    g.ladder_request_t0 = time.perf_counter()


def _measure(response) -> tuple[str, float]:
    started = g.pop("ladder_request_t0", None)
    seconds = time.perf_counter() - started if started is not None else 0.0
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    metrics.REQUESTS.labels(route, request.method, str(response.status_code)).inc()
    metrics.REQUEST_SECONDS.labels(route, request.method).observe(seconds)
    return route, seconds


def _observe(response):
    _measure(response)
    return response


def _observe_json(response):
    route, seconds = _measure(response)
    log.info("%s %s %s", request.method, request.path, response.status_code, extra={"ladder": {
        "method": request.method, "path": request.path[:200], "route": route, "status": response.status_code,
        "duration_ms": round(seconds * 1000, 2), "bytes": response.content_length, "remote": request.remote_addr}})
    return response
