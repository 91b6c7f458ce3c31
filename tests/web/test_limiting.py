"""Request rates and limits answered 429 with Retry-After and a sentence: failed log-ins per
account and per address (refused before any password is hashed), sign-ups per address, API
requests per token, uploads per day and challenges in flight. Counted in memory, and in a real
Redis shared by two app instances (as two web processes would share it)."""

from __future__ import annotations

import io

import pytest
from service_support import redis_url  # noqa: F401 (fixture)
from web.helpers import GOOD_BOT, PASSWORD, Builder, Site

from ladder import create_app
from ladder.db import session_factory
from ladder.services import users as user_service


@pytest.fixture
def make_site(app, engine, settings):  # app: the starter bots are seeded
    """make_site(**setting overrides) -> Site on a new app over the same database."""
    def make(**overrides) -> Site:
        app = create_app({"settings": settings.model_copy(update=overrides), "LADDER_ENGINE": engine,
                          "TESTING": True, "LADDER_DISPATCH": lambda ids: None})
        return Site(app.test_client())
    return make


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """Every password check the users service makes (each one an argon2 hash in real life)."""
    calls: list[str] = []
    real = user_service._verify

    def counting(hashed, password):
        calls.append(password)
        return real(hashed, password)

    monkeypatch.setattr(user_service, "_verify", counting)
    return calls


def _refused(response, words: str) -> None:
    assert response.status_code == 429, response.get_data(as_text=True)[:500]
    assert int(response.headers["Retry-After"]) >= 1
    assert words in response.get_data(as_text=True)


def test_failed_log_ins_per_account_are_refused_before_hashing(make_site, engine, hashes):
    Builder(session_factory(engine)).user("alice")
    site = make_site(login_failures_per_account="3 per hour", login_failures_per_address="100 per hour")
    for _ in range(3):
        assert site.login("alice", "wrong guess here").status_code == 401
    assert len(hashes) == 3
    _refused(site.login("alice", "wrong guess here"), "Too many failed log-ins for this user name.")
    _refused(site.login("ALICE", PASSWORD), "Too many failed log-ins")  # even the right one, for now
    assert len(hashes) == 3  # refused without hashing: no CPU spent on them
    assert site.login("bob", "anything at all").status_code == 401  # another name is not blocked


def test_failed_log_ins_per_address(make_site, hashes):
    site = make_site(login_failures_per_account="100 per hour", login_failures_per_address="2 per minute")
    for name in ("ann", "ben"):
        assert site.login(name, "guess guess").status_code == 401
    _refused(site.login("cid", "guess guess"), "Too many failed log-ins from your address.")
    assert len(hashes) == 2


def test_successful_log_ins_do_not_count(make_site, engine):
    Builder(session_factory(engine)).user("alice")
    site = make_site(login_failures_per_account="2 per hour")
    for _ in range(3):
        assert site.login("alice").status_code == 302
        site.logout()


def test_sign_ups_per_address(make_site):
    site = make_site(signup_rate="2 per day")
    for name in ("ann", "ben"):
        site.signup(name)
        site.logout()
    response = site.post("/auth/signup", {"username": "cid", "password": PASSWORD, "confirm": PASSWORD},
                         page="/auth/signup")
    _refused(response, "Too many accounts were created from your address.")
    assert "text/html" in response.headers["Content-Type"]
    assert site.client.get("/auth/signup").status_code == 200  # the form itself still shows


def test_api_requests_per_token_answer_json(make_site, engine):
    with session_factory(engine)() as session:
        user = Builder(session_factory(engine)).user("alice")
        token = user_service.issue_api_token(session=session, user_id=user.id)
    site = make_site(api_rate="3 per minute")
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(3):
        assert site.client.get("/api/v1/me", headers=headers).status_code == 200
    response = site.client.get("/api/v1/me", headers=headers)
    assert response.status_code == 429
    body = response.get_json()
    assert body["status"] == 429 and "Too many API requests" in body["error"] and body["retry_after"] >= 1
    assert response.headers["Retry-After"] == str(body["retry_after"])


def test_the_token_limit_keys_on_the_parsed_token_and_covers_the_seats(make_site, engine):
    """`Bearer` plus spaces is the same token, so the same allowance (each request from another
    address, so only the per-token limit counts); the seats' endpoints have limits of the same kind."""
    with session_factory(engine)() as session:
        user = Builder(session_factory(engine)).user("alice")
        token = user_service.issue_api_token(session=session, user_id=user.id)
    site = make_site(api_rate="3 per minute", seat_rate="3 per minute")
    for number, header in enumerate((f"Bearer {token}", f"Bearer    {token}", f"bearer {token}  ")):
        assert site.client.get("/api/v1/me", headers={"Authorization": header},
                               environ_base={"REMOTE_ADDR": f"10.0.0.{number}"}).status_code == 200
    _refused(site.client.get("/api/v1/me", headers={"Authorization": f"Bearer\t {token}"},
                             environ_base={"REMOTE_ADDR": "10.0.0.9"}), "Too many API requests with this token")
    for number, header in enumerate((f"Bearer {token}", f"Bearer  {token}", f"BEARER {token} ")):
        assert site.client.get("/api/v1/seats/1/0/lines?wait=0", headers={"Authorization": header},
                               environ_base={"REMOTE_ADDR": f"10.0.1.{number}"}).status_code == 404  # not theirs
    seat = site.client.get("/api/v1/seats/1/0/lines?wait=0", headers={"Authorization": f"Bearer   {token}"},
                           environ_base={"REMOTE_ADDR": "10.0.1.9"})
    _refused(seat, "Too many seat requests with this token")
    assert seat.get_json()["retry_ms"] == seat.get_json()["retry_after"] * 1000
    # per address: a flood of seat GETs from one address no longer all get through
    site = make_site(seat_rate="5 per minute")
    codes = [site.client.get("/api/v1/seats/1/0/lines", environ_base={"REMOTE_ADDR": "10.0.2.2"}).status_code
             for _ in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3


def test_bogus_tokens_do_not_escape_the_per_address_limit(make_site):
    site = make_site(api_rate="3 per minute")
    for i in range(3):
        assert site.client.get("/api/v1/games", headers={"Authorization": f"Bearer ldr_{i}"}).status_code == 401
    assert site.client.get("/api/v1/games", headers={"Authorization": "Bearer ldr_new"}).status_code == 429


def test_uploads_per_day_and_challenges_in_flight_answer_429(make_site, engine, dispatched):
    build = Builder(session_factory(engine))
    site = make_site(uploads_per_day=2, challenges_in_flight=1)
    site.signup("alice")
    first = site.upload(GOOD_BOT, name="one")
    assert first.status_code == 302
    bot_id = int(first.headers["Location"].rsplit("/", 1)[1])
    assert site.upload(GOOD_BOT, name="two").status_code == 302
    _refused(site.upload(GOOD_BOT, name="three"), "You uploaded 2 versions in the last 24 hours")
    new_version = site.post(f"/bots/{bot_id}/versions", {"file": (io.BytesIO(GOOD_BOT), "main.py")},
                            page=f"/bots/{bot_id}", content_type="multipart/form-data")
    _refused(new_version, "You uploaded 2 versions")

    _, mine = build.bot("alice", "ready")  # an active bot (validation skipped)
    starters = build.starters()
    page = f"/bots/{mine.bot_id}"
    queued = site.post(f"/bots/{mine.bot_id}/challenge", {"opponents": starters[:1]}, page=page)
    assert queued.status_code == 302 and "/matches/" in queued.headers["Location"]
    _refused(site.post(f"/bots/{mine.bot_id}/challenge", {"opponents": starters[1:2]}, page=page),
             "You have 1 challenges queued or running")


def test_upload_limit_through_the_api(make_site, engine):
    with session_factory(engine)() as session:
        user = Builder(session_factory(engine)).user("alice")
        token = user_service.issue_api_token(session=session, user_id=user.id)
    site = make_site(uploads_per_day=1)
    headers = {"Authorization": f"Bearer {token}"}

    def upload(name):
        return site.client.post("/api/v1/bots", headers=headers, content_type="multipart/form-data",
                                data={"file": (io.BytesIO(GOOD_BOT), "main.py"), "name": name, "game": "treasure"})

    assert upload("one").status_code == 201
    response = upload("two")
    assert response.status_code == 429 and "You uploaded 1 versions" in response.get_json()["error"]


def test_redis_counts_are_shared_between_web_processes(make_site, engine, redis_url, hashes):  # noqa: F811
    """Two apps (two gunicorn processes, or two hosts) on one Redis count failures together."""
    Builder(session_factory(engine)).user("alice")
    limits = {"redis_url": redis_url, "login_failures_per_account": "4 per hour"}
    one, two = make_site(**limits), make_site(**limits)
    for site in (one, two, one, two):
        assert site.login("alice", "wrong guess here").status_code == 401
    _refused(one.login("alice", PASSWORD), "Too many failed log-ins")
    _refused(two.login("alice", PASSWORD), "Too many failed log-ins")
    assert len(hashes) == 4
    import redis

    assert any(key.startswith(b"LIMITS:") for key in redis.Redis.from_url(redis_url).scan_iter())


def test_redis_going_away_falls_back_to_counting_in_memory(make_site):
    """A Redis that does not answer must not turn log-ins into 500s, nor switch the limits off."""
    site = make_site(redis_url="redis://127.0.0.1:1/0", login_failures_per_account="2 per hour")
    assert [site.login("zed", "guess guess").status_code for _ in range(3)] == [401, 401, 429]


def test_per_address_limits_use_the_client_address_only_behind_a_trusted_proxy(make_site):
    def failures(site, forwarded_for):
        return [site.post("/auth/login", {"username": "x", "password": "y"},
                          headers={"X-Forwarded-For": forwarded_for}).status_code for _ in range(2)]

    # no proxy configured: the header is the client's own claim and changes nothing (no escape by spoofing)
    direct = make_site(login_failures_per_address="1 per hour")
    assert failures(direct, "10.0.0.1") == [401, 429]
    assert failures(direct, "10.0.0.2") == [429, 429]
    # one trusted proxy: each client behind it has its own allowance
    proxied = make_site(login_failures_per_address="1 per hour", trusted_proxies=1)
    assert failures(proxied, "10.0.0.1") == [401, 429]
    assert failures(proxied, "10.0.0.2") == [401, 429]
