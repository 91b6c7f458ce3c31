"""The ladder's Prometheus metrics (prometheus_client), and the multiprocess plumbing they need.

Counters and histograms are kept by the process that sees the event: a web process (requests), a
worker's pool process (matches, phases, start failures, ratings), the process that ran the sweep.
gunicorn and Celery's prefork pool run many processes, so prometheus_client's multiprocess mode
is used: each process writes its values to files in PROMETHEUS_MULTIPROC_DIR and a scrape sums
them (MultiProcessCollector). The variable must be set before prometheus_client is first imported
in the process, so `ladder web` and `ladder worker` call ladder/telemetry/metrics_dir.py first thing.

What the database knows (queue depth, oldest queued match, matches running past the stale bound,
each worker's last claim) is read at scrape time by `DatabaseCollector` over ladder/services/
monitoring.py's indexed queries: gauges that are always the truth, whichever process answers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client import multiprocess as _multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from ladder.telemetry.metrics_dir import MULTIPROC_ENV

# prometheus_client chose files or memory when it was imported, just above: the scrape follows that
# choice, not the variable's later value (a command run in-process by a test may set it afterwards)
MULTIPROCESS = bool(os.environ.get(MULTIPROC_ENV))

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
MATCH_SECONDS = (0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900)

REQUESTS = Counter("ladder_http_requests_total", "HTTP requests answered, by route, method and status",
                   ["route", "method", "status"])
REQUEST_SECONDS = Histogram("ladder_http_request_duration_seconds", "Time to answer an HTTP request, by route",
                            ["route", "method"], buckets=SECONDS)
MATCHES_ENDED = Counter("ladder_matches_ended_total", "Matches a worker ended, by game and the status the "
                        "database recorded (finished, failed)", ["game", "status"])
ATTEMPTS_VOIDED = Counter("ladder_match_attempts_voided_total", "Match attempts voided by the ladder's own "
                          "failure (played again, or failed after the last), by game", ["game"])
MATCH_DURATION = Histogram("ladder_match_duration_seconds", "A match's time from claim to result, as recorded, by "
                           "game", ["game"], buckets=MATCH_SECONDS)
MATCH_PHASE = Histogram("ladder_match_phase_seconds", "Wall seconds of each phase of a played match attempt "
                        "(workers/match/phases.py), by game and phase", ["game", "phase"], buckets=SECONDS)
SANDBOX_START_FAILURES = Counter("ladder_sandbox_start_failures_total", "Bots the sandbox could not start, by "
                                 "the step that failed", ["step"])
SWEEPER_SENT = Counter("ladder_sweeper_sent_total", "Matches the sweeper sent to the broker again (requeued from "
                       "a dead worker, or queued and last sent too long ago), by queue", ["queue"])
SWEEPER_GAVE_UP = Counter("ladder_sweeper_gave_up_total", "Matches the sweeper failed after their last attempt")
RATINGS_APPLIED = Counter("ladder_rating_changes_applied_total", "Rating changes written with a result, by game",
                          ["game"])


def mark_process_dead(pid: int) -> None:
    """A pool or gunicorn child `pid` exited: its live gauges go (gunicorn's child_exit hook)."""
    if MULTIPROCESS:
        _multiprocess.mark_process_dead(pid)


def scrape_registry(*extra: Collector) -> CollectorRegistry:
    """A registry for one scrape: every process's values (multiprocess mode) or this process's,
    plus `extra` collectors (the database's gauges, a worker's heartbeat)."""
    registry = CollectorRegistry(auto_describe=False)
    if MULTIPROCESS:
        _multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_Forward(REGISTRY))
    for collector in extra:
        registry.register(collector)
    return registry


def exposition(*extra: Collector) -> bytes:
    return generate_latest(scrape_registry(*extra))


class _Forward(Collector):
    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self):
        return self.registry.collect()


class FunctionCollector(Collector):
    """Gauges computed when scraped: `compute()` yields metric families (a failing read yields
    `ladder_<source>_scrape_error` 1 instead, so a down database never breaks the scrape)."""

    def __init__(self, source: str, compute: Callable[[], Iterable[GaugeMetricFamily]]) -> None:
        self.source, self.compute = source, compute

    def collect(self):
        error = GaugeMetricFamily(f"ladder_{self.source}_scrape_error", f"1 when reading the {self.source} failed")
        try:
            families = list(self.compute())
        except Exception:  # the database is down: the rest of the scrape still answers
            error.add_metric([], 1)
            return [error]
        error.add_metric([], 0)
        return [*families, error]
