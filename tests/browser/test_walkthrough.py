"""A new user's first minutes, in headless Chromium: sign up, upload a bot, see its validation game
queued and then finished, its first rated matches, the leaderboard showing it, and a replay download.

The site is served by a real HTTP server thread (werkzeug) on 127.0.0.1. Two ways to play matches:
- `test_walkthrough_with_celery`: the real thing. A `ladder worker` and a `ladder scheduler` (Celery
  beat) run as processes on Redis and PostgreSQL; the site hands its validation game to Celery; the
  browser watches the bot page refresh itself (no JavaScript) until the game is over.
- `test_walkthrough_in_process`: the workers' own functions (workers.queue.jobs.play_match through the
  sandboxed runner, workers.queue.scheduler.schedule) called from this test process, on SQLite and
  PostgreSQL, so the walk also runs where Redis is missing. The web app never runs bot code.

Needs Debian's chromium and Playwright for Python (never `playwright install`). Without them, or
without Redis/PostgreSQL for the Celery walk, the tests skip, except with LADDER_REQUIRE_SERVICES=1
(CI), where they fail.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from browser.conftest import CHROMIUM, CHROMIUM_ARGS, serve, sync_playwright
from service_support import pg_url, redis_url, service_env, start, stop, wait_until  # noqa: F401 (fixtures)
from sqlmodel import select

from ladder import create_app
from ladder.config import Settings
from ladder.db import make_engine, session_factory, upgrade
from ladder.models import Bot, BotVersion, Match, MatchStatus, Seat
from ladder.replay import loads_replay, verify_replay
from ladder.services.bots import seed_house_bots

PASSWORD = "walkthrough password"
RATED_GAMES = 2
BOT = """\
from bots.sdk import Bot, run


class Walker(Bot):
    \"\"\"Flips once, keeps what it can.\"\"\"

    def flip(self, observation):
        request = observation["request"]
        if request["can_stop"]:
            return {"stop": True}
        return {"square": request["squares"][0]}

    def move_spider(self, observation):
        return {"square": None}


if __name__ == "__main__":
    run(Walker)
"""


def _sandbox_mode() -> str:
    from workers.sandbox.process import sandbox_available  # the test runs bots; the web app never does

    return next(m for m in ("strict", "user", "none") if sandbox_available(m)[0])


@pytest.fixture
def page(tmp_path):
    with sync_playwright()() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            accept_downloads=True, viewport={"width": 1200, "height": 900},
        )
        context.set_default_timeout(15_000)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


def _rated_matches(sessions, version_id: int) -> list[int]:
    with sessions() as session:
        return list(session.exec(
            select(Match.id).join(Seat, Seat.match_id == Match.id)
            .where(Seat.bot_version_id == version_id, Match.ranked == True,  # noqa: E712
                   Match.status == MatchStatus.FINISHED).order_by(Match.id)
        ).all())


class InProcess:
    """Plays matches with the workers' functions in this process, when the walk asks."""

    def __init__(self, sessions, settings):
        self.sessions, self.settings = sessions, settings

    def play(self, match_id: int) -> None:
        from workers.queue.jobs import play_match

        result = play_match(match_id, sessions=self.sessions, settings=self.settings, worker_id="browser-test")
        assert result.status == "finished", result

    def finish_validation(self, page, match_id: int) -> None:
        self.play(match_id)
        page.reload()

    def rated(self, version_id: int) -> list[int]:
        from workers.queue.scheduler import schedule

        rng = random.Random(4)
        for _ in range(10):
            schedule(self.sessions, self.settings, rng)
            with self.sessions() as session:
                mine = session.exec(
                    select(Match.id).join(Seat, Seat.match_id == Match.id)
                    .where(Seat.bot_version_id == version_id, Match.status == MatchStatus.QUEUED).order_by(Match.id)
                ).all()
            for match_id in mine:
                self.play(match_id)
            if len(_rated_matches(self.sessions, version_id)) >= RATED_GAMES:
                return _rated_matches(self.sessions, version_id)
        pytest.fail("the scheduler gave the new bot too few matches in ten ticks")


class CeleryWorkers:
    """A real `ladder worker` and `ladder scheduler`, started once the upload is queued."""

    def __init__(self, sessions, env, logs: Path):
        self.sessions, self.env, self.logs, self.procs = sessions, env, logs, []

    def finish_validation(self, page, match_id: int) -> None:
        self.procs.append(start(["worker", "--concurrency", "2", "--name", "browser@%h"], self.env,
                                self.logs / "worker.log"))
        self.procs.append(start(["scheduler"], self.env, self.logs / "beat.log"))
        # the bot page refreshes itself while its version validates (a meta refresh, no script)
        page.locator(".status.v-active").wait_for(timeout=120_000)

    def rated(self, version_id: int) -> list[int]:
        return wait_until(lambda: len(ids := _rated_matches(self.sessions, version_id)) >= RATED_GAMES and ids,
                          150, f"{RATED_GAMES} rated matches of the new bot",
                          [self.logs / "worker.log", self.logs / "beat.log"], interval=0.5)

    def close(self) -> None:
        for proc in reversed(self.procs):
            stop(proc)


def walk(page, base: str, sessions, driver, tmp_path: Path) -> None:
    shots = Path(os.environ.get("LADDER_SCREENSHOT_DIR") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)

    # sign up
    page.goto(base + "/")
    page.get_by_role("link", name="Sign up", exact=True).click()
    page.fill("#username", "walker-author")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/bots/upload$"))
    assert "Welcome, walker-author" in page.content()

    # upload: stored, and its validation game queued
    bot_file = tmp_path / "walker.py"
    bot_file.write_text(BOT)
    page.set_input_files("#file", str(bot_file))
    page.fill("#name", "walker")
    page.select_option("#game", "treasure")
    page.fill("#description", "flips once <b>and stops</b>")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(re.compile(r"/bots/\d+$"))
    bot_url = page.url
    validation_id = int(re.search(r"match (\d+)\) is queued", page.locator(".flash.ok").inner_text()).group(1))
    versions = page.locator("table.board").last.inner_text()
    assert "validating" in versions and f"match #{validation_id}" in versions and "queued" in versions
    assert "flips once <b>and stops</b>" in page.locator("p.lead").inner_text()  # shown as text

    # the validation game is played; the page then shows the version active and the game finished
    driver.finish_validation(page, validation_id)
    versions = page.locator("table.board").last.inner_text()
    assert "active" in versions and "finished" in versions
    page.get_by_role("link", name=f"match #{validation_id}", exact=True).click()
    page.wait_for_url(re.compile(rf"/matches/{validation_id}$"))
    assert "validation" in page.locator("p.meta").inner_text()
    assert "only you see this" in page.content()  # the owner's stderr section

    # the first rated matches
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.name == "walker")).one()
        version = session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)).one()
    rated = driver.rated(version.id)

    # the leaderboard shows the bot among the starter bots
    page.goto(base + "/leaderboard/treasure")
    row = page.locator("table.board tbody tr", has_text="walker")
    assert row.count() == 1
    cells = row.locator("td").all_inner_texts()
    assert cells[2] == "walker-author" and int(cells[4]) >= RATED_GAMES and "?" in cells[3]  # unsure: its ± is over 150
    assert page.locator("tr.house").count() >= 2
    page.screenshot(path=str(shots / "leaderboard.png"), full_page=True)

    # the bot page charts its rated matches; one match page; its replay
    page.goto(bot_url)
    assert page.locator("svg.chart circle").count() >= len(rated)
    page.locator(f'a[href="/matches/{rated[0]}"]').first.click()
    page.wait_for_url(re.compile(rf"/matches/{rated[0]}$"))
    assert page.locator("table.seats tbody tr").count() >= 2
    assert page.locator("table.grid").count() >= 2
    page.screenshot(path=str(shots / "match.png"))
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the replay (JSON)").click()
    download = download_info.value
    assert download.suggested_filename == f"match-{rated[0]}.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(str(saved))
    replay = loads_replay(saved.read_bytes())
    assert replay["game"] == "treasure" and verify_replay(replay).ok
    assert any("walker" in seat["bot"] for seat in replay["seats"])
    assert all("stderr" not in seat for seat in replay["seats"])  # logs are the owners', not public

    page.get_by_role("button", name="Log out").click()
    assert page.get_by_role("link", name="Log in").is_visible()


def test_walkthrough_in_process(engine, page, tmp_path):
    settings = Settings(env="test", instance_dir=tmp_path / "instance", sandbox_mode=_sandbox_mode(),
                        placement_games=RATED_GAMES, tables_per_tick=4, queue_target=4)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
    base, shutdown = serve(create_app({"settings": settings, "LADDER_ENGINE": engine}))
    try:
        walk(page, base, sessions, InProcess(sessions, settings), tmp_path)
    finally:
        shutdown()


def test_walkthrough_with_celery(pg_url, redis_url, page, tmp_path):  # noqa: F811 (fixtures)
    from workers.queue import celery_app, tasks

    sandbox = _sandbox_mode()
    settings = Settings(env="test", instance_dir=tmp_path / "instance", database_url=pg_url, redis_url=redis_url,
                        sandbox_mode=sandbox, placement_games=RATED_GAMES)
    engine = make_engine(settings)
    upgrade(engine)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
    celery_app.configure(settings)  # this process sends the site's validation game to the test's Redis
    env = service_env(database_url=pg_url, redis_url=redis_url, instance=tmp_path / "instance", sandbox=sandbox,
                      LADDER_SCHEDULER_INTERVAL="1", LADDER_TABLES_PER_TICK="2", LADDER_QUEUE_TARGET="2",
                      LADDER_PLACEMENT_GAMES=str(RATED_GAMES))
    workers = CeleryWorkers(sessions, env, tmp_path)
    base, shutdown = serve(create_app({"settings": settings, "LADDER_ENGINE": engine,
                                       "LADDER_DISPATCH": tasks.dispatch_matches}))
    try:
        walk(page, base, sessions, workers, tmp_path)
    finally:
        shutdown()
        workers.close()
        celery_app.app.ladder_settings = saved[0]
        celery_app.app.conf.update(saved[1])
        engine.dispose()


def _kit_upload(kit: str, tmp_path: Path) -> Path:
    """The .zip an author of `kit` uploads: the kit's files (the static kit: its built `bot` only)."""
    import shutil
    import subprocess
    import zipfile

    folder = Path(__file__).parents[2] / "bots" / "examples" / kit
    if kit == "static":
        work = tmp_path / "static-src"
        shutil.copytree(folder, work)
        subprocess.run(["/usr/bin/make"], cwd=work, check=True, capture_output=True, timeout=300)
        files = {"bot": work / "bot"}
    else:
        files = {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*"))
                 if p.is_file() and p.name != "README.md"}
    path = tmp_path / f"{kit}-bot.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, source in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o100755 if name == "bot" else 0o100644) << 16
            zf.writestr(info, source.read_bytes())
    return path


def _play_until_each_rated(driver: InProcess, version_ids: list[int]) -> None:
    """Scheduler ticks, every queued match played, until each version has a rated match."""
    from workers.queue.scheduler import schedule

    rng = random.Random(5)
    for _ in range(15):
        schedule(driver.sessions, driver.settings, rng)
        with driver.sessions() as session:
            queued = session.exec(select(Match.id).where(Match.status == MatchStatus.QUEUED).order_by(Match.id)).all()
        for match_id in queued:
            driver.play(match_id)
        if all(_rated_matches(driver.sessions, v) for v in version_ids):
            return
    pytest.fail("fifteen scheduler ticks left a runtime's bot without a rated match")


def test_a_starter_kit_in_every_runtime_uploads_builds_validates_and_plays_rated(engine, page, tmp_path):
    """Issue #12's done-when: each runtime's starter kit, uploaded through the web form, compiles
    (where it is compiled), passes its validation game and plays rated matches."""
    from ladder.bot import runtimes

    missing = [r.name for r in runtimes.RUNTIMES if not runtimes.available(r)[0]]
    if missing:
        from needs import unavailable

        unavailable(f"runtimes missing here: {', '.join(missing)}")
    settings = Settings(env="test", instance_dir=tmp_path / "instance", sandbox_mode=_sandbox_mode(),
                        placement_games=1, tables_per_tick=4, queue_target=4, uploads_per_day=20)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
    base, shutdown = serve(create_app({"settings": settings, "LADDER_ENGINE": engine}))
    driver = InProcess(sessions, settings)
    try:
        page.goto(base + "/auth/signup")
        page.fill("#username", "polyglot")
        page.fill("#password", PASSWORD)
        page.fill("#confirm", PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.wait_for_url(re.compile(r"/bots/upload$"))
        assert page.locator("table.runtimes tbody tr").count() == len(runtimes.RUNTIMES)
        uploaded: dict[str, tuple[str, int]] = {}
        for runtime in runtimes.RUNTIMES:
            page.goto(base + "/bots/upload")
            page.set_input_files("#file", str(_kit_upload(runtime.name, tmp_path)))
            page.fill("#name", f"kit-{runtime.name}")
            page.select_option("#game", "treasure")
            page.get_by_role("button", name="Upload").click()
            page.wait_for_url(re.compile(r"/bots/\d+$"))
            flash = page.locator(".flash.ok").inner_text()
            uploaded[runtime.name] = (page.url, int(re.search(r"match (\d+)\) is queued", flash).group(1)))
        for _url, validation_id in uploaded.values():
            driver.play(validation_id)
        with sessions() as session:
            versions = {bot.name.removeprefix("kit-"): version for bot, version in session.exec(
                select(Bot, BotVersion).join(BotVersion, BotVersion.bot_id == Bot.id).where(Bot.name.like("kit-%")))}
        assert {n: (v.runtime, v.status) for n, v in versions.items()} == {
            r.name: (r.name, "active") for r in runtimes.RUNTIMES}
        for name, version in versions.items():  # compiled ones ran a stored artifact
            assert (version.build_key is not None) == runtimes.BY_NAME[name].compiled, name
        _play_until_each_rated(driver, [v.id for v in versions.values()])
        # the owner sees how the Rust bot was built; the versions table names each runtime
        page.goto(uploaded["rust"][0])
        versions_text = page.locator("table.board").last.inner_text()
        assert "rust" in versions_text and "built with rustc" in versions_text
    finally:
        shutdown()
