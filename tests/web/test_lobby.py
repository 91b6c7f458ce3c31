"""The open ladder's lobby on the web: opting in (API and the bot's page), waiting, and hostile input:
a clear error, nothing written, never a 500; another user's bot is a 404."""

from __future__ import annotations

import pytest
from web.helpers import PASSWORD

from ladder.config import Settings
from ladder.models import Bot, LobbyEntry
from ladder.services import tokens


@pytest.fixture
def settings(tmp_path) -> Settings:
    """One bot of a user in the lobby at once, so the limit is reached."""
    return Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict", remote_seats_per_user=1)


@pytest.fixture
def ann(build, app):
    user = build.user("ann")
    with build.sessions() as session:
        play = tokens.create(session=session, user_id=user.id, name="home", scopes=["play"])[1]
        read = tokens.create(session=session, user_id=user.id, name="read", scopes=["read"])[1]
    return {"id": user.id, "play": play, "read": read}


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def opt_in(client, token, game="treasure", bot="homebot", open_=True):
    return client.post("/api/v1/remote/open-ladder", json={"game": game, "bot": bot, "open": open_},
                       headers=auth(token))


def row(build, model, key):
    with build.sessions() as session:
        return session.get(model, key)


def test_a_client_opts_in_waits_and_leaves(client, ann, build):
    response = opt_in(client, ann["play"])
    assert response.status_code == 200, response.get_json()
    bot = response.get_json()["bot"]
    assert bot["remote"] and bot["open_ladder"] and bot["game"] == "treasure"
    waiting = client.post(f"/api/v1/lobby/{bot['id']}", headers=auth(ann["play"]))
    assert waiting.status_code == 200 and waiting.get_json()["status"] == "waiting"
    assert "1 bot waiting in the lobby" in client.get("/leaderboard/treasure/open").get_data(as_text=True)
    assert row(build, LobbyEntry, bot["id"]).waiting
    assert client.delete(f"/api/v1/lobby/{bot['id']}", headers=auth(ann["play"])).status_code == 204
    assert not row(build, LobbyEntry, bot["id"]).waiting
    off = client.post(f"/api/v1/bots/{bot['id']}/open-ladder", json={"open": False}, headers=auth(ann["play"]))
    assert off.status_code == 200 and not off.get_json()["bot"]["open_ladder"]
    refused = client.post(f"/api/v1/lobby/{bot['id']}", headers=auth(ann["play"]))
    assert refused.status_code == 409 and "opt it in" in refused.get_json()["error"]


def test_hostile_input_is_refused_and_writes_nothing(client, ann, build):
    bot_id = opt_in(client, ann["play"], open_=False).get_json()["bot"]["id"]
    play = auth(ann["play"])
    for body in (None, [], {"open": "yes"}, {"open": 1}, {"open": None}, {}):
        response = client.post(f"/api/v1/bots/{bot_id}/open-ladder", json=body, headers=play)
        assert response.status_code == 400, (body, response.get_json())
    for body in ({"game": "chess", "bot": "x", "open": True}, {"game": "treasure", "bot": "bad name!", "open": True},
                 {"game": "treasure", "bot": "a\x00b", "open": True}, {"game": "treasure", "bot": 7, "open": True},
                 {"game": ["treasure"], "bot": "x", "open": True}):
        response = opt_in(client, ann["play"], game=body["game"], bot=body["bot"])
        assert response.status_code in (400, 404), (body, response.get_json())
    assert not row(build, Bot, bot_id).open_ladder
    for query in ("?wait=x", "?wait=-1", "?wait=26", "?wait=" + "9" * 40, "?wait=1&wait=2", "?after=3"):
        response = client.post(f"/api/v1/lobby/{bot_id}{query}", headers=play)
        assert response.status_code == 400, (query, response.get_json())
    assert client.post("/api/v1/lobby/99999999999999", headers=play).status_code == 404
    assert client.post(f"/api/v1/lobby/{bot_id}", headers=auth(ann["read"])).status_code == 403
    assert client.post(f"/api/v1/lobby/{bot_id}").status_code == 401
    assert client.post(f"/api/v1/bots/{bot_id}/open-ladder", json={"open": True},
                       headers=auth(ann["read"])).status_code == 403
    assert row(build, LobbyEntry, bot_id) is None


def test_another_users_bot_is_a_404_and_a_sandboxed_bot_never_opts_in(client, ann, build):
    bot_id = opt_in(client, ann["play"]).get_json()["bot"]["id"]
    bob = build.user("bob")
    with build.sessions() as session:
        bob_play = tokens.create(session=session, user_id=bob.id, name="home", scopes=["play"])[1]
    assert client.post(f"/api/v1/bots/{bot_id}/open-ladder", json={"open": False},
                       headers=auth(bob_play)).status_code == 404
    assert client.post(f"/api/v1/lobby/{bot_id}", headers=auth(bob_play)).status_code == 404
    assert client.delete(f"/api/v1/lobby/{bot_id}", headers=auth(bob_play)).status_code == 404
    assert row(build, Bot, bot_id).open_ladder and row(build, LobbyEntry, bot_id) is None
    sandboxed, _ = build.bot("bob", "boxed")
    response = client.post(f"/api/v1/bots/{sandboxed.id}/open-ladder", json={"open": True}, headers=auth(bob_play))
    assert response.status_code == 400 and "sandboxed" in response.get_json()["error"]
    assert opt_in(client, bob_play, bot="boxed").status_code == 400  # by name: still a sandboxed bot
    assert not row(build, Bot, sandboxed.id).open_ladder


def test_a_held_wait_ends_within_its_time_and_the_limits_hold(client, ann, build):
    first = opt_in(client, ann["play"], bot="one").get_json()["bot"]["id"]
    second = opt_in(client, ann["play"], bot="two").get_json()["bot"]["id"]
    assert client.post(f"/api/v1/lobby/{first}?wait=1", headers=auth(ann["play"])).get_json()["status"] == "waiting"
    response = client.post(f"/api/v1/lobby/{second}", headers=auth(ann["play"]))
    assert response.status_code == 429 and "lobby" in response.get_json()["error"]
    assert row(build, LobbyEntry, second) is None


def test_the_owner_switches_the_open_ladder_on_the_bots_page(site, other_site, ann, build, client):
    bot_id = opt_in(client, ann["play"], open_=False).get_json()["bot"]["id"]
    site.login("ann", PASSWORD)
    page = site.text(f"/bots/{bot_id}")
    assert "Join the open ladder" in page
    response = site.post(f"/bots/{bot_id}/open-ladder", {"open": "1"}, page=f"/bots/{bot_id}")
    assert response.status_code == 302 and row(build, Bot, bot_id).open_ladder
    assert "Leave the open ladder" in site.text(f"/bots/{bot_id}")
    assert site.post(f"/bots/{bot_id}/open-ladder", {"open": "maybe"}, page=f"/bots/{bot_id}").status_code == 400
    build.user("bob")
    other_site.login("bob", PASSWORD)
    assert "the open ladder</button>" not in other_site.text(f"/bots/{bot_id}")
    refused = other_site.post(f"/bots/{bot_id}/open-ladder", {"open": "0"}, page="/")
    assert refused.status_code == 404 and row(build, Bot, bot_id).open_ladder


def test_a_remote_bots_page_says_it_runs_at_home_and_how_to_connect_it(site, ann, client):
    # a remote Go bot's page showed "python or node · 0" bytes, an upload form and a bot data
    # folder it does not have, and its open-ladder card suggested `ladder connect homebot.py`
    # without --token or --url
    bot_id = opt_in(client, ann["play"]).get_json()["bot"]["id"]
    site.login("ann", PASSWORD)
    page = site.text(f"/bots/{bot_id}")
    assert "python or node" not in page and "Upload a new version" not in page and 'id="bot-data"' not in page
    assert "the ladder holds none of its code" in page and "ladder connect" in page
    # nor a challenge form the site would refuse ("challenge with `ladder connect`")
    assert "Queue the challenge" not in page and "its challenges start there too" in page
    command = page.split('<pre class="command"><code>', 1)[1].split("</code>", 1)[0]
    assert "--name homebot --game treasure --open" in command
    assert "--token ldr_..." in command and "--url http://localhost" in command and ".py" not in command
    upload = site.text("/bots/1")  # a sandboxed bot's page (a house bot, not ann's) keeps its versions
    assert "<h2>Versions</h2>" in upload
