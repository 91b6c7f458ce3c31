"""A new user's first minutes, in headless Chromium: sign up, upload a bot, see its validation game
queued and then finished, its first rated matches, the leaderboard showing it, and a replay download.

The site is served by a real HTTP server thread (werkzeug) on 127.0.0.1. Matches are played by the
workers' own code (workers.scheduler.schedule queues them, workers.jobs.play_match claims, runs them
through the sandboxed runner and records them), called from this test process rather than through
a Celery worker: the web app itself never runs bot code.

Needs Debian's chromium and Playwright for Python (never `playwright install`). Without them the test
skips, except with LADDER_REQUIRE_SERVICES=1 (CI), where it fails.
"""

from __future__ import annotations

import os
import random
import re
import threading
from pathlib import Path

import pytest
from sqlmodel import select
from werkzeug.serving import make_server

from ladder import create_app
from ladder.config import Settings
from ladder.db import session_factory
from ladder.models import Bot, BotVersion, Match, MatchStatus, Seat
from ladder.replay import loads_replay, verify_replay
from ladder.services.bots import seed_house_bots

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REQUIRED = os.environ.get("LADDER_REQUIRE_SERVICES") == "1"
PASSWORD = "walkthrough password"
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


def _sync_playwright():
    problems = []
    if not os.access(CHROMIUM, os.X_OK):
        problems.append(f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problems.append("playwright is not installed (pip install playwright)")
        sync_playwright = None
    if problems:
        if REQUIRED:
            pytest.fail("; ".join(problems) + " (LADDER_REQUIRE_SERVICES=1: the browser test is required)")
        pytest.skip("; ".join(problems))
    return sync_playwright


def _sandbox_mode() -> str:
    from workers.sandbox import sandbox_available  # the test runs bots; the web app never does

    return next(m for m in ("strict", "user", "none") if sandbox_available(m)[0])


@pytest.fixture
def ladder_site(engine, tmp_path):
    """(base URL, session factory, settings) of the site served on 127.0.0.1 by a server thread."""
    settings = Settings(env="test", instance_dir=tmp_path / "instance", sandbox_mode=_sandbox_mode(),
                        placement_games=2, tables_per_tick=4, queue_target=4)
    sessions = session_factory(engine)
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
    app = create_app({"settings": settings, "LADDER_ENGINE": engine})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="ladder-web", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", sessions, settings
    server.shutdown()
    thread.join(10)


@pytest.fixture
def page(tmp_path):
    sync_playwright = _sync_playwright()
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            accept_downloads=True, viewport={"width": 1200, "height": 900},
        )
        context.set_default_timeout(15_000)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("LADDER_SCREENSHOT_DIR") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _play(sessions, settings, match_id: int) -> None:
    from workers.jobs import play_match

    result = play_match(match_id, sessions=sessions, settings=settings, worker_id="browser-test")
    assert result.status == "finished", result


def _rated_games(sessions, settings, version_id: int, wanted: int) -> list[int]:
    """Scheduler ticks and worker runs until the version has played `wanted` rated matches."""
    from workers.scheduler import schedule

    played: list[int] = []
    rng = random.Random(4)
    for _ in range(10):
        schedule(sessions, settings, rng)
        with sessions() as session:
            mine = session.exec(
                select(Match.id).join(Seat, Seat.match_id == Match.id)
                .where(Seat.bot_version_id == version_id, Match.status == MatchStatus.QUEUED,
                       Match.game == "treasure").order_by(Match.id)
            ).all()
        for match_id in mine:
            _play(sessions, settings, match_id)
            played.append(match_id)
        if len(played) >= wanted:
            return played
    pytest.fail(f"the scheduler gave the new bot {len(played)} matches in ten ticks")


def test_sign_up_upload_validate_play_and_download(ladder_site, page, tmp_path):
    base, sessions, settings = ladder_site
    shots = _shots(tmp_path)

    # sign up
    page.goto(base + "/")
    page.get_by_role("link", name="Sign up", exact=True).click()
    page.fill("#username", "walker-author")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/bots/upload$"))
    assert "Welcome, walker-author" in page.content()

    # upload
    bot_file = tmp_path / "walker.py"
    bot_file.write_text(BOT)
    page.set_input_files("#file", str(bot_file))
    page.fill("#name", "walker")
    page.select_option("#game", "treasure")
    page.fill("#description", "flips once <b>and stops</b>")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url(re.compile(r"/bots/\d+$"))
    bot_url = page.url
    flash = page.locator(".flash.ok").inner_text()
    validation_id = int(re.search(r"match (\d+)\) is queued", flash).group(1))
    versions = page.locator("table.board").last.inner_text()
    assert "validating" in versions and f"match #{validation_id}" in versions and "queued" in versions
    assert "flips once <b>and stops</b>" in page.locator("p.lead").inner_text()  # shown as text

    # the validation game runs (a worker's job), then the page shows the result
    _play(sessions, settings, validation_id)
    page.goto(bot_url)
    versions = page.locator("table.board").last.inner_text()
    assert "active" in versions and "finished" in versions
    page.get_by_role("link", name=f"match #{validation_id}").click()
    page.wait_for_url(re.compile(rf"/matches/{validation_id}$"))
    assert "validation" in page.locator("p.meta").inner_text()
    assert "only you see this" in page.content()  # the owner's stderr section

    # first rated matches, queued by the scheduler like the ladder does around the clock
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.name == "walker")).one()
        version = session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)).one()
    rated = _rated_games(sessions, settings, version.id, wanted=2)

    # the leaderboard shows the bot
    page.goto(base + "/leaderboard/treasure")
    row = page.locator("table.board tbody tr", has_text="walker")
    assert row.count() == 1
    cells = row.locator("td").all_inner_texts()
    assert cells[2] == "walker-author" and int(cells[4]) >= 2 and "provisional" in cells[1]
    assert page.locator("tr.house").count() >= 2  # the starter bots stand as reference points
    page.screenshot(path=str(shots / "leaderboard.png"), full_page=True)

    # the bot page: a chart point per rated match; then one match and its replay
    page.goto(bot_url)
    assert page.locator("svg.chart circle").count() == len(rated)
    page.locator(f'a[href="/matches/{rated[0]}"]').first.click()
    page.wait_for_url(re.compile(rf"/matches/{rated[0]}$"))
    assert page.locator("table.seats tbody tr").count() >= 2
    assert page.locator("table.grid").count() >= 2
    page.screenshot(path=str(shots / "match.png"), full_page=False)
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

    # log out
    page.get_by_role("button", name="Log out").click()
    assert page.get_by_role("link", name="Log in").is_visible()
