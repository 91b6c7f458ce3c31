"""Hostile uploads: poison file names and bytes through the form and the API are refused before
anything is stored, and whatever sits in the database, scheduler ticks keep queuing rated matches
for everyone else (a poison version is rejected, never retried forever)."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import update
from sqlmodel import func, select
from web.helpers import GOOD_BOT, without_flood_limits

from ladder.models import Bot, BotVersion, Match, MatchStatus, VersionStatus
from ladder.services import users
from workers.queue.scheduler import schedule

POISON_NAMES = ["é" * 130 + ".py", "a" * 300 + ".py", "bot\x00.py", ".py", "a/.py", "..\\evil.py", "bot\n.py",
                "\u202egnp.py", " bot.py", ""]


@pytest.fixture
def settings(settings):
    return without_flood_limits(settings)


def _token(build, sessions, username="mallory") -> dict[str, str]:
    user = build.user(username)
    with sessions() as session:
        return {"Authorization": f"Bearer {users.issue_api_token(session=session, user_id=user.id)}"}


def _api_upload(client, auth, code: bytes, filename: str, name: str = "poison"):
    return client.post("/api/v1/bots", headers=auth, content_type="multipart/form-data",
                       data={"name": name, "game": "treasure", "file": (io.BytesIO(code), filename)})


def _count(sessions, model) -> int:
    with sessions() as session:
        return session.exec(select(func.count()).select_from(model)).one()


def _drain(sessions) -> None:
    """What workers do, in short: every queued or running match is done (failed: unrated)."""
    with sessions() as session:
        session.exec(update(Match).where(Match.status.in_([MatchStatus.QUEUED, MatchStatus.RUNNING]))
                     .values(status=MatchStatus.FAILED, failure_reason="drained by the test"))
        session.commit()


def _rated_queued(sessions, queued) -> int:
    with sessions() as session:
        return sum(1 for i in queued.ladder if session.get(Match, i).kind == "ladder")


def test_poison_names_are_refused_by_the_form_and_the_api_and_write_nothing(client, site, build, sessions):
    auth = _token(build, sessions)
    site.signup("eve")
    bots, versions = _count(sessions, Bot), _count(sessions, BotVersion)
    for filename in POISON_NAMES:
        api = _api_upload(client, auth, GOOD_BOT, filename)
        assert api.status_code == 400, (filename, api.get_json())
        form = site.upload(GOOD_BOT, filename=filename, name="poison")
        assert form.status_code == 400, filename
        assert (_count(sessions, Bot), _count(sessions, BotVersion)) == (bots, versions), filename
    # a new version of an existing bot under a poison name is refused too, and stores nothing
    good = _api_upload(client, auth, GOOD_BOT, "BOT.PY", name="fine")  # any case: one rule everywhere
    assert good.status_code == 201, good.get_json()
    bot_id, versions = good.get_json()["bot"]["id"], _count(sessions, BotVersion)
    again = client.post(f"/api/v1/bots/{bot_id}/versions", headers=auth, content_type="multipart/form-data",
                        data={"file": (io.BytesIO(GOOD_BOT), "é" * 130 + ".py")})
    assert again.status_code == 400 and "bytes" in again.get_json()["error"]
    assert _count(sessions, BotVersion) == versions


def test_poison_rows_already_stored_are_rejected_and_rated_play_goes_on(app, client, build, sessions, settings):
    """Versions stored before the name rule existed (inserted here past the services)."""
    build.bot("alice", "honest")
    owner = build.user("mallory")
    with sessions() as session:
        bot = Bot(owner_id=owner.id, name="poison", game="treasure")
        session.add(bot)
        session.commit()
        names = ["é" * 130 + ".py", "bot\n.py", "a/.zip"]
        if session.get_bind().dialect.name == "sqlite":  # PostgreSQL itself refuses NUL and > 255 characters
            names += ["bot\x00.py", "a" * 300 + ".zip"]
        for number, filename in enumerate(names, start=1):
            session.add(BotVersion(bot_id=bot.id, number=number, filename=filename, code=b"\xff" * 10,
                                   sha256="0" * 64, size=10))
        session.commit()
    for tick in range(3):
        queued = schedule(app.extensions["ladder"].sessions, settings, random.Random(tick))
        assert _rated_queued(sessions, queued) > 0, f"tick {tick} queued no rated match"
        _drain(sessions)
    with sessions() as session:
        poison = session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)).all()
        assert {v.status for v in poison} == {VersionStatus.REJECTED}
        assert all("/tmp" not in v.rejection_reason and "ladder-validate" not in v.rejection_reason for v in poison)


@hypothesis_settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(uploads=st.lists(st.tuples(st.text(min_size=0, max_size=300), st.binary(min_size=0, max_size=64)),
                        min_size=1, max_size=3),
       suffix=st.sampled_from(["", ".py", ".zip", ".PY"]))
def test_whatever_one_user_uploads_rated_matches_keep_being_queued(app, client, build, sessions, settings, uploads,
                                                                   suffix):
    auth = _token(build, sessions)
    for name, code in uploads:
        response = _api_upload(client, auth, code or b"x", name + suffix, name=f"p{abs(hash(name)) % 10**6}")
        assert response.status_code < 500, (name, response.get_data(as_text=True)[:200])
    _drain(sessions)  # the validation games too: a failed one sends its version back to pending
    for tick in range(2):
        queued = schedule(app.extensions["ladder"].sessions, settings, random.Random(tick))
        assert _rated_queued(sessions, queued) > 0
        _drain(sessions)
