"""Web fixtures: the app built with config passed in, on the root conftest's `engine` (a migrated
SQLite file, and a PostgreSQL database when one is reachable), with the starter bots seeded.
CSRF protection stays ON: see web.helpers.Site.
"""

from __future__ import annotations

import pytest
from web.helpers import Builder, FakeRunner, Site

from ladder import create_app
from ladder.config import Settings
from ladder.db import session_factory
from ladder.services.bots import seed_house_bots


@pytest.fixture
def dispatched() -> list[int]:
    """Match ids the app handed to its dispatcher (what Celery would receive)."""
    return []


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict", max_upload_bytes=64 * 1024,
                    placement_games=2)


@pytest.fixture
def app(engine, settings, dispatched):
    with session_factory(engine)() as session:
        seed_house_bots(session=session, username=settings.house_username)
    app = create_app({"settings": settings, "LADDER_ENGINE": engine, "TESTING": True,
                      "LADDER_DISPATCH": dispatched.extend})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def site(client) -> Site:
    return Site(client)


@pytest.fixture
def other_site(app) -> Site:
    """A second browser: another user's session."""
    return Site(app.test_client())


@pytest.fixture
def play(engine, settings, quick_boss):
    """play(match_id, crash=()) runs a queued match through workers.queue.jobs with the fake runner
    (whose Drachengold tables seat the boss: `quick_boss`)."""
    from workers.queue.jobs import play_match

    sessions = session_factory(engine)

    def run(match_id: int, crash: tuple[int, ...] = ()):
        result = play_match(match_id, sessions=sessions, settings=settings, worker_id="test-worker",
                            runner=FakeRunner(crash))
        assert result.status == "finished", result
        return result

    return run


@pytest.fixture
def build(app, engine) -> Builder:
    return Builder(session_factory(engine))


@pytest.fixture
def played(build, play, sessions):
    """alpha (v1 then v2) against Treasure's starters, five matches (the scorecard's page and API tests)."""
    from ladder.services import bots

    bot, v1 = build.bot("alice", "alpha")
    starters = build.starters()
    ids = [build.match([v1.id, *starters[:2]], seed=s) for s in (1, 2, 3)]
    for match_id in ids:
        play(match_id)
    with sessions() as session:
        v2 = bots.add_version(session=session, bot_id=bot.id, code=b"print(2)\n", filename="main.py",
                              placement_games=0)
        bots.activate_version(session=session, version_id=v2.id)
        v2_id = v2.id
    later = [build.match([v2_id, starters[0]], seed=s) for s in (4, 5)]
    for match_id in later:
        play(match_id)
    return bot, ids + later, starters
