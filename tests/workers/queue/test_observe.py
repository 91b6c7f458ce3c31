"""What the task layer tells the operator: a match's end logged once with the status the database
recorded (a failed match is never "finished"), the counters by game and status, its phases, the
attempts the ladder voided and the sandbox step that failed, the sweeper's sends."""

from __future__ import annotations

import logging

import pytest
from match_support import record_of
from prometheus_client import REGISTRY
from service_support import house_versions

from ladder.config import Settings
from ladder.games import get_game
from ladder.replay import ENGINE_VERSION, SCHEMA_VERSION, Header, Replay, Result, SandboxRun, SeatRecord
from ladder.services.bots import seed_house_bots
from ladder.services.matches import queue_match
from workers.match.blame import ATTEMPTS, LadderFault
from workers.queue import celery_app, jobs, observe, tasks

START_FAILURE = "the sandbox could not start the bot: cgroup join failed: EACCES"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def eager(tmp_path, db_url):
    settings = Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict",
                        database_url=None if db_url.startswith("sqlite") else db_url)
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
    celery_app.configure(settings)
    celery_app.app.conf.update(task_always_eager=True, task_eager_propagates=True)
    tasks._db.clear()
    with tasks.sessions()() as session:
        from ladder.db import upgrade

        upgrade(session.get_bind())
        seed_house_bots(session=session, username=settings.house_username)
        seats = house_versions(session, "treasure", get_game("treasure").validation_bots)
    yield seats
    tasks._db.clear()
    celery_app.app.ladder_settings = saved[0]
    celery_app.app.conf.update(saved[1])


def _replay(n: int) -> Replay:
    return Replay(Header(SCHEMA_VERSION, ENGINE_VERSION, "treasure", {}, 1, n, "strict"),
                  seats=tuple(SeatRecord(i, f"b{i}", run=SandboxRun("strict"), stderr="") for i in range(n)),
                  log=(), results=tuple(Result(i, f"b{i}", 10 - i, i + 1, {}) for i in range(n)))


def test_a_voided_attempt_then_a_finished_match(eager, monkeypatch, caplog):
    calls = []

    def runner(plan, env):
        calls.append(plan.game.name)
        if len(calls) == 1:
            raise LadderFault(START_FAILURE, seat=0)
        env.phases.begin()
        env.phases.lap("play")
        return record_of(plan, _replay(len(plan.seats)))

    monkeypatch.setattr(jobs, "default_runner", runner)
    before = {k: value(*k[:1], **dict(k[1:])) for k in [
        ("ladder_matches_ended_total", ("game", "treasure"), ("status", "finished")),
        ("ladder_match_attempts_voided_total", ("game", "treasure")),
        ("ladder_sandbox_start_failures_total", ("step", "cgroup join")),
        ("ladder_rating_changes_applied_total", ("game", "treasure")),
        ("ladder_match_phase_seconds_count", ("game", "treasure"), ("phase", "play")),
        ("ladder_match_duration_seconds_count", ("game", "treasure")),
    ]}
    match_id = _queue(eager)
    with caplog.at_level(logging.INFO, logger="ladder.match"):
        assert tasks.run_match.delay(match_id).get()["status"] == "finished"
    after = {k: value(*k[:1], **dict(k[1:])) for k in before}
    assert [after[k] - before[k] for k in before] == [1, 1, 1, len(eager), 1, 1]
    end = [r for r in caplog.records if getattr(r, "ladder", {}).get("event") == "match_end"]
    assert len(end) == 1 and end[0].ladder["status"] == "finished" and end[0].ladder["match"] == match_id
    assert end[0].ladder["rating_changes"] == len(eager) and len(end[0].ladder["bots"]) == len(eager)
    assert f"match {match_id} finished (treasure, attempt 1" in end[0].getMessage()


def test_a_match_the_ladder_failed_is_logged_and_counted_failed(eager, monkeypatch, caplog):
    def runner(plan, env):
        raise LadderFault("the sandbox's monitor was killed by SIGKILL", seat=0)

    monkeypatch.setattr(jobs, "default_runner", runner)
    failed = value("ladder_matches_ended_total", game="treasure", status="failed")
    voided = value("ladder_match_attempts_voided_total", game="treasure")
    match_id = _queue(eager)
    with caplog.at_level(logging.INFO, logger="ladder.match"):
        tasks.run_match.delay(match_id).get()
    assert value("ladder_matches_ended_total", game="treasure", status="failed") == failed + 1
    assert value("ladder_match_attempts_voided_total", game="treasure") == voided + ATTEMPTS
    [line] = [r for r in caplog.records if getattr(r, "ladder", {}).get("event") == "match_end"]
    assert line.ladder["status"] == "failed" and "the ladder failed" in line.ladder["failure_reason"]
    assert f"match {match_id} failed" in line.getMessage() and "finished" not in line.getMessage()


def _queue(seats) -> int:
    with tasks.sessions()() as session:
        return queue_match(session=session, game="treasure", seats=seats).id


def test_start_steps_are_read_from_the_reason_and_bounded():
    assert observe.start_step(START_FAILURE) == "cgroup join"
    assert observe.start_step("the sandbox could not start the bot: SubprocessError") == "other"
    assert observe.start_step("the sandbox's monitor was killed by SIGKILL") is None


def test_the_sweepers_sends_are_counted_by_queue():
    before = value("ladder_sweeper_sent_total", queue="ladder.priority")
    gave_up = value("ladder_sweeper_gave_up_total")
    observe.swept({"ladder": 0, "priority": 3}, [7])
    assert value("ladder_sweeper_sent_total", queue="ladder.priority") == before + 3
    assert value("ladder_sweeper_gave_up_total") == gave_up + 1


def test_the_worker_metrics_listen_on_loopback_unless_told(tmp_path):
    """A worker's /metrics shows internals: on 127.0.0.1 by default, on the address it is given."""
    import socket
    import urllib.request

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    assert observe.serve_metrics(Settings(env="test", instance_dir=tmp_path)) is None  # no port: none
    for host in (None, "0.0.0.0"):
        port = free_port()
        extra = {} if host is None else {"worker_metrics_host": host}
        server = observe.serve_metrics(Settings(env="test", instance_dir=tmp_path, worker_metrics_port=port, **extra))
        try:
            assert server.server_address[0] == (host or "127.0.0.1")
            body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
            assert "ladder_heartbeat_scrape_error" in body
        finally:
            server.shutdown()
            server.server_close()
