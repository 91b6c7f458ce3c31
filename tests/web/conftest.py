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
def play(engine, settings):
    """play(match_id, crash=()) runs a queued match through workers.queue.jobs with the fake runner."""
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
