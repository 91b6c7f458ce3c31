"""The moderators' site: the audit log (admins only), the panels' actions on bot and user pages."""

from __future__ import annotations

from ladder.db import session_factory
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
