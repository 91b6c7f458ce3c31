"""'Play it yourself' in headless Chromium: a person signs up, sits at a table from the game's page
and plays a whole game through play.js and the game's forms, against three house bots at
Drachengold (proposing a split and voting at least once) and against two at Treasure.

The site is served by a real HTTP server thread; the match is played by workers.queue.jobs in a
thread of this process, over the database relay, with the bots in process (tests/web/play_support.py:
only the sandbox is left out). The person clicks the first choice of every question the form has not
answered already (each game's forms offer only legal choices and legal defaults). Needs Debian's
chromium and Playwright, like the other browser tests: without them it skips, except with
LADDER_REQUIRE_SERVICES=1 (CI). Measured on the 2-core machine at load 22 to 35, four runs: 75 to 112 s
for the file, of which the Drachengold game 43 to 70 s (each run deals a new seed) and Treasure 16 to 18 s.
"""

from __future__ import annotations

import time

import pytest
from browser.test_viewer import db_url  # noqa: F401 (fixture; browser and base_url come from conftest.py)
from sqlmodel import select
from web.conftest import app, dispatched, settings  # noqa: F401 (fixtures)
from web.play_support import play_in_background

from ladder.db import session_factory
from ladder.models import Match, Seat

PASSWORD = "play it yourself password"
GAME_SECONDS = 300  # a bound for a stuck game, far above the 43-70 s a Drachengold game took at load 22-35

# Every radio group with nothing chosen gets its first choice; the rest keeps the form's defaults.
ANSWER = """(form) => {
  const groups = new Set(Array.from(form.querySelectorAll("input[type=radio]")).map((r) => r.name));
  groups.forEach((name) => {
    const radios = Array.from(form.querySelectorAll(`input[type=radio][name="${name}"]`));
    if (!radios.some((r) => r.checked)) radios[0].checked = true;
  });
  return form.dataset.kind;
}"""


def _sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/auth/signup")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/auth/signup" not in url)


def _sit_down(page, base_url: str, game: str, bots: list[str]) -> int:
    page.goto(f"{base_url}/leaderboard/{game}")
    page.click("text=Play it yourself")
    page.select_option("#seat", "1")
    for i in range(page.locator("select[name=opponent]").count()):
        page.select_option(f"#opponent{i}", label=bots[i] if i < len(bots) else "(nobody)")
    page.click("form.play-start button[type=submit]")
    page.wait_for_url("**/play/match/*")
    return int(page.url.rstrip("/").split("/")[-1])


def _play_through(page) -> dict[str, int]:
    """Answer every request until the page says the game is over; the kinds answered, counted."""
    kinds: dict[str, int] = {}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        page.wait_for_selector("form.play-form button[type=submit]:not([disabled]), section.play-table[data-over='1']")
        form = page.query_selector("form.play-form")
        if form is None:
            break
        kind = form.evaluate(ANSWER)
        form.query_selector("button[type=submit]").click()
        form.wait_for_element_state("hidden")  # the page drops a form once the site took it
        kinds[kind] = kinds.get(kind, 0) + 1
    else:
        pytest.fail(f"the game did not end within {GAME_SECONDS} s; answered {kinds}")
    return kinds


@pytest.mark.parametrize(("game", "bots", "must"), [
    ("drachengold", ["house/greedy", "house/bargainer", "house/trader"], {"propose", "vote"}),
    ("treasure", ["house/careful", "house/random"], {"flip"}),
])
def test_a_person_plays_a_whole_game_in_the_browser(browser, base_url, engine, settings, game, bots,  # noqa: F811
                                                     must) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(90_000)  # a worker under load may think a while between requests
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _sign_up(page, base_url, f"player-{game[:5]}")
    match_id = _sit_down(page, base_url, game, bots)
    thread, outcome = play_in_background(match_id, sessions=session_factory(engine), settings=settings)
    kinds = _play_through(page)
    thread.join(60)
    assert must <= set(kinds), kinds
    assert "The game is over" in page.text_content("section.play-table")
    assert outcome and outcome[0].status == "finished", outcome
    with session_factory(engine)() as session:
        assert session.get(Match, match_id).status == "finished"
        seat = session.exec(select(Seat).where(Seat.match_id == match_id, Seat.seat == 1)).one()
        assert seat.status == "ok" and not seat.forfeited  # the person played every decision in time
    assert errors == []
