"""A match watched live in headless Chromium, on the embedded setup: SQLite, the relay in the
ladder's own database (relay_for with no REDIS_URL), the site served over HTTP, and a worker's
own job (workers.queue.jobs.play_match) playing the match in a thread with starter bots whose
game the test holds at two points: before the first event, and halfway.

The first page opens before the first event and waits; the second joins halfway. Both show what
the published entries draw, the second at the live end at once; when the match is over both switch
to the finished replay's public view. Needs Debian's chromium and Playwright for Python (never
`playwright install`); without them it skips, except with LADDER_REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from frames_support import drawings
from match_support import record_of
from web.conftest import app, build, dispatched, settings  # noqa: F401 (fixtures)

from ladder.db import session_factory
from ladder.games import get_game
from ladder.models import Match
from ladder.play import make_bots, play_game
from ladder.relay.backends import SqlRelay, relay_for, topics
from ladder.services.live import Feed
from ladder.services.viewer import replay_frames

GAME = "drachengold"
TIMEOUT = 60  # seconds a wait may last on a loaded machine: only a ceiling, nothing is timed


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"


class HeldGame:
    """A runner for play_match that plays starter bots in-process, held before its first entry and
    after its `halfway` entry until the test lets it go on."""

    def __init__(self, halfway: int):
        self.halfway = halfway
        self.claimed, self.go, self.at_half, self.resume = (threading.Event() for _ in range(4))
        self.replay = None

    def __call__(self, plan, env):
        game, names, on_entry = plan.game.name, plan.names, env.on_entry
        self.claimed.set()
        assert self.go.wait(TIMEOUT)
        count = 0

        def entry(e):
            nonlocal count
            on_entry(e)
            count += 1
            if count == self.halfway:
                self.at_half.set()
                assert self.resume.wait(TIMEOUT)

        bots = make_bots(game, get_game(game).starter_bots[:len(plan.seats)])
        played = play_game(game, bots, seed=plan.seed, options=plan.options, names=names, on_entry=entry)
        self.replay = played.replay
        seats = [replace(s, bot=names[i]) for i, s in enumerate(played.seats)]
        results = [replace(r, bot=names[r.seat]) for r in played.results]
        return record_of(plan, played.replay.completed(results=results, seats=seats, cgroup=None))


def _feed(relay, match_id) -> Feed:
    feed = Feed(match_id)
    for message in relay.read(topics.public(match_id), limit=1000):
        feed.apply(message)
    return feed


def _open(browser, url):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(TIMEOUT * 1000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return page, errors


def _until_published(relay, match_id, entries: int) -> list:
    """The frames drawn once the worker's publisher has sent `entries` public entries."""
    deadline = time.monotonic() + TIMEOUT
    while (feed := _feed(relay, match_id)).received < entries:
        assert time.monotonic() < deadline, "the publisher never sent the entries"
        time.sleep(0.05)
    stream = feed.draw()
    return stream.frames_from(0) if stream is not None else []


CONTRAST = """(selector) => {
  const style = getComputedStyle(document.querySelector(selector));
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def _contrast(page, selector: str) -> float:
    """WCAG's contrast ratio of an element's text colour against its own background."""
    return page.evaluate(CONTRAST, selector)


def test_two_pages_follow_a_match_live_then_see_its_replay(browser, base_url, app, build, settings, engine):  # noqa: F811
    from ladder.replay.public import public_log
    from workers.queue.jobs import play_match

    game = get_game(GAME)
    seed = 11
    probe = play_game(GAME, make_bots(GAME, game.starter_bots[:game.default_players]), seed=seed).replay
    half = len(probe.log) // 2
    held = HeldGame(halfway=half)
    match_id = build.match(build.starters(GAME)[:game.default_players], game=GAME, seed=seed)
    relay = relay_for(settings, engine=engine)
    assert isinstance(relay, SqlRelay)  # the embedded relay: the ladder's own (migrated) database
    results = []
    worker = threading.Thread(target=lambda: results.append(play_match(
        match_id, sessions=session_factory(engine), settings=settings, worker_id="browser-worker", runner=held,
        relay=relay)), daemon=True)
    worker.start()
    try:
        assert held.claimed.wait(TIMEOUT)
        # the first page, before the first event
        first, first_errors = _open(browser, f"{base_url}/matches/{match_id}")
        first.wait_for_selector("#viewer[data-live-state='waiting']")
        assert first.locator(".viewer-status").inner_text().startswith("Waiting for the first move")

        held.go.set()
        assert held.at_half.wait(TIMEOUT)
        at_half = _until_published(relay, match_id, len(public_log(probe.log[:half])))
        assert len(at_half) > 5
        first.wait_for_selector(f"#viewer[data-live-state='live'][data-frames-count='{len(at_half)}']")
        first.wait_for_selector(f"#viewer[data-step='{len(at_half)}']")  # it followed the live end
        assert first.locator(".frame-title").inner_text() == at_half[-1]["title"]

        # the second page joins halfway: at the live end at once
        second, second_errors = _open(browser, f"{base_url}/matches/{match_id}")
        second.wait_for_selector(f"#viewer[data-live-state='live'][data-frames-count='{len(at_half)}']")
        assert second.get_attribute("#viewer", "data-step") == str(len(at_half))
        assert [li.inner_text() for li in second.locator(".frame-lines li").all()] == at_half[-1]["lines"]
        # the "● live" button is readable: it was red text on the buttons' red (WCAG's 4.5:1 for text)
        assert _contrast(second, ".viewer-controls .live-end") >= 4.5
        second.click("button[aria-label='first step']")  # it looks back: the live end does not pull it
        second.wait_for_selector("#viewer[data-step='1']")
        assert second.locator(".frame-title").inner_text() == at_half[0]["title"]

        # on a phone, the live viewer (with its "● live" button) does not scroll sideways
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.set_default_timeout(TIMEOUT * 1000)
        phone.goto(f"{base_url}/matches/{match_id}")
        phone.wait_for_selector("#viewer[data-live-state='live']")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.close()

        held.resume.set()
        worker.join(TIMEOUT)
        assert not worker.is_alive() and results[0].status == "finished"
        with session_factory(engine)() as session:
            assert session.get(Match, match_id).status == "finished"
        final, at_half = drawings(replay_frames(held.replay, view="public")["frames"]), drawings(at_half)
        assert final[:len(at_half) - 1] == at_half[:-1]  # what was shown live stays as it was
        for page in (first, second):
            page.wait_for_selector(f"#viewer[data-live-state='done'][data-view='public'][data-ready='1']"
                                   f"[data-frames-count='{len(final)}']")
            assert page.locator(".viewer-over a").count() == 1
        assert first.get_attribute("#viewer", "data-step") == str(len(final))  # following: the end
        assert second.get_attribute("#viewer", "data-step") == "1"  # looking back: where it was
        assert not first_errors and not second_errors
    finally:
        held.go.set()
        held.resume.set()
        worker.join(TIMEOUT)
