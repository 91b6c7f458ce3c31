"""A bot's data on its page and in the API: its owner downloads, replaces and resets it; anyone
else gets 404 from every route; a bad zip is refused with a clear message and writes nothing."""

from __future__ import annotations

import html
import io
from dataclasses import replace

import pytest
from web.helpers import FakeRunner, make_zip

from ladder.bot.data import Collected, read_zip
from ladder.db import session_factory
from ladder.services import botdata, users
from ladder.services import bots as bot_service
from ladder.storage import open_store
from workers.queue.jobs import play_match

GOOD = make_zip({"model.json": b'{"w": 1}', "runs/1.txt": b"x"})
BAD = [
    (b"not a zip at all", "not a zip"),
    (make_zip({"../../etc/cron.d/x": b"1"}), "'..'"),
    (make_zip({"a": b"1"}, links={"link": "/etc/passwd"}), "not a regular file"),
    (make_zip({f"f{i}": b"" for i in range(1001)}), "over the cap"),
]


@pytest.fixture
def owned(site, build):
    """alice's bot, with alice logged in on `site`."""
    bot, _ = build.bot("alice", "learner")
    site.login("alice")
    return bot


def _token(build, sessions, username: str) -> dict[str, str]:
    user = build.user(username)
    with sessions() as session:
        return {"Authorization": f"Bearer {users.issue_api_token(session=session, user_id=user.id)}"}


def _version(engine, bot, settings) -> tuple[int, dict[str, bytes]]:
    """The bot's latest data, read as the web reads it (its zip in the settings' store)."""
    with session_factory(engine)() as session:
        version, data = botdata.download(session=session, bot_id=bot.id, user_id=bot.owner_id,
                                         store=open_store(settings))
        return version, read_zip(data, botdata.STORED)


def test_the_owner_replaces_downloads_and_resets_on_the_bot_page(site, owned, engine, settings):
    page = site.text(f"/bots/{owned.id}")
    assert "Bot data" in page and "/botdata" in page and "Version 0" in page
    response = site.post(f"/bots/{owned.id}/data", {"file": (io.BytesIO(GOOD), "data.zip")},
                         page=f"/bots/{owned.id}", content_type="multipart/form-data", follow_redirects=True)
    assert "now version 1" in response.get_data(as_text=True)
    download = site.client.get(f"/bots/{owned.id}/data")
    assert download.status_code == 200 and download.mimetype == "application/zip"
    assert download.headers["X-Bot-Data-Version"] == "1"
    assert read_zip(download.data, botdata.STORED) == {"model.json": b'{"w": 1}', "runs/1.txt": b"x"}
    response = site.post(f"/bots/{owned.id}/data/reset", page=f"/bots/{owned.id}", follow_redirects=True)
    assert "empty now (version 2)" in response.get_data(as_text=True)
    assert _version(engine, owned, settings) == (2, {})


@pytest.mark.parametrize("data, why", BAD)
def test_a_bad_zip_on_the_page_says_why_and_writes_nothing(site, owned, engine, data, why, settings):
    response = site.post(f"/bots/{owned.id}/data", {"file": (io.BytesIO(data), "data.zip")},
                         page=f"/bots/{owned.id}", content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200 and why in html.unescape(response.get_data(as_text=True))
    assert _version(engine, owned, settings) == (0, {})


def test_nobody_else_sees_or_touches_the_data(site, other_site, owned, build, engine, settings):
    site.post(f"/bots/{owned.id}/data", {"file": (io.BytesIO(GOOD), "data.zip")}, page=f"/bots/{owned.id}",
              content_type="multipart/form-data")
    build.user("mallory")
    other_site.login("mallory")
    anonymous = type(site)(site.client.application.test_client())
    for visitor in (other_site, anonymous):
        assert "Bot data" not in visitor.text(f"/bots/{owned.id}")
        assert visitor.client.get(f"/bots/{owned.id}/data").status_code == 404
    assert other_site.post(f"/bots/{owned.id}/data", {"file": (io.BytesIO(make_zip({})), "x.zip")},
                           page="/", content_type="multipart/form-data").status_code == 404
    assert other_site.post(f"/bots/{owned.id}/data/reset", page="/").status_code == 404
    assert _version(engine, owned, settings)[0] == 1


def test_a_refused_match_leaves_a_note_only_the_owner_sees(site, other_site, owned, build, engine, settings):
    class OverTheCap(FakeRunner):
        def __call__(self, plan, env):
            result = super().__call__(plan, env)
            return replace(result, data=(Collected(refused="22.0 MiB of files, over the cap of 20.0 MiB and 1,000 "
                                                           "files"), None))

    with session_factory(engine)() as session:
        version = bot_service.active_version(session=session, bot_id=owned.id)
    match_id = build.match([version.id, *build.starters()[:1]])
    assert play_match(match_id, sessions=session_factory(engine), settings=settings, worker_id="w",
                      runner=OverTheCap()).status == "finished"
    page = site.text(f"/bots/{owned.id}")
    assert f"match {match_id}: nothing kept: 22.0 MiB of files, over the cap" in page
    build.user("mallory")
    other_site.login("mallory")
    assert "over the cap" not in other_site.text(f"/bots/{owned.id}")


def test_the_api_gives_the_owner_the_data_and_everyone_else_404(client, owned, build, sessions, engine, settings):
    mine, theirs = _token(build, sessions, "alice"), _token(build, sessions, "mallory")
    url = f"/api/v1/bots/{owned.id}/data"
    put = client.put(url, data=GOOD, headers={**mine, "Content-Type": "application/zip"})
    assert put.status_code == 200, put.get_json()
    assert put.get_json() | {"note_at": None} == {"bot_id": owned.id, "version": 1, "size": 9, "files": 2,
                                                    "note": None, "note_at": None,
                                                    "cap": {"bytes": 20 << 20, "files": 1000}}
    got = client.get(url, headers=mine)
    assert got.status_code == 200 and read_zip(got.data, botdata.STORED)["model.json"] == b'{"w": 1}'
    for headers in (theirs,):
        assert client.get(url, headers=headers).status_code == 404
        assert client.put(url, data=make_zip({}), headers=headers).status_code == 404
        assert client.delete(url, headers=headers).status_code == 404
    assert client.get(url).status_code == 401 and client.delete(url).status_code == 401
    assert client.get(f"/api/v1/bots/{owned.id + 999}/data", headers=mine).status_code == 404
    assert client.delete(url, headers=mine).get_json()["version"] == 2
    assert _version(engine, owned, settings) == (2, {})


@pytest.mark.parametrize("data, why", [*BAD, (b"", "send the folder as a zip")])
def test_a_bad_zip_through_the_api_is_a_400_and_writes_nothing(client, owned, build, sessions, engine, data, why,
                                                                settings):
    response = client.put(f"/api/v1/bots/{owned.id}/data", data=data,
                          headers={**_token(build, sessions, "alice"), "Content-Type": "application/zip"})
    assert response.status_code == 400 and why in response.get_json()["error"]
    assert _version(engine, owned, settings) == (0, {})
