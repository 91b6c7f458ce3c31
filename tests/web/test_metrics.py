"""/metrics: requests by route (the rule, never the client's path), method and status with their
latency; the queue's gauges read from the database at scrape time; JSON request lines on request."""

from __future__ import annotations

import json
import logging

from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import select

from ladder import create_app
from ladder.config import Settings
from ladder.services.matches import queue_match


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def scrape(client) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    return samples(response.get_data(as_text=True))


def test_requests_are_counted_by_route_and_timed(client):
    before = scrape(client)
    for path in ("/healthz", "/healthz", "/no/such/page/../x", "/random-42"):
        client.get(path)
    after = scrape(client)
    ok = ("ladder_http_requests_total", (("method", "GET"), ("route", "/healthz"), ("status", "200")))
    missing = ("ladder_http_requests_total", (("method", "GET"), ("route", "unmatched"), ("status", "404")))
    assert after[ok] - before.get(ok, 0) == 2
    assert after[missing] - before.get(missing, 0) == 2  # two paths, one label: clients cannot add labels
    timed = ("ladder_http_request_duration_seconds_count", (("method", "GET"), ("route", "/healthz")))
    assert after[timed] - before.get(timed, 0) == 2


def test_the_queue_gauges_come_from_the_database(client, app, engine):
    from ladder.db import session_factory
    from ladder.models import Bot

    with session_factory(engine)() as session:
        bots = session.exec(select(Bot).where(Bot.game == "treasure").limit(2)).all()
        queue_match(session=session, game="treasure", seats=[b.id for b in bots])
    got = scrape(client)
    assert got[("ladder_queue_depth", (("queue", "ladder.matches"),))] >= 1
    assert got[("ladder_queue_depth", (("queue", "ladder.priority"),))] == 0
    assert got[("ladder_matches_running_past_stale", ())] == 0
    assert got[("ladder_database_scrape_error", ())] == 0


def test_the_newest_ratings_check_is_a_gauge(client, engine):
    from ladder.db import session_factory
    from ladder.services.ratings import record_check

    assert not any(name == "ladder_ratings_check_ok" for name, _ in scrape(client))  # before any check
    with session_factory(engine)() as session:
        record_check(session=session, differences=0, missing=0)
    assert scrape(client)[("ladder_ratings_check_ok", ())] == 1
    with session_factory(engine)() as session:
        record_check(session=session, differences=4, missing=0)
    got = scrape(client)
    assert got[("ladder_ratings_check_ok", ())] == 0 and got[("ladder_ratings_check_differences", ())] == 4
    assert got[("ladder_ratings_check_timestamp_seconds", ())] > 1.7e9


def test_a_down_database_leaves_the_scrape_answering(tmp_path):
    from sqlalchemy import create_engine

    gone = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2})
    app = create_app({"settings": Settings(env="test", instance_dir=tmp_path), "LADDER_ENGINE": gone})
    got = scrape(app.test_client())
    assert got[("ladder_database_scrape_error", ())] == 1
    assert not any(name == "ladder_queue_depth" for name, _ in got)


def test_json_request_lines_carry_route_status_and_latency(engine, tmp_path, caplog):
    app = create_app({"settings": Settings(env="test", instance_dir=tmp_path, log_format="json"),
                      "LADDER_ENGINE": engine})
    with caplog.at_level(logging.INFO, logger="ladder.request"):
        app.test_client().get("/healthz?x=1")
    from ladder.telemetry.logs import JsonFormatter

    line = json.loads(JsonFormatter().format(caplog.records[-1]))
    assert (line["method"], line["path"], line["route"], line["status"]) == ("GET", "/healthz", "/healthz", 200)
    assert line["duration_ms"] >= 0 and line["logger"] == "ladder.request" and line["ts"].endswith("+00:00")
