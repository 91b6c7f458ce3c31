"""`ladder connect` end to end: a real web server, a worker playing the matches through
workers.queue.jobs, a local bot process relayed over the websocket, the connection cut on purpose;
on the database relay and on Redis. Every match finishes, and each cut the client made is exactly
one `disconnect` fault of its seat in the replay."""

from __future__ import annotations

import random
import threading
import time

import pytest
from service_support import redis_url  # noqa: F401 (fixture)
from werkzeug.serving import make_server

from ladder import create_app
from ladder.cli import connect as connect_cmd
from ladder.config import Settings
from ladder.db import session_factory
from ladder.services import tokens
from ladder.services.bots import seed_house_bots
from ladder.services.users import sign_up
from workers.match.runner import builtin_source
from workers.queue.jobs import play_match

MATCHES = 3


@pytest.fixture(params=["database", "redis"])
def ladder_site(request, engine, tmp_path):
    redis = request.getfixturevalue("redis_url") if request.param == "redis" else None
    settings = Settings(env="test", instance_dir=tmp_path, sandbox_mode="none", redis_url=redis)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
        user = sign_up(session=session, data={"username": "homer", "password": "correct horse battery"})
        token = tokens.create(session=session, user_id=user.id, name="home", scopes=["play"])[1]
    queued: list[int] = []
    app = create_app({"settings": settings, "LADDER_ENGINE": engine, "TESTING": True,
                      "LADDER_DISPATCH": queued.extend})
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{http.server_port}", "token": token, "queued": queued,
           "sessions": sessions, "settings": settings}
    http.shutdown()
    thread.join(10)


@pytest.mark.parametrize("transport", ["websocket", "http"])
def test_challenges_played_through_cuts_record_each_cut_once(ladder_site, tmp_path, transport):
    """Over either transport alone: the HTTP long poll plays the same matches, cuts included."""
    site = ladder_site
    play_one = connect_cmd.play_one_http if transport == "http" else connect_cmd.play_one
    ladder = connect_cmd.Ladder(site["url"], site["token"])
    bot = tmp_path / "mybot.py"  # an author's copy of a starter bot: the file a sandbox would run
    bot.write_text(builtin_source("treasure", "careful").read_text())
    bot = str(bot)
    reports: list = []
    errors: list = []

    def client() -> None:  # the owner's machine; the worker below plays in the main thread
        try:
            rng = random.Random(26)
            for _ in range(MATCHES):
                match_id, seat = ladder.challenge("treasure", "homebot", ["house/careful"], None)
                reports.append(connect_cmd.outcome(ladder, play_one(
                    ladder, bot, match_id, seat, cut_chance=0.05, rng=rng), timeout_s=300))
        except BaseException as exc:  # reported by the test, not lost in a thread
            errors.append(exc)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    deadline = time.monotonic() + 600
    while thread.is_alive() and time.monotonic() < deadline:
        if site["queued"]:
            result = play_match(site["queued"].pop(0), sessions=site["sessions"], settings=site["settings"],
                                worker_id="test-worker")
            assert result.status == "finished", result
        else:
            time.sleep(0.05)
    thread.join(5)
    assert not errors, errors
    assert len(reports) == MATCHES
    for report in reports:
        assert report.status == "finished"
        assert report.recorded == report.cuts, report
    assert sum(r.cuts for r in reports) >= 1, reports  # the seed cuts: the test exercises reconnecting
    for report in reports:  # fewer than three cuts leave the seat playing; the third hands it over
        assert report.seat_status == ("ok" if report.cuts < 3 else "protocol_error"), report


def test_connect_defaults_to_the_port_ladder_up_serves():
    # `ladder connect` defaulted to port 8000 while `ladder up` and every doc use 5000
    from urllib.parse import urlsplit

    from ladder.cli.service import up

    url = next(p.default for p in connect_cmd.connect.params if p.name == "url")
    port = next(p.default for p in up.params if p.name == "port")
    assert urlsplit(url).port == port == 5000


@pytest.mark.parametrize("ladder_site", ["database"], indirect=True)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_connect_stops_with_the_reason_when_its_token_is_revoked(ladder_site, tmp_path, monkeypatch):
    """No worker plays here: the seat's websocket is open and idle when the token is revoked (what
    log out everywhere does), and `ladder connect` stops with the ladder's reason instead of
    reconnecting with a token that can no longer succeed."""
    from sqlmodel import select

    from ladder.models import SeatConnection
    from ladder.web.api import seat_socket

    monkeypatch.setattr(seat_socket, "TOKEN_CHECK_S", 0.2)
    site = ladder_site
    ladder = connect_cmd.Ladder(site["url"], site["token"])
    bot = tmp_path / "idle.py"
    bot.write_text("import sys\nsys.stdin.read()\n")
    match_id, seat = ladder.challenge("treasure", "idle", ["house/careful"], 7)
    raised: list[BaseException] = []

    def client() -> None:
        try:
            connect_cmd.play_one(ladder, str(bot), match_id, seat, cut_chance=0, rng=random.Random(1))
        except BaseException as exc:  # the test reads what it raised
            raised.append(exc)

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    with site["sessions"]() as session:
        while session.exec(select(SeatConnection).where(SeatConnection.match_id == match_id)).first() is None:
            assert time.monotonic() < deadline, "the client never connected"
            session.rollback()
            time.sleep(0.05)
        user_id = session.exec(select(SeatConnection.user_id).where(SeatConnection.match_id == match_id)).one()
        tokens.revoke_all(session=session, user_id=user_id)
    thread.join(20)
    assert not thread.is_alive() and len(raised) == 1
    assert isinstance(raised[0], connect_cmd.LadderRefused) and "token was revoked" in raised[0].message
