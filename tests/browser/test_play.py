"""'Play it yourself' in headless Chromium: a person plays whole games of each of the three games on
the board, at a desktop's width (1366) and a phone's (390), with the page's own controls only: a
click on a dragon, an adventurer, a tile or a castle the board offers, the decision panel's choices
for what the board does not draw (a card, a line of fire, a proposal's vote), and "Decide". Every
decision kind the person meets is counted; the dump of the observation is never opened.

The site is served by a real HTTP server thread; the match is played by workers.queue.jobs in a
thread of this process, over the database relay, with house bots in process (tests/web/play_support.py:
only the sandbox is left out). The tables are the smallest and fastest: two or three players, one
negotiation round and one market round at Drachengold. With LADDER_SCREENSHOTS=DIR each game saves
its first screens at both widths (docs/img/ holds them). Measured on the 2-core machine: see
docs/play.md ("The tests").
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from browser.test_viewer import db_url  # noqa: F401 (fixture; browser and base_url come from conftest.py)
from sqlmodel import select
from web.conftest import app, dispatched, settings  # noqa: F401 (fixtures)
from web.play_support import play_in_background

from ladder.db import session_factory
from ladder.models import Bot, Match, Seat, User
from ladder.relay import backends
from ladder.services import person_seat

PASSWORD = "play it yourself password"
GAME_SECONDS = 120  # a bound for a stuck game, far above what one takes
SHOTS = os.environ.get("LADDER_SCREENSHOTS")
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
TABLES = {  # the person at seat 0; house bots, the quick ones, at the others
    "drachengold": (["greedy", "bargainer"], {"negotiation_rounds": 1, "market_rounds": 1}),
    "treasure": (["careful"], {}),
    "dragonflame": (["looter"], {}),
}
SHOT_KINDS = {"attack", "propose", "vote", "market_offer", "flip", "play"}  # the screens docs/play.md shows


def _sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/auth/signup")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(lambda url: "/auth/signup" not in url)


def _table(engine, settings, username: str, game: str) -> int:  # noqa: F811
    bots, options = TABLES[game]
    with session_factory(engine)() as session:
        user = session.exec(select(User).where(User.username == username)).one()
        ids = [session.exec(select(Bot.id).join(User, User.id == Bot.owner_id).where(
            Bot.game == game, Bot.name == name, User.username == settings.house_username)).one() for name in bots]
        match = person_seat.start(session=session, settings=settings, user_id=user.id, address="127.0.0.1",
                                  game=game, seat=0, opponents=ids, options=options, seed=7)
        return match.id


def _click_first(page, selector: str) -> bool:
    target = page.locator(selector)
    if not target.count():
        return False
    target.first.click()
    return True


# The board's offered targets present now, in the order a person clicks them (one look, then clicks).
PRESENT = """(selectors) => selectors.filter((sel) => document.querySelector(sel))"""
TARGETS = [f".play-board .pickable{t}" for t in ("[data-dragon]", "[data-adventurer]", "[data-square]",
                                                 "[data-castle]", "[data-seat]")]
# The radio groups of the decision panel with nothing chosen yet.
OPEN = """() => [...new Set([...document.querySelectorAll("form.play-form input[type=radio]")].map((r) => r.name))]
  .filter((n) => !document.querySelector(`form.play-form input[name="${n}"]:checked`))"""


def _decide(page, kind: str) -> None:
    """What a person does: the board first, then the panel's first choice of every question still open."""
    form = "form.play-form"
    stop = page.locator(f"{form} input[name=square][value=stop]")
    if kind == "flip" and stop.count():
        stop.check()  # one tile a turn, then stop: the game goes on, nobody loses a run
    else:
        for target in page.evaluate(PRESENT, TARGETS):
            page.locator(target).first.click()
    if kind == "vote":  # accept every proposal: the treasure is shared, the game moves on
        for box in page.locator(f"{form} input[type=checkbox][name=accept]").all():
            box.check()
    for name in page.evaluate(OPEN):
        page.locator(f"{form} input[type=radio][name='{name}']").first.check()
    page.click(f"{form} button[type=submit]")


def _play_through(page, shots: str | None) -> dict[str, int]:
    """Answer every request until the page says the game is over; the kinds answered, counted."""
    kinds: dict[str, int] = {}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        page.wait_for_selector("form.play-form button[type=submit]:not([disabled]), section.play-table[data-over='1']")
        form = page.query_selector("form.play-form")
        if form is None:
            break
        kind = form.get_attribute("data-kind")
        if shots and kind in SHOT_KINDS and kind not in kinds:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"{shots}-{kind}.png")
        _decide(page, kind)
        form.wait_for_element_state("hidden")  # the page drops a form once the site took it
        kinds[kind] = kinds.get(kind, 0) + 1
    else:
        pytest.fail(f"the game did not end within {GAME_SECONDS} s; answered {kinds}")
    return kinds


@pytest.mark.parametrize(("game", "must"), [
    ("drachengold", {"attack", "propose", "vote", "market_offer"}),
    ("treasure", {"flip"}),
    ("dragonflame", {"play", "attack"}),
])
def test_a_person_plays_whole_games_on_the_board(browser, base_url, engine, settings, game, must,  # noqa: F811
                                                 monkeypatch) -> None:
    """One whole game at each width, by the same person (a new table each)."""
    # The database relay looks again every 0.1 s, twice a decision (the page's poll, the seat's read):
    # looking more often keeps the games short without changing what is played.
    monkeypatch.setattr(backends, "POLL_SECONDS", 0.02)
    username = f"ada-{game[:5]}"
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _sign_up(page, base_url, username)
    for width, (w, h) in WIDTHS.items():
        page.set_viewport_size({"width": w, "height": h})
        match_id = _table(engine, settings, username, game)
        page.goto(f"{base_url}/play/match/{match_id}")
        thread, outcome = play_in_background(match_id, sessions=session_factory(engine), settings=settings)
        kinds = _play_through(page, str(Path(SHOTS) / f"play-{game}-{width}") if SHOTS else None)
        thread.join(60)
        assert must <= set(kinds), (width, kinds)
        assert "The game is over" in page.text_content("section.play-table")
        log = page.text_content("ol.play-log")
        assert "you sends" not in log and "seat 1" not in log, log  # names, not seats
        assert page.locator("details.play-sight[open]").count() == 0  # the dump stayed folded
        assert outcome and outcome[0].status == "finished", outcome
        with session_factory(engine)() as session:
            assert session.get(Match, match_id).status == "finished"
            seat = session.exec(select(Seat).where(Seat.match_id == match_id, Seat.seat == 0)).one()
            assert seat.status == "ok" and not seat.forfeited  # the person played every decision in time
    assert errors == []
