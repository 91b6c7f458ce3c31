"""Sessions that end on the server, remember-me cookies that rotate, the password change page,
named and scoped API tokens, and no caching of pages that show secrets."""

from __future__ import annotations

import re

import pytest
from web.helpers import PASSWORD

from ladder import create_app
from ladder.config import Settings

NEW_PASSWORD = "quiet lantern orbit"


def _cookie(client, name: str) -> str | None:
    cookie = client.get_cookie(name)
    return cookie.value if cookie is not None else None


def _copy_cookies(source, target, *names: str) -> None:
    for name in names:
        value = _cookie(source, name)
        if value is not None:
            target.set_cookie(name, value)


def test_a_session_cookie_copied_before_logout_stops_working_after_it(site, app):
    site.signup("alice")
    thief = app.test_client()
    _copy_cookies(site.client, thief, "session")
    assert thief.get("/bots/upload").status_code == 200  # the copy works while the log-in lives
    site.logout()
    assert thief.get("/bots/upload").status_code == 302  # ended on the server: the copy is worthless
    assert site.client.get("/bots/upload").status_code == 302


def test_remember_me_cookie_is_lax_rotates_and_dies_with_logout(site, app):
    site.signup("alice")
    site.logout()
    response = site.post("/auth/login", {"username": "alice", "password": PASSWORD, "remember": "y"})
    header = next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("remember_token="))
    assert "SameSite=Lax" in header and "HttpOnly" in header
    first = _cookie(site.client, "remember_token")
    site.logout()
    site.post("/auth/login", {"username": "alice", "password": PASSWORD, "remember": "y"})
    second = _cookie(site.client, "remember_token")
    assert first != second  # a new value at every log-in

    # a browser coming back with only the remember-me cookie is let in, and gets a new one
    returning = app.test_client()
    returning.set_cookie("remember_token", second)
    assert returning.get("/bots/upload").status_code == 200
    third = _cookie(returning, "remember_token")
    assert third and third != second
    stale = app.test_client()
    stale.set_cookie("remember_token", second)  # the copy from before the rotation
    assert stale.get("/bots/upload").status_code == 302

    # log-out ends it: a copy of the current cookie no longer logs in
    thief = app.test_client()
    thief.set_cookie("remember_token", third)
    returning.post("/auth/logout", data={"csrf_token": _csrf(returning, "/")})
    assert _cookie(returning, "remember_token") is None  # deleted in the browser too
    assert thief.get("/bots/upload").status_code == 302


def _csrf(client, page: str) -> str:
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', client.get(page).get_data(as_text=True)
                     ).group(1)


def test_password_change_refuses_weak_ones_and_ends_other_log_ins(site, other_site):
    site.signup("alice")
    other_site.login("alice")
    assert other_site.client.get("/bots/upload").status_code == 200
    wrong = site.post("/account/password", {"current": "nope nope nope", "password": NEW_PASSWORD,
                                            "confirm": NEW_PASSWORD}, page="/account/")
    assert wrong.status_code == 400 and "the current password is wrong" in wrong.get_data(as_text=True)
    weak = site.post("/account/password", {"current": PASSWORD, "password": "password1",
                                           "confirm": "password1"}, page="/account/")
    assert weak.status_code == 400 and "too easy to guess" in weak.get_data(as_text=True)
    assert other_site.client.get("/bots/upload").status_code == 200  # refusals change nothing
    ok = site.post("/account/password", {"current": PASSWORD, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD},
                   page="/account/")
    assert ok.status_code == 302
    assert site.client.get("/bots/upload").status_code == 200  # this browser got a fresh log-in
    assert other_site.client.get("/bots/upload").status_code == 302  # the other one is logged out
    assert other_site.login("alice").status_code == 401
    assert other_site.login("alice", NEW_PASSWORD).status_code == 302


def test_log_out_everywhere(site, other_site):
    site.signup("alice")
    other_site.login("alice")
    site.post("/account/logout-everywhere", page="/account/")
    assert site.client.get("/bots/upload").status_code == 302
    assert other_site.client.get("/bots/upload").status_code == 302


def _new_token(site, name: str) -> str:
    page = site.post("/account/tokens", {"name": name, "scopes": ["read", "play"]}, page="/account/")
    return re.search(r'id="api-token">([^<]+)<', page.get_data(as_text=True)).group(1)


@pytest.mark.parametrize("how", ["log out everywhere", "password change"])
def test_log_out_everywhere_and_a_new_password_revoke_the_api_tokens(site, client, how):
    """Whoever held the account (or its old password) may have made a token: both ends revoke
    them all, and the account page says so beforehand."""
    site.signup("alice")
    token = _new_token(site, "laptop")
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/me", headers=headers).status_code == 200
    page = site.text("/account/")
    assert "revokes all your API tokens" in page and "also revokes all your API tokens" in page
    if how == "password change":
        done = site.post("/account/password", {"current": PASSWORD, "password": NEW_PASSWORD,
                                               "confirm": NEW_PASSWORD}, page="/account/")
    else:
        done = site.post("/account/logout-everywhere", page="/account/")
    assert done.status_code == 302
    assert client.get("/api/v1/me", headers=headers).status_code == 401
    assert client.get("/api/v1/seats/1/0/lines", headers=headers).status_code == 401  # the seats too


def test_tokens_are_named_scoped_revocable_and_show_their_last_use(site, client):
    site.signup("alice")
    page = site.post("/account/tokens", {"name": "laptop", "scopes": ["read"]}, page="/account/")
    assert page.headers["Cache-Control"] == "private, no-store"  # the page that shows the token is never cached
    reader = re.search(r'id="api-token">([^<]+)<', page.get_data(as_text=True)).group(1)
    page = site.post("/account/tokens", {"name": "ci", "scopes": ["upload"]}, page="/account/")
    uploader = re.search(r'id="api-token">([^<]+)<', page.get_data(as_text=True)).group(1)
    listing = site.text("/account/")
    assert reader not in listing and uploader not in listing  # shown once
    assert "laptop" in listing and "ci" in listing and listing.count("never") == 2

    def auth(token):
        return {"Authorization": f"Bearer {token}"}

    assert client.get("/api/v1/me", headers=auth(reader)).status_code == 200
    refused = client.post("/api/v1/bots", headers=auth(reader), data={"name": "x", "game": "treasure"})
    assert refused.status_code == 403 and "'upload' scope" in refused.get_json()["error"]
    assert client.get("/api/v1/me", headers=auth(uploader)).status_code == 403
    assert "just now" in site.text("/account/")  # last use recorded

    duplicate = site.post("/account/tokens", {"name": "laptop", "scopes": ["read"]}, page="/account/")
    assert duplicate.status_code == 400 and "already have a token named" in duplicate.get_data(as_text=True)
    no_scope = site.post("/account/tokens", {"name": "empty"}, page="/account/")
    assert no_scope.status_code == 400

    token_id = re.search(r'/account/tokens/(\d+)/revoke', site.text("/account/")).group(1)
    site.post(f"/account/tokens/{token_id}/revoke", page="/account/")
    assert client.get("/api/v1/me", headers=auth(reader)).status_code == 401
    assert "<td>laptop</td>" not in site.text("/account/") and "<td>ci</td>" in site.text("/account/")


def test_someone_elses_token_cannot_be_revoked(site, other_site):
    site.signup("alice")
    site.post("/account/tokens", {"name": "mine", "scopes": ["read"]}, page="/account/")
    token_id = re.search(r'/account/tokens/(\d+)/revoke', site.text("/account/")).group(1)
    other_site.signup("mallory")
    assert other_site.post(f"/account/tokens/{token_id}/revoke", page="/account/").status_code == 404
    assert "mine" in site.text("/account/")


def test_account_pages_need_a_log_in_and_are_not_cached(site, client):
    assert client.get("/account/").status_code == 302
    site.signup("alice")
    response = site.client.get("/account/")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-store"


def test_secure_cookies_follow_the_setting_and_production(engine, tmp_path):
    def cookies(**kw):
        app = create_app({"settings": Settings(instance_dir=tmp_path, **kw), "LADDER_ENGINE": engine})
        return app.config["SESSION_COOKIE_SECURE"], app.config["REMEMBER_COOKIE_SECURE"]

    assert cookies(env="test") == (False, False)
    assert cookies(env="test", secure_cookies=True) == (True, True)
    production = {"secret_key": "pVs2UrwNOc6DoD6aNxVUk7Gq_Rt5bq2Ws9LhXe3Jm", "database_url": "postgresql://db/x",
                  "redis_url": "redis://redis:6379/0",
                  "store": "s3://ladder/blobs"}  # a random key, the services and the store: production's needs
    assert cookies(env="production", **production) == (True, True)
    assert cookies(env="production", secure_cookies=False, **production) == (False, False)


def test_the_account_page_and_the_api_guide_explain_every_scope(site):
    # the play scope was missing from the account page's text and from docs/api.md's scope table
    from pathlib import Path

    from ladder.services.tokens import ALL_SCOPES

    site.signup("alice")
    page = site.text("/account/")
    guide = (Path(__file__).parents[2] / "docs" / "api.md").read_text()
    for scope in ALL_SCOPES:
        assert f"<strong>{scope}</strong>" in page.split("A token lets scripts", 1)[1].split("</p>", 1)[0]
        assert f"\n| `{scope}` | " in guide
