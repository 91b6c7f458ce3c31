"""The challenge form's script (ladder/web/static/challenge.js) in headless Chromium: ticking
opponents updates the count and how many more the game needs, and the button is enabled only for
a table the game allows. Needs Debian's chromium and Playwright, like tests/browser/test_viewer.py
(whose fixtures this uses): without them it skips, except with LADDER_REQUIRE_SERVICES=1 (CI)."""

from __future__ import annotations

from browser.test_viewer import db_url  # noqa: F401 (fixture; browser and base_url come from conftest.py)
from web.conftest import app, build, dispatched, play, settings  # noqa: F401 (fixtures)

PASSWORD = "challenge form password"


def test_ticking_opponents_counts_them_and_says_how_many_more(browser, base_url, build):  # noqa: F811
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}/auth/signup")
    page.fill("#username", "ticker")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("form button[type=submit]")
    bot, _ = build.bot("ticker", "alpha", game="drachengold")  # Drachengold: 3-6 players, 2-5 opponents
    page.goto(f"{base_url}/bots/{bot.id}")
    count, button = page.locator("output.opponents-count"), page.locator("form.challenge button[type=submit]")
    boxes = page.locator("form.challenge input[type=checkbox]")
    assert boxes.count() >= 4
    assert count.text_content() == "0 chosen: tick 2 more opponents." and button.is_disabled()
    boxes.nth(0).check()
    assert count.text_content() == "1 chosen: tick 1 more opponent." and button.is_disabled()
    boxes.nth(1).check()
    assert count.text_content() == "2 opponents chosen: a 3-player game." and button.is_enabled()
    button.click()  # submits: no checkbox carries `required`, which would ask for every one ticked
    page.wait_for_url("**/matches/*")
    assert errors == []
