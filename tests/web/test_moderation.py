"""The moderators' site: the audit log (admins only), the panels' actions on bot and user pages."""

from __future__ import annotations

import re

from sqlmodel import select
from web.helpers import PASSWORD

from ladder.db import session_factory
from ladder.models import User
from ladder.services.audit import Actor, record
from ladder.services.common import atomic
from ladder.services.tokens import create as create_token
from ladder.services.users import set_admin


def admin(site, build, engine, name="mod"):
    user = build.user(name)
    with session_factory(engine)() as session:
        set_admin(session=session, username=name)
    site.login(name)
    return user


def _log_something(engine, reason="because"):
    with session_factory(engine)() as session, atomic(session):
        record(session, Actor("cli:root"), "retire_bot", "bot", 1, reason, note="x")


def test_the_audit_log_is_for_admins_only_on_the_site_and_in_the_api(site, other_site, build, engine, client):
    _log_something(engine, reason="a <b>bad</b> name")
    build.user("visitor")
    other_site.login("visitor")
    assert other_site.client.get("/admin/log").status_code == 404
    assert client.get("/admin/log").status_code == 404  # logged out
    mod = admin(site, build, engine)
    html = site.text("/admin/log")
    assert "retire_bot" in html and "cli:root" in html and "a &lt;b&gt;bad&lt;/b&gt; name" in html
    with session_factory(engine)() as session:
        token = create_token(session=session, user_id=mod.id, name="t", scopes=["read"])[1]
        plain = create_token(session=session, user_id=build.user("visitor").id, name="t", scopes=["read"])[1]
    answer = client.get("/api/v1/admin/log", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    [entry] = answer.get_json()["entries"]
    assert (entry["action"], entry["actor"], entry["target_id"]) == ("retire_bot", "cli:root", 1)
    assert client.get("/api/v1/admin/log", headers={"Authorization": f"Bearer {plain}"}).status_code == 404
    assert client.get("/api/v1/admin/log").status_code == 401
    assert client.get("/api/v1/admin/log?limit=x", headers={"Authorization": f"Bearer {token}"}).status_code == 400


def _played(build, play, owner="nasty", name="FoulBot"):
    bot, version = build.bot(owner, name)
    match_id = build.match([version.id, *build.starters()[:1]])
    play(match_id)
    return bot, match_id


def test_a_bot_page_shows_the_panel_to_admins_and_a_rename_reaches_the_frames_and_the_download(
        site, other_site, build, engine, play, app):
    bot, match_id = _played(build, play)
    client = app.test_client()  # a visitor (`site` becomes the admin's browser)
    assert "FoulBot" in client.get(f"/matches/{match_id}/frames.json").get_data(as_text=True)
    build.user("visitor")
    other_site.login("visitor")
    assert "Moderate FoulBot" not in other_site.text(f"/bots/{bot.id}")
    assert other_site.post(f"/admin/bots/{bot.id}/hide-name", {"reason": "x"}, page="/").status_code == 404
    admin(site, build, engine)
    assert "Moderate FoulBot" in site.text(f"/bots/{bot.id}")
    refused = site.post(f"/admin/bots/{bot.id}/hide-name", {"reason": ""}, page="/", follow_redirects=True)
    assert "give a reason" in refused.get_data(as_text=True)
    hidden = site.post(f"/admin/bots/{bot.id}/hide-name", {"reason": "slur"}, page="/", follow_redirects=True)
    assert hidden.status_code == 200 and f"hidden-{bot.id}" in hidden.get_data(as_text=True)
    for url in (f"/matches/{match_id}/frames.json", f"/matches/{match_id}/frames.json?view=all",
                f"/matches/{match_id}/replay.json", f"/matches/{match_id}", f"/api/v1/matches/{match_id}/replay",
                f"/bots/{bot.id}", "/users/nasty"):
        text = client.get(url).get_data(as_text=True)
        assert "FoulBot" not in text, url
    assert f"hidden-{bot.id}" in client.get(f"/matches/{match_id}/frames.json").get_data(as_text=True)
    disabled = site.post(f"/admin/bots/{bot.id}/state", {"action": "disable", "reason": "spam"}, page="/")
    assert disabled.status_code == 302
    assert re.findall(r"<td>(hide_bot_name|disable_bot)</td>", site.text("/admin/log")) == [
        "disable_bot", "hide_bot_name"]  # newest first


def test_a_hidden_replay_is_for_admins_only_and_a_voided_match_says_why(site, build, engine, play, app):
    _bot, match_id = _played(build, play)
    admin(site, build, engine)
    client = app.test_client()  # a visitor (`site` is the admin's browser)
    site.post(f"/admin/matches/{match_id}/replay", {"action": "hide", "reason": "r"}, page="/")
    assert client.get(f"/matches/{match_id}/frames.json").status_code == 404
    assert client.get(f"/matches/{match_id}/replay.json").status_code == 404
    assert "taken out of public view" in client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert site.client.get(f"/matches/{match_id}/frames.json").status_code == 200  # the admin still sees it
    site.post(f"/admin/matches/{match_id}/void", {"reason": "collusion"}, page="/")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "voided by a moderator" in page and "collusion" in page
    assert "voided</span>" in client.get("/matches/").get_data(as_text=True)


def test_a_suspended_user_is_told_why_at_log_in_and_a_ban_refuses_their_address(site, other_site, build, engine):
    other_site.signup("cheater")
    mod = admin(site, build, engine)
    with session_factory(engine)() as session:
        cheater = session.exec(select(User).where(User.username == "cheater")).one()
    assert mod.id != cheater.id
    until = "2099-01-01T00:00"
    site.post(f"/admin/users/{cheater.id}/suspend", {"reason": "sock puppets", "until": until}, page="/")
    assert other_site.client.get("/account/").status_code == 302  # the log-in ended: to the log-in page
    refused = other_site.login("cheater")
    assert refused.status_code == 403
    text = refused.get_data(as_text=True)
    assert "suspended until 2099-01-01 00:00 UTC" in text and "sock puppets" in text
    site.post(f"/admin/users/{cheater.id}/suspend", {"reason": "ban evasion", "ban": "y"}, page="/")
    again = other_site.post("/auth/signup", {"username": "cheater2", "password": PASSWORD, "confirm": PASSWORD},
                            page="/auth/signup")
    assert again.status_code == 400 and "sign-ups from this address are refused for good" in again.get_data(
        as_text=True)
    with session_factory(engine)() as session:
        assert session.exec(select(User).where(User.username == "cheater2")).first() is None
    bad_until = site.post(f"/admin/users/{cheater.id}/suspend", {"reason": "x", "until": "soon"}, page="/",
                          follow_redirects=True)
    assert "a date and time" in bad_until.get_data(as_text=True)


def test_the_deny_list_refuses_a_sign_up_and_an_upload_with_the_reason(site):
    refused = site.post("/auth/signup", {"username": "nazi-admin", "password": PASSWORD, "confirm": PASSWORD},
                        page="/auth/signup")
    assert refused.status_code == 400 and "deny list" in refused.get_data(as_text=True)
    site.signup("honest")
    upload = site.upload(b"print('hi')\n", name="FuckTheAdmins-NaziBot")
    assert upload.status_code == 400 and "deny list" in upload.get_data(as_text=True)
