"""deploy/grafana/ladder.json is a dashboard whose every query names metrics the ladder exports
(ladder/telemetry/metrics.py, the scrape-time gauges of ladder/web/metrics.py and workers/queue/observe.py),
and that shows every one of them: a renamed metric fails here, not on an operator's screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

from ladder.telemetry import metrics

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "ladder.json"
SUFFIXES = ("_bucket", "_sum", "_count", "_total")


def exported() -> set[str]:
    names = {m._name for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)}
    for source in ("ladder/web/metrics.py", "workers/queue/observe.py", "ladder/telemetry/metrics.py"):
        names |= set(re.findall(r'GaugeMetricFamily\(\s*f?"(ladder_[a-z_{}.]+)"', (ROOT / source).read_text()))
    return {n.replace("{self.source}", s) for n in names for s in ("database", "heartbeat")}


def queried() -> set[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    found = set()
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            found |= set(re.findall(r"\b(ladder_[a-z_]+)", target["expr"]))
    return found


def _base(name: str) -> str:
    for suffix in SUFFIXES:
        name = name.removesuffix(suffix)  # a counter's and a histogram's series names
    return name


def test_every_query_names_an_exported_metric():
    names = exported()
    assert {_base(q) for q in queried()} - {_base(n) for n in names} == set()


def test_every_exported_metric_is_on_the_dashboard():
    assert {_base(n) for n in exported()} - {_base(q) for q in queried()} == set()
