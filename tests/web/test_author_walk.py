"""The small things a new author met: the upload hint names every runtime's entry point; a file far
over the limit brings the upload form back with the reason (not a bare 413 page); the same file
uploaded again is not a new version; a bot with no active version shows no challenge form; a
waiting match page reloads itself."""

from __future__ import annotations

import io

from sqlmodel import select
from web.helpers import GOOD_BOT

from ladder.bot.runtimes import RUNTIMES
from ladder.models import Bot, BotVersion
from ladder.services import users


def _versions(sessions, name: str) -> list[BotVersion]:
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.name == name)).one()
        return list(session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)))


def test_the_upload_hint_names_every_entry_point(site):
    site.signup("alice")
    html = site.text("/bots/upload")
    hint = html.split('<label for="file">', 1)[1].split("</small>", 1)[0]
    for runtime in RUNTIMES:
        assert runtime.entry in hint, runtime.entry
    assert 'data-max-bytes="65536"' in html  # the page's script refuses a larger file before sending it


def test_a_body_far_over_the_limit_brings_the_form_back_with_the_reason(site):
    site.signup("alice")
    huge = b"#" * (64 * 1024 + (300 << 10))  # past MAX_CONTENT_LENGTH: refused unread
    response = site.post("/bots/upload", {"file": (io.BytesIO(huge), "main.py"), "name": "big", "game": "treasure"},
                         page="/bots/upload", content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 413
    assert "<h1>Upload a bot</h1>" in html and 'type="file"' in html  # the form, not an error page
    assert "at most 65536 bytes" in html and "Choose a smaller file" in html


def test_the_same_file_again_is_not_a_new_version(site, client, build, sessions, dispatched):
    site.signup("alice")
    assert site.upload(GOOD_BOT, name="twice").status_code == 302
    again = site.upload(GOOD_BOT, name="twice")
    assert again.status_code == 302
    page = site.client.get(again.headers["Location"]).get_data(as_text=True)
    assert "identical to version 1" in page and "nothing new was stored" in page
    assert len(_versions(sessions, "twice")) == 1 and len(dispatched) == 1
    with sessions() as session:
        user = session.exec(select(users.User).where(users.User.username == "alice")).one()
        token = users.issue_api_token(session=session, user_id=user.id)
    answer = client.post("/api/v1/bots", data={"name": "twice", "game": "treasure", "file": (io.BytesIO(GOOD_BOT),
                         "main.py")}, headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data")
    assert answer.status_code == 200 and answer.get_json()["version"]["number"] == 1
    assert "identical" in answer.get_json()["note"] and len(_versions(sessions, "twice")) == 1
    changed = site.upload(GOOD_BOT + b"\n# changed\n", name="twice")
    assert changed.status_code == 302 and len(_versions(sessions, "twice")) == 2


def test_no_challenge_form_without_an_active_version(site, sessions):
    site.signup("alice")
    site.upload(GOOD_BOT, name="fresh")  # validating: not active yet
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.name == "fresh")).one()
    html = site.text(f"/bots/{bot.id}")
    assert "Queue the challenge" not in html and "has no active version yet" in html


def test_a_waiting_match_page_reloads_itself(site, build, play):
    _, version = build.bot("alice", "alpha")
    match_id = build.match([version.id, *build.starters()[:2]])
    html = site.text(f"/matches/{match_id}")
    assert '<meta http-equiv="refresh" content="10">' in html and "reloads itself" in html
    play(match_id)
    assert 'http-equiv="refresh"' not in site.text(f"/matches/{match_id}")
