"""Web fixtures: the app built with config passed in, on the root conftest's `engine` (a migrated
SQLite file, and a PostgreSQL database when one is reachable), with the starter bots seeded.

CSRF protection stays ON in these tests: `Site.post` fetches a page, reads the form's token and
sends it back, the way a browser does; tests that want a refusal post without it.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from ladder import create_app
from ladder.config import Settings
from ladder.db import session_factory
from ladder.services.bots import seed_house_bots

TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')
PASSWORD = "correct horse battery"
GOOD_BOT = (
    b"from bots.sdk import Bot, run\n\n"
    b"class Careful(Bot):\n"
    b"    def flip(self, observation):\n"
    b"        return {'stop': True} if observation['request']['can_stop'] else "
    b"{'square': observation['request']['squares'][0]}\n\n"
    b"    def move_spider(self, observation):\n"
    b"        return {'square': None}\n\n"
    b"if __name__ == '__main__':\n    run(Careful)\n"
)


def make_zip(files: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o120777 << 16)  # a symbolic link, as zip -y stores one
            zf.writestr(info, target)
    return buffer.getvalue()


class Site:
    """A test client that behaves like a browser with forms: every POST carries the CSRF token."""

    def __init__(self, client):
        self.client = client

    def token(self, page: str = "/auth/login") -> str:
        html = self.client.get(page).get_data(as_text=True)
        match = TOKEN.search(html)
        assert match, f"no CSRF token on {page}"
        return match.group(1) or match.group(2)

    def post(self, url: str, data: dict | None = None, page: str = "/auth/login", **kw):
        data = dict(data or {})
        data["csrf_token"] = self.token(page)
        return self.client.post(url, data=data, **kw)

    def signup(self, username: str, password: str = PASSWORD):
        response = self.post("/auth/signup", {"username": username, "password": password, "confirm": password},
                             page="/auth/signup")
        assert response.status_code == 302, response.get_data(as_text=True)
        return response

    def login(self, username: str, password: str = PASSWORD):
        return self.post("/auth/login", {"username": username, "password": password})

    def logout(self):
        return self.post("/auth/logout", page="/")

    def upload(self, code: bytes, filename: str = "main.py", name: str = "mybot", game: str = "treasure",
               description: str = ""):
        return self.post("/bots/upload", {"file": (io.BytesIO(code), filename), "name": name, "game": game,
                                          "description": description},
                         page="/bots/upload", content_type="multipart/form-data")

    def text(self, url: str) -> str:
        return self.client.get(url).get_data(as_text=True)


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


class FakeRunner:
    """Stands in for workers.runner in page tests: plays the game in-process with starter bots
    (no bot process starts), so results, replays and logs have their real shapes. `crash` names
    seats to report as crashed, with a stderr line, as the sandboxed runner would."""

    def __init__(self, crash: tuple[int, ...] = ()):
        self.crash = crash

    def __call__(self, specs, *, game, seed, options, names, **_kw):
        from bots import builtin_names
        from ladder.play import play_builtin

        starters = builtin_names(game)
        played = play_builtin(game, [starters[i % len(starters)] for i in range(len(specs))], seed=seed,
                              options=options)
        replay = played.replay
        for i, seat in enumerate(replay["seats"]):
            seat["bot"] = names[i]
            seat["stderr"] = f"seat {i} says hello <b>from stderr</b>\n"
            if i in self.crash:
                seat.update(status="crash", reason="exit code 1: Traceback ... ZeroDivisionError", forfeit=True)
        for result in replay["results"]:
            result["bot"] = names[result["seat"]]
        if self.crash:
            for result in replay["results"]:
                result["rank"] = len(specs) if result["seat"] in self.crash else 1
        return type("Result", (), {"replay": replay})()


@pytest.fixture
def play(engine, settings):
    """play(match_id, crash=()) runs a queued match through workers.jobs with the fake runner."""
    from workers.jobs import play_match

    sessions = session_factory(engine)

    def run(match_id: int, crash: tuple[int, ...] = ()):
        result = play_match(match_id, sessions=sessions, settings=settings, worker_id="test-worker",
                            runner=FakeRunner(crash))
        assert result.status == "finished", result
        return result

    return run
