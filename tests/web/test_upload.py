"""The upload form: a good bot is stored and its validation game queued; every broken upload is
refused with a message that says what to fix; the validation result and logs reach the owner."""

from __future__ import annotations

import io
import re

import pytest
from markupsafe import escape
from sqlmodel import select
from web.helpers import GOOD_BOT, make_zip

from ladder.models import Bot, BotVersion, Match, MatchKind, VersionStatus


def _versions(sessions, owner_bot_name: str) -> list[BotVersion]:
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.name == owner_bot_name)).first()
        if bot is None:
            return []
        return list(session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)))


def test_upload_stores_the_version_and_queues_its_validation_game(site, sessions, dispatched):
    site.signup("alice")
    response = site.upload(GOOD_BOT, "careful.py", name="carefulbot", description="stops early")
    assert response.status_code == 302
    page = site.client.get(response.headers["Location"])
    html = page.get_data(as_text=True)
    assert "validation game" in html and "is queued" in html
    [version] = _versions(sessions, "carefulbot")
    assert version.status == VersionStatus.VALIDATING
    with sessions() as session:
        match = session.get(Match, version.validation_match_id)
    assert match.kind == MatchKind.VALIDATION and not match.ranked
    assert dispatched == [match.id]  # handed to the workers after the commit


def test_a_zip_with_main_py_at_the_root_is_accepted(site, sessions):
    site.signup("alice")
    response = site.upload(make_zip({"main.py": GOOD_BOT, "lib/helpers.py": b"X = 1\n"}), "bot.zip", name="zipped")
    assert response.status_code == 302
    [version] = _versions(sessions, "zipped")
    assert version.filename == "bot.zip" and version.status == VersionStatus.VALIDATING


BROKEN = {
    "too big": (b"#" * (64 * 1024 + 1), "main.py", "treasure", "a bot may have at most 65536 bytes"),
    "not a zip": (b"this is not a zip archive", "bot.zip", "treasure", "not a valid zip archive"),
    "symlink": (make_zip({"main.py": GOOD_BOT}, links={"secrets": "/etc/shadow"}), "bot.zip", "treasure",
                "is a symbolic link"),
    "dotdot path": (make_zip({"main.py": GOOD_BOT, "../escape.py": b"x"}), "bot.zip", "treasure",
                    "climbs out of the bot's directory"),
    "no main.py": (make_zip({"bot/main.py": GOOD_BOT}), "bot.zip", "treasure", "found bot/main.py"),
    "wrong game": (GOOD_BOT, "main.py", "chess", "unknown game"),
    "wrong file type": (b"MZ\x90\x00", "bot.exe", "treasure", "a bot is one .py file, or a .zip"),
    "empty": (b"", "main.py", "treasure", "main.py is empty"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_uploads_are_refused_with_a_clear_reason(site, sessions, dispatched, case):
    code, filename, game, reason = BROKEN[case]
    site.signup("alice")
    response = site.upload(code, filename, name="broken", game=game)
    assert response.status_code == 400
    assert str(escape(reason)) in response.get_data(as_text=True)  # the page shows it, escaped
    assert _versions(sessions, "broken") == []  # a refused first upload creates no bot
    assert dispatched == []


def test_a_broken_new_version_is_kept_as_rejected_with_its_reason(site, sessions):
    site.signup("alice")
    bot_url = site.upload(GOOD_BOT, name="evolving").headers["Location"]
    bad = make_zip({"README": b"no entry point"})
    response = site.post(f"{bot_url}/versions", {"file": (io.BytesIO(bad), "v2.zip")},
                         page=bot_url, content_type="multipart/form-data", follow_redirects=True)
    html = response.get_data(as_text=True)
    assert "Version 2 was refused" in html and "no entry point at the root" in html
    statuses = sorted((v.number, v.status) for v in _versions(sessions, "evolving"))
    assert statuses == [(1, "validating"), (2, "rejected")]


def test_uploading_for_another_game_to_an_existing_bot_is_refused(site, client):
    site.signup("alice")
    bot_url = site.upload(GOOD_BOT, name="onegame", game="treasure").headers["Location"]
    bot_id = int(bot_url.rsplit("/", 1)[1])
    token = site.post("/account/tokens", {"name": "script", "scopes": ["upload"]}, page="/account/")
    api_token = re.search(r'id="api-token">([^<]+)<', token.get_data(as_text=True)).group(1)
    response = client.post(f"/api/v1/bots/{bot_id}/versions", headers={"Authorization": f"Bearer {api_token}"},
                           data={"file": (io.BytesIO(GOOD_BOT), "main.py"), "game": "drachengold"},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "plays treasure; this upload was for drachengold" in response.get_json()["error"]


def test_the_owner_sees_the_validation_result_and_logs(site, other_site, sessions, play):
    site.signup("alice")
    bot_url = site.upload(GOOD_BOT, name="crashy").headers["Location"]
    [version] = _versions(sessions, "crashy")
    play(version.validation_match_id, crash=(0,))
    html = site.text(bot_url)
    assert "rejected" in html and "ZeroDivisionError" in html  # the refusal reason, for the owner
    match_html = site.text(f"/matches/{version.validation_match_id}")
    assert "seat 0 says hello &lt;b&gt;from stderr&lt;/b&gt;" in match_html  # own log, escaped
    assert "seat 1 says hello" not in match_html  # the starter bot's log is the house's
    other_site.signup("bob")
    assert "ZeroDivisionError" not in other_site.text(bot_url).split("<h2>Versions</h2>")[1]
    assert "says hello" not in other_site.text(f"/matches/{version.validation_match_id}")


def test_a_clean_validation_game_puts_the_bot_on_the_leaderboard(site, sessions, play):
    site.signup("alice")
    site.upload(GOOD_BOT, name="solid")
    [version] = _versions(sessions, "solid")
    play(version.validation_match_id)
    [version] = _versions(sessions, "solid")
    assert version.status == VersionStatus.ACTIVE
    assert "solid" in site.text("/leaderboard/treasure")


def test_an_upload_is_one_transaction_a_failure_half_way_stores_nothing(app, build, sessions, settings, monkeypatch):
    """The bot, its version and its validation game are written together or not at all."""
    from sqlmodel import func

    from ladder.services import matches as match_service
    from ladder.services.uploads import upload_bot

    def broken(**_kw):
        raise RuntimeError("the database went away half-way")

    monkeypatch.setattr(match_service, "queue_validation_match", broken)
    owner = build.user("alice")
    with sessions() as session:
        before = [session.exec(select(func.count()).select_from(m)).one() for m in (Bot, BotVersion, Match)]
        with pytest.raises(RuntimeError):
            upload_bot(session=session, settings=settings, owner_id=owner.id, name="halfway", game="treasure",
                       code=GOOD_BOT, filename="main.py")
    with sessions() as session:
        assert [session.exec(select(func.count()).select_from(m)).one() for m in (Bot, BotVersion, Match)] == before


def test_the_cause_of_a_rejection_goes_to_the_owner_on_the_page_and_in_the_api(
    site, other_site, client, build, sessions, play
):
    from ladder.services import users

    site.signup("alice")
    bot_url = site.upload(GOOD_BOT, name="crashy").headers["Location"]
    [version] = _versions(sessions, "crashy")
    play(version.validation_match_id, crash=(0,))
    [version] = _versions(sessions, "crashy")
    assert version.rejection_reason == (f"validation game {version.validation_match_id}: "
                                        "exit code 1: Traceback ... ZeroDivisionError")  # the code once
    owner_view = site.text(bot_url).split("<h2>Versions</h2>")[1]
    assert "the end of its log in that game" in owner_view
    assert "seat 0 says hello &lt;b&gt;from stderr&lt;/b&gt;" in owner_view  # its own log's end, escaped
    other_site.signup("bob")
    assert "says hello" not in other_site.text(bot_url)
    with sessions() as session:
        alice = users.get_user_by_name(session=session, username="alice")
        token = users.issue_api_token(session=session, user_id=alice.id)
    bot_id = int(bot_url.rsplit("/", 1)[1])
    for url in (f"/api/v1/versions/{version.id}", f"/api/v1/bots/{bot_id}/versions", f"/api/v1/bots/{bot_id}"):
        mine = client.get(url, headers={"Authorization": f"Bearer {token}"}).get_json()
        public = client.get(url).get_json()
        [own] = [mine["version"]] if "version" in mine else mine["versions"]
        [anyone] = [public["version"]] if "version" in public else public["versions"]
        assert own["cause"] == "seat 0 says hello <b>from stderr</b>", url
        # the reason is the owner's too (issue #9: the web page hides it from others, so does the API)
        assert own["rejection_reason"] == version.rejection_reason, url
        assert "cause" not in anyone and anyone["rejection_reason"] is None, url


def test_the_upload_page_links_what_it_names_instead_of_repository_paths(site, client):
    # it named bots/treasure/careful.py, bots/sdk.py and docs/bots.md: paths a site user does not have
    site.signup("alice")
    page = site.text("/bots/upload")
    assert "bots/sdk.py" not in page and "<code>bots/" not in page and " docs/bots.md" not in page
    kits = re.findall(r'href="(/kits/python/[a-z]+/[a-z]+\.zip)"', page)
    assert len(kits) >= 3
    for url in kits:
        assert client.get(url).status_code == 200
    assert 'href="/docs/bots"' in page and client.get("/docs/bots").status_code == 200


def _api_token(site) -> str:
    token = site.post("/account/tokens", {"name": "script", "scopes": ["upload"]}, page="/account/")
    return re.search(r'id="api-token">([^<]+)<', token.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(("name", "description", "rule"), [
    ("", "", "name"), ("x" * 41, "", "name"), ("my bot", "", "name"), ("fine", "d" * 2001, "description"),
    ("fine", "a\x00b", "description"),
], ids=["empty name", "long name", "space in name", "long description", "nul description"])
def test_the_form_and_the_api_refuse_a_bad_name_or_description_in_the_model_s_words_and_write_nothing(
        site, client, sessions, dispatched, name, description, rule):
    site.signup("alice")
    token = _api_token(site)
    before = _rows(sessions)
    form = site.upload(make_zip({"main.py": GOOD_BOT}), "bot.zip", name=name, description=description)
    api = client.post("/api/v1/bots", headers={"Authorization": f"Bearer {token}"},
                      data={"file": (io.BytesIO(GOOD_BOT), "main.py"), "game": "treasure", "name": name,
                            "description": description}, content_type="multipart/form-data")
    assert form.status_code == 400 and str(escape(Bot.RULES[rule])) in form.get_data(as_text=True)
    assert api.status_code == 400 and api.get_json()["error"] == Bot.RULES[rule]
    assert _rows(sessions) == before and dispatched == []


def _rows(sessions) -> tuple[int, ...]:
    with sessions() as session:
        return tuple(len(session.exec(select(model)).all()) for model in (Bot, BotVersion, Match))


def test_an_upload_through_the_api_opens_its_zip_once(site, client, sessions, monkeypatch):
    from ladder.bot import packages as bot_packages

    site.signup("alice")
    token = _api_token(site)
    package = make_zip({"main.py": GOOD_BOT})
    opened = []
    real = bot_packages.zipfile.ZipFile
    monkeypatch.setattr(bot_packages.zipfile, "ZipFile", lambda *a, **k: opened.append(1) or real(*a, **k))
    response = client.post("/api/v1/bots", headers={"Authorization": f"Bearer {token}"},
                           data={"file": (io.BytesIO(package), "bot.zip"), "game": "treasure", "name": "zipped"},
                           content_type="multipart/form-data")
    assert response.status_code == 201, response.get_data(as_text=True)
    assert len(opened) == 1
    [version] = _versions(sessions, "zipped")
    assert version.runtime == "python" and version.status == VersionStatus.VALIDATING
