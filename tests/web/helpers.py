"""Helpers for the web tests (imported as web.helpers): a browser-like client, bot packages,
a fake match runner and a builder of users, bots and matches through the services.

CSRF protection stays ON in these tests: `Site.post` fetches a page, reads the form's token and
sends it back, the way a browser does; tests that want a refusal post without it.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import replace

from match_support import record_of
from sqlmodel import select

from ladder.models import Bot

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


def without_flood_limits(settings):
    """The limits against floods (ladder/web/limiting.py) far away, for a test that IS the flood
    and must reach the code behind them rather than a 429."""
    return settings.model_copy(update={"api_rate": "100000 per minute", "seat_rate": "100000 per minute",
                                       "uploads_per_day": 100000,
                                       "signup_rate": "1000 per minute", "accounts_per_address": 100000,
                                       "login_failures_per_address": "100000 per minute",
                                       "login_failures_per_account": "100000 per minute"})


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


class FakeRunner:
    """Stands in for workers.match.runner in page tests: plays the game in-process with starter bots
    (no bot process starts), so results, replays and logs have their real shapes. `crash` names
    seats to report as crashed, with a stderr line, as the sandboxed runner would."""

    def __init__(self, crash: tuple[int, ...] = ()):
        self.crash = crash

    def __call__(self, plan, env):
        from bots import builtin_names
        from ladder.play import play_builtin

        game, names, specs = plan.game.name, plan.names, plan.seats
        starters = builtin_names(game)
        played = play_builtin(game, [starters[i % len(starters)] for i in range(len(specs))], seed=plan.seed,
                              options=plan.options)
        seats = [replace(seat, bot=names[i], stderr=f"seat {i} says hello <b>from stderr</b>\n")
                 for i, seat in enumerate(played.seats)]
        results = [replace(result, bot=names[result.seat]) for result in played.results]
        for i in self.crash:
            seats[i] = replace(seats[i], status="crash", reason="exit code 1: Traceback ... ZeroDivisionError",
                               forfeit=True)
        if self.crash:
            results = [replace(r, rank=len(specs) if r.seat in self.crash else 1) for r in results]
        return record_of(plan, played.replay.completed(results=results, seats=seats, cgroup=None))


class Builder:
    """Users, bots with an active version and queued matches, made through the services."""

    def __init__(self, sessions):
        self.sessions = sessions

    def user(self, username: str):
        from ladder.services import users

        with self.sessions() as session:
            existing = users.get_user_by_name(session=session, username=username)
            return existing or users.sign_up(session=session, data={"username": username, "password": PASSWORD})

    def bot(self, owner: str, name: str, game: str = "treasure", description: str = ""):
        """(bot, version): an active bot, as if its validation game had passed."""
        from ladder.services import bots

        user = self.user(owner)
        with self.sessions() as session:
            bot = bots.create_bot(session=session, owner_id=user.id,
                                  data={"name": name, "game": game, "description": description})
            version = bots.add_version(session=session, bot_id=bot.id, code=GOOD_BOT, filename="main.py",
                                       placement_games=0)
            bots.activate_version(session=session, version_id=version.id)
            return bot, version

    def starters(self, game: str = "treasure") -> list[int]:
        """Active version ids of the game's starter bots."""
        from ladder.models import BotVersion, VersionStatus

        with self.sessions() as session:
            rows = session.exec(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(
                Bot.game == game, Bot.builtin.is_not(None), BotVersion.status == VersionStatus.ACTIVE))
            return sorted(rows)

    def match(self, version_ids: list[int], game: str = "treasure", kind: str = "ladder", seed: int = 7) -> int:
        from ladder.services import matches

        with self.sessions() as session:
            return matches.queue_match(session=session, game=game, seats=version_ids, kind=kind, seed=seed).id
