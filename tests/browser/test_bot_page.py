"""The bot page as its owner sees it, at a desktop's 1366 px and a phone's 390 px: the page uses the
desktop's width, the recent matches table shows every column whole without scrolling at 1366, and
the win figures say what they count. With LADDER_SCREENSHOTS=DIR it saves bot-1366.png and bot-390.png."""

from __future__ import annotations

import os
from pathlib import Path

from web.conftest import app, build, dispatched, play, settings  # noqa: F401 (fixtures)
from web.helpers import PASSWORD

SHOTS = os.environ.get("LADDER_SCREENSHOTS")

# Every column heading of a table shown whole (a heading cut off needs the table scrolled), and the
# table inside its scrolling box without scrolling.
FITS = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.closest('.scroll') || table.parentElement;
  return {table: table.scrollWidth, box: box.clientWidth, main: document.querySelector('main').clientWidth,
          heads: [...table.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect().right
                  <= box.getBoundingClientRect().right + 1)};
}"""


def test_the_bot_page_uses_the_desktop_and_shows_its_matches_whole(browser, base_url, build, play):  # noqa: F811
    bot, mine = build.bot("alice", "a-bot-with-a-long-name", description="plays carefully")
    starters = build.starters()
    for seed in range(3):
        match_id = build.match([mine.id, *starters[:2]], seed=seed)
        play(match_id)
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(base_url + "/auth/login")
    page.fill("#username", "alice")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_load_state()
    page.goto(f"{base_url}/bots/{bot.id}")
    recent = page.evaluate(FITS, "#recent-matches table")
    assert recent["main"] >= 1200, recent  # main was 1100 px wide, its columns half of that
    assert recent["table"] <= recent["box"] and all(recent["heads"]), recent  # "WHEN" was cut to "WHI"
    stats = page.inner_text(".stats")
    assert "first places" in stats  # "0% wins" counted first places, unexplained
    assert "finished above" in page.inner_text("#head-to-head")  # its "Won" counts meetings finished above
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "bot-1366.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(Path(SHOTS) / "bot-390.png"), full_page=True)
    context.close()


def test_the_owners_seat_view_lists_each_answer_with_its_time_and_stderr(browser, base_url, build, play,  # noqa: F811
                                                                          engine):
    from web.test_viewer import _record_runs

    from ladder.db import session_factory

    _, mine = build.bot("alice", "talker")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    _record_runs(session_factory(engine), match_id)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    owners_seat_view(page, base_url, match_id, "alice")
    page.click(".viewer-decisions summary")
    rows = page.locator(".viewer-decisions tbody tr")
    assert rows.count() > 1
    first = rows.nth(0).inner_text()
    assert "13 / 1000" in first and "10000" in first and "seat 0 says hello <b>from stderr</b>" in first
    page.close()


def owners_seat_view(page, base_url, match_id, username, seat=0):
    """Log in as the bot's owner and open the match's viewer on that seat's own view, after checking
    the public view shows none of the seat's answers."""
    page.goto(base_url + "/auth/login")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    page.wait_for_load_state()
    page.goto(f"{base_url}/matches/{match_id}#step=1")
    page.wait_for_selector("#viewer[data-ready='1']")
    assert page.locator(".viewer-decisions details").count() == 0  # the public view has none
    assert page.locator(".viewer-answer").is_hidden()  # nor the panel beside the board: nobody's stderr
    page.select_option("select.view", f"seat:{seat}")
    page.wait_for_selector("#viewer[data-ready='1'][data-view='seat']")
