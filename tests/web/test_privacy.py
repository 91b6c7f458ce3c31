"""Every answer that only its owner may see is `Cache-Control: private, no-store` (ladder/web/privacy.py):
a walk over the owner-only routes (a seat's log, the bot page, the match page with the owner's
stderr, the bot's data, the play pages, the account page, the API's own answers), and the public
pages an anonymous visitor gets left as they were."""

from __future__ import annotations

from web.helpers import Builder

from ladder.db import session_factory
from ladder.services import users as user_service


def test_the_owner_only_routes_are_private_and_not_stored(site, build, play, engine, client):
    site.signup("alice")
    bot, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    owner_only = [f"/matches/{match_id}/seats/0/log", f"/matches/{match_id}", f"/bots/{bot.id}",
                  f"/bots/{bot.id}/data", "/play/treasure", "/account/", "/"]
    for path in owner_only:
        answer = site.client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "private, no-store", path
        assert "Cookie" in answer.headers.get("Vary", ""), path
    assert "only you see this" in site.text(f"/matches/{match_id}")  # the stderr that made it private
    with session_factory(engine)() as session:
        token = user_service.issue_api_token(session=session, user_id=Builder(session_factory(engine)).user("bob").id)
    api = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 200 and api.headers["Cache-Control"] == "private, no-store"
    visitor = site.client.application.test_client()
    for path in (f"/matches/{match_id}", f"/bots/{bot.id}", "/"):  # nobody in particular: nothing private
        assert "private" not in visitor.get(path).headers.get("Cache-Control", ""), path
