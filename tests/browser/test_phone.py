"""Every page of the site at phone width (390 x 844, an iPhone 12-15), in headless Chromium: no
page scrolls sideways, nothing is cut off at the right edge (wide content scrolls inside its own
box instead), the header stays short and the page's title shows in the top half of the screen.

The pages come from the app's own URL map: every GET route, its parameters filled from a seeded
site (users and bots with the longest names allowed, a finished match of every game, a forfeit, a
rejected version with its log, a queued match, a finished tournament and one taking entries, an
API token). A route whose parameters
the test cannot fill FAILS the test, so a page added later is checked here or noticed. Pages are
seen as a visitor and logged in (the owner of the bots, an admin); forms are also seen after a
refused submission, and error pages too. Files (JSON, scripts, logs) only have to answer.

Matches are played in-process by the web tests' fake runner (no sandbox), on SQLite. Needs
Debian's chromium and Playwright; see conftest.py. With LADDER_SCREENSHOTS=DIR it saves the phone
screenshots README links to (docs/img/).
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select
from web.conftest import app, build, dispatched, play, settings  # noqa: F401 (fixtures)
from web.helpers import GOOD_BOT, PASSWORD

from ladder.db import session_factory
from ladder.games import GAMES, get_game
from ladder.models import Bot, Match
from ladder.services import bots, dumps, kits, matches, tokens, tournaments
from ladder.services.users import set_admin

WIDTH, HEIGHT = 390, 844
MAX_HEADER = 130  # px: about a seventh of the screen: every link shows, on up to five short rows
SHOTS = os.environ.get("LADDER_SCREENSHOTS")
# The longest names the forms allow (32 and 40 characters), without a place to break a line.
# a viewer is drawn: a replay's frames shown, or a live one showing its feed or that it waits for it
DRAWN = "[data-viewer][data-ready='1'], [data-viewer][data-live-state]"
OWNER = "alice_has_the_longest_name_32chr"
BOT_NAME = "Extremely_Long_Bot_Name_Without_Spaces40"
DESCRIPTION = ("Keeps what it finds; see https://example.org/a/very/long/address/that/does/not/break/"
               "anywhere/on/its/own/at/all for how, and 0123456789abcdef0123456789abcdef0123456789.")

# What the page shows at phone width, measured in the page itself. Overflowing elements are allowed
# only inside a box that scrolls sideways by itself (a wide table, a code block); one clipped by an
# overflow:hidden box is reported as cut off.
MEASURE = """() => {
  const width = window.innerWidth;
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const cut = [], outermost = new Set();
  for (const el of document.body.querySelectorAll('*')) {  // document order: parents first
    const box = el.getBoundingClientRect();
    if (box.width === 0 || (box.right <= width + 0.5 && box.left >= -0.5)) continue;
    if (outermost.has(el.parentElement)) { outermost.add(el); continue; }
    let parent = el.parentElement, scrolls = false;
    while (parent && parent !== document.body) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') { scrolls = true; break; }
      parent = parent.parentElement;
    }
    if (!scrolls) {
      outermost.add(el);
      cut.push(describe(el) + ' spans ' + Math.round(box.left) + '..' + Math.round(box.right));
    }
  }
  const header = document.querySelector('header');
  const title = document.querySelector('main h1');
  const top = title ? title.getBoundingClientRect() : null;
  return {
    page: document.documentElement.scrollWidth, body: document.body.scrollWidth,
    header: header ? header.getBoundingClientRect().height : null,
    title: top && top.height > 0 ? [top.top, top.bottom] : null, cut: cut.slice(0, 8),
  };
}"""


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"


@dataclass
class Seeded:
    values: dict[str, list]  # URL parameter name -> the values to fill it with, the most telling first
    extra: list[str]  # pages no parameter reaches: a queued match (no replay yet)
    token: str  # the owner's API token, for /api/ routes
    owned_seat: tuple[int, int]  # (match id, seat) of one of the owner's seats


def _seed(build, play, engine) -> Seeded:  # noqa: F811
    """A realistic site: a finished match of every game with the longest names, a forfeit, a
    rejected version with its log, a queued match, a finished tournament and one taking entries."""
    sessions = session_factory(engine)
    owner = build.user(OWNER)
    with sessions() as session:
        set_admin(session=session, username=OWNER)  # the organizer's controls and /events/new
    mine, finished = {}, []
    for game in GAMES:
        bot, version = build.bot(OWNER, BOT_NAME, game=game, description=DESCRIPTION)
        rival, theirs = build.bot("bob", f"rival-{game}", game=game)
        mine[game] = (bot, version, [version.id, theirs.id, *build.starters(game)])
        rivals = [rival.id] if game == next(iter(GAMES)) else []
        finished.append(build.match(mine[game][2][: get_game(game).default_players], game=game))
        play(finished[-1])
    quick = min(GAMES, key=lambda g: get_game(g).min_players)  # the fastest to play
    bot, version, seats = mine[quick]
    crashed = build.match(seats[: get_game(quick).min_players], game=quick, seed=11)
    play(crashed, crash=(0,))  # a forfeit with its reason
    queued = build.match(seats[: get_game(quick).min_players], game=quick, seed=3)
    with sessions() as session:  # a rejected version: its reason and the end of its log
        version = bots.add_version(session=session, bot_id=bot.id, code=GOOD_BOT, filename="main.py",
                                   placement_games=0)
        validation = matches.queue_validation_match(session=session, version_id=version.id, seed=5).id
    play(validation, crash=(0,))
    with sessions() as session:
        _, token = tokens.create(session=session, user_id=owner.id, name="a script on a phone",
                                 scopes=["read", "upload"])
        events = [_finished_event(session, play, owner.id, quick, bot.id), _open_event(session, owner.id, mine)]
        assert session.get(Match, queued).status == "queued"
        starter = _house(session, quick)[0]
        seasons = _seasons(session, owner.id, quick, bot.id)
    return Seeded(
        values={"game": list(GAMES), "match_id": [*finished, crashed, validation],
                "bot_id": [bot.id, starter],  # and a starter bot, the house's
                "version_id": [version.id], "username": [OWNER, "house"], "event_id": events,
                "season_id": seasons, "opponent_id": rivals, "number": [1]},
        extra=[f"/matches/{queued}"], token=token, owned_seat=(finished[0], 0))


def _seasons(session, organizer_id, game, bot_id) -> list[int]:
    """An open season, and a closed one with its archived final (the longest names)."""
    from ladder.models import Season, SeasonStanding, SeasonStatus
    from ladder.services.seasons import open_season

    current = open_season(session=session, organizer_id=organizer_id, game=game, name="The winter season of "
                          "the longest names", ends_at=datetime.now(UTC) + timedelta(days=30))
    closed = Season(game=game, name="The autumn season of the longest names", organizer_id=organizer_id,
                    status=SeasonStatus.CLOSED, ends_at=datetime.now(UTC) - timedelta(days=30),
                    closed_at=datetime.now(UTC) - timedelta(days=29))
    session.add(closed)
    session.flush()
    session.add(SeasonStanding(season_id=closed.id, place=1, bot_id=bot_id, name=f"{OWNER}/{BOT_NAME} v1",
                               league=3, rating=1_612_000, matches=480, wins=211, mean_rank=1.71, rank_low=1.52,
                               rank_high=1.9, mean_score=61.4))
    session.commit()
    return [closed.id, current.id]


def _finished_event(session, play, organizer_id, game, bot_id) -> int:  # noqa: F811
    """A round robin played to the end: standings, crosstable, per deal, every match."""
    size = get_game(game).min_players
    event = tournaments.create_event(session=session, organizer_id=organizer_id, name="The autumn cup of "
                                     "the longest names", game=game, table_size=size, deals=1)
    for entrant in [bot_id, *_house(session, game)[:size]]:
        tournaments.add_entrant(session=session, event_id=event.id, bot_id=entrant, acting_user_id=organizer_id)
    tournaments.start_event(session=session, event_id=event.id, acting_user_id=organizer_id)
    while ids := tournaments.feed_events(session=session, slots=20):
        for match_id in ids:
            play(match_id)
    session.refresh(event)
    assert event.status == "finished"
    return event.id


def _open_event(session, organizer_id, mine) -> int:
    game = list(GAMES)[-1]
    event = tournaments.create_event(session=session, organizer_id=organizer_id, name="Spring open",
                                     game=game, table_size=get_game(game).min_players, deals=1)
    tournaments.add_entrant(session=session, event_id=event.id, bot_id=mine[game][0].id, acting_user_id=organizer_id)
    return event.id


def _house(session, game) -> list[int]:
    """The game's starter bots' ids."""
    return session.exec(select(Bot.id).where(Bot.game == game, Bot.builtin.is_not(None)).order_by(Bot.id)).all()


# Routes whose parameters go together, or name a file: filled here. Every other route is filled
# from the seeded values of its parameters by name (one URL per value; all combinations).
def _special(seeded: Seeded, app) -> dict[str, list[dict]]:  # noqa: F811
    match_id, seat = seeded.owned_seat
    first = next(iter(GAMES))
    # the daily dumps of the seeded matches (today's, as the day after would write them)
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    written = dumps.write_daily_dumps(session_factory(app.config["LADDER_ENGINE"]),
                                      app.extensions["ladder"].store, tomorrow, backfill=1)
    return {
        "datasets.download": [{"game": d.game, "filename": d.filename} for d in written],
        "static": [{"filename": "ladder.css"}],
        "game_assets.file": [{"game": first, "filename": "viewer.js"}, {"game": first, "filename": "viewer.css"}],
        "matches.seat_log": [{"match_id": match_id, "seat": seat}],
        "api.seat_log": [{"match_id": match_id, "seat": seat}],
        # every downloadable starter kit (zips: checked for a success answer only)
        "guide.python_kit": [{"game": k.game, "bot": k.bot} for k in kits.python_kits()],
        "guide.language_kit": [{"language": k.language} for k in kits.language_kits()],
        # not walked: a person's table and its updates exist only for a match played in person, and
        # only for that person (tests/browser/test_play.py walks them, at a phone's width too); a
        # seat's websocket and its HTTP long poll are no pages (tests/web/api/test_seat_socket.py)
        # a bot's data: its owner's only (anyone else gets 404, tests/web/test_bot_data.py)
        "bot_data.download": [{"bot_id": b} for b in seeded.values.get("bot_id", [])[:1]],
        "api.bot_data": [{"bot_id": b} for b in seeded.values.get("bot_id", [])[:1]],
        # not walked: an operator's endpoints, no pages (tests/web/test_health.py, test_metrics.py);
        # /readyz is 503 here, where the test app has no broker
        "health.readyz": [],
        "play.table": [],
        "play.updates": [],
        "seats.connect": [],
        "seats.lines": [],
    }


def _urls(app, seeded: Seeded, *, first_only: bool = False) -> list[str]:  # noqa: F811
    """Every GET route's URLs: all combinations of its parameters' values, or only the first value
    of each (`first_only`). Fails naming the routes it cannot fill."""
    special, urls, unfilled = _special(seeded, app), [], []
    values = {name: choices[:1] if first_only else choices for name, choices in seeded.values.items()}
    with app.test_request_context():
        from flask import url_for

        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in rule.methods:
                continue
            if rule.endpoint in special:
                choices = special[rule.endpoint]
            elif all(name in values for name in rule.arguments):
                names = sorted(rule.arguments)
                choices = [dict(zip(names, combination, strict=True))
                           for combination in itertools.product(*(values[n] for n in names))]
            else:
                unfilled.append(f"{rule.rule} ({rule.endpoint})")
                continue
            urls += [url_for(rule.endpoint, **chosen) for chosen in choices]
    assert not unfilled, f"no values for these routes' parameters: teach _seed or _special: {unfilled}"
    return urls + seeded.extra


class Phone:
    """One page at 390 x 844, reused for every URL."""

    def __init__(self, browser, base_url):
        self.base = base_url
        self.context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.checked, self.problems = 0, []

    def visit(self, url: str, *, token: str | None = None, statuses=(200,)) -> None:
        """A page is looked at; a file (JSON, a script, a log) only has to answer."""
        headers = {"Authorization": f"Bearer {token}"} if token and url.startswith("/api/") else {}
        answer = self.page.request.get(self.base + url, headers=headers)
        assert answer.status in statuses, f"{url}: {answer.status}"
        if not answer.headers.get("content-type", "").startswith("text/html"):
            return
        self.page.goto(self.base + url)
        self.check(url)

    def check(self, url: str) -> None:
        """Measure the page shown; what is wrong joins self.problems (all pages are seen, then reported)."""
        if self.page.locator("[data-viewer]").count():  # drawn by its script: measure it drawn
            self.page.wait_for_selector(DRAWN)
        seen = self.page.evaluate(MEASURE)
        self.checked += 1
        wrong = []
        if max(seen["page"], seen["body"]) > WIDTH:
            wrong.append(f"scrolls sideways: the page is {seen['page']}px wide, the body {seen['body']}px")
        if seen["cut"]:
            wrong.append(f"cut off at the edge: {seen['cut']}")
        if seen["header"] is None or seen["header"] > MAX_HEADER:
            wrong.append(f"the header is {seen['header']}px tall")
        if seen["title"] is None:
            wrong.append("no visible <h1> in main")
        elif not (seen["header"] <= seen["title"][0] and seen["title"][1] <= HEIGHT / 2):
            wrong.append(f"the title is at {seen['title']}px, not on the first half screen")
        if self.errors:
            wrong.append(f"script errors: {self.errors}")
            self.errors.clear()
        self.problems += [f"{url}: {text}" for text in wrong]

    def submit(self, url: str, fields: dict[str, str], button: str, files: dict[str, dict] | None = None) -> None:
        """Fill a form and send it; the answer (often a refusal with its reasons) is checked too."""
        self.page.goto(self.base + url)
        for selector, value in fields.items():
            self.page.fill(selector, value)
        for selector, payload in (files or {}).items():
            self.page.set_input_files(selector, payload)
        self.page.get_by_role("button", name=button, exact=True).click()
        self.page.wait_for_load_state()
        self.check(f"{url} after {button!r}")

    def shot(self, url: str, name: str) -> None:
        if SHOTS:
            self.page.goto(self.base + url)
            self.check(url)
            self.page.screenshot(path=str(Path(SHOTS) / f"phone-{name}.png"))


def test_every_page_fits_a_phone(app, browser, base_url, build, play, engine):  # noqa: F811
    seeded = _seed(build, play, engine)
    phone = Phone(browser, base_url)

    for url in _urls(app, seeded, first_only=True):  # a visitor: owner-only pages answer with a login or error page
        phone.visit(url, statuses=(200, 401, 403, 404))
    pages_seen = phone.checked
    for url in ("/no/such/page", "/matches/999999", "/leaderboard/chess"):
        phone.visit(url, statuses=(404,))
    phone.submit("/auth/signup", {"#username": "not a name", "#password": "password1", "#confirm": "other"},
                 "Create account")
    assert phone.page.locator("small.error").count() >= 2
    phone.submit("/auth/login", {"#username": OWNER, "#password": "wrong password"}, "Log in")

    phone.submit("/auth/login", {"#username": OWNER, "#password": PASSWORD}, "Log in")
    assert phone.page.get_by_role("button", name="Log out").is_visible()
    for url in _urls(app, seeded):  # the owner of the bots and an admin: every page answers
        phone.visit(url, token=seeded.token)
    phone.submit("/account/", {"#name": "x" * 40}, "Create a new token")  # the new token and its curl line
    assert phone.page.locator("pre.token").is_visible()
    phone.submit("/bots/upload", {"#name": BOT_NAME}, "Upload",  # refused, with the reason
                 files={"#file": {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a bot"}})
    assert phone.page.locator(".flash.error, small.error").count() >= 1
    phone.submit("/events/new", {"#name": "Cup", "#options": "nonsense"}, "Create")
    assert phone.page.locator(".flash.error, small.error").count() >= 1
    bot_id, match_id = seeded.values["bot_id"][0], seeded.values["match_id"][0]
    for url, name in (("/", "home"), (f"/leaderboard/{seeded.values['game'][0]}", "leaderboard"),
                      (f"/matches/{match_id}", "match"), (f"/bots/{bot_id}", "bot")):
        phone.shot(url, name)
    phone.context.close()
    assert pages_seen >= 15 and phone.checked >= 2 * pages_seen, (pages_seen, phone.checked)
    assert not phone.problems, "\n".join(phone.problems)


def test_every_nav_link_shows_on_a_phone(app, browser, base_url, build):  # noqa: F811
    """Every link of the header is on the screen at phone width, logged in (the most links), today
    and with more links added later: the site's links wrap onto another row instead of scrolling
    sideways behind a fade, which a new author took for a cut-off row."""
    build.user(OWNER)
    phone = Phone(browser, base_url)
    phone.submit("/auth/login", {"#username": OWNER, "#password": PASSWORD}, "Log in")
    visible = """() => [...document.querySelectorAll('header a, header button')].filter((el) => {
      const box = el.getBoundingClientRect();
      return !(box.width > 0 && box.left >= 0 && box.right <= window.innerWidth && box.bottom <= 844);
    }).map((el) => el.textContent.trim())"""
    assert phone.page.evaluate(visible) == []
    assert phone.page.evaluate("document.querySelector('header').getBoundingClientRect().height") <= MAX_HEADER
    phone.page.evaluate("""() => {
      const nav = document.querySelector('header nav');
      for (const word of ['Rules', 'Write a bot', 'API reference', 'Statistics', 'About']) {
        const link = document.createElement('a'); link.href = '#'; link.textContent = word; nav.appendChild(link);
      }
    }""")
    assert phone.page.evaluate(visible) == []
    seen = phone.page.evaluate(MEASURE)
    assert seen["page"] <= WIDTH and not seen["cut"], seen
    phone.context.close()


def test_a_page_the_test_cannot_fill_fails_it(app):  # noqa: F811
    """A route added later with a parameter nobody seeds must fail the phone test, not be skipped."""
    app.add_url_rule("/widgets/<int:widget_id>", "widgets.page", lambda widget_id: "")
    seeded = Seeded(values={"game": list(GAMES)}, extra=[], token="", owned_seat=(1, 0))
    with pytest.raises(AssertionError, match=r"/widgets/<int:widget_id> \(widgets.page\)"):
        _urls(app, seeded)


# A person's table with a decision asked, as the worker writes it (workers/match/seats/person.py):
# per game the first request of seat 0 of these kinds in a seeded game played by default decisions.
TABLE_KINDS = {"drachengold": ("attack", "market_offer"), "treasure": ("flip",), "dragonflame": ("play",)}


def _first_request(game: str, kind: str) -> dict:
    state = get_game(game).new_state({}, 5, 3)
    while (pending := state.pending()) is not None:
        if pending.seat == 0 and pending.kind == kind:
            return state.observation(0)
        state.apply(pending.seat, state.default_decision())
    raise AssertionError(f"no {kind} for seat 0")


def test_a_persons_table_fits_a_phone_with_the_board_and_the_decision_first(app, browser, base_url, build,  # noqa: F811
                                                                         engine):
    """The play page at 390 x 844 with each game's board drawn and a decision asked: nothing cut off,
    and the board's first clickable target (the market has none) and the decision's title within the
    first screen (an attack's and a flip's "Decide" too)."""
    from ladder.relay.backends import relay_for, topics
    from ladder.services import person_seat

    config = app.extensions["ladder"].settings
    build.user(OWNER)
    phone = Phone(browser, base_url)
    phone.submit("/auth/login", {"#username": OWNER, "#password": PASSWORD}, "Log in")
    relay = relay_for(config, engine)
    for game, kinds in TABLE_KINDS.items():
        for kind in kinds:
            with session_factory(engine)() as session:
                owner = session.exec(select(Bot.owner_id).where(Bot.game == game, Bot.retired == False)).first()  # noqa: E712
                house = session.exec(select(Bot.id).where(Bot.game == game, Bot.owner_id == owner,
                                                          Bot.retired == False)).all()  # noqa: E712
                match = person_seat.start(session=session, settings=config, user_id=build.user(OWNER).id,
                                          address=f"phone-{game}-{kind}", game=game, seat=0, opponents=house[:2])
                match_id = match.id
                match.status = "finished"  # the next table is not refused for this one; the page still draws
                session.add(match)
                session.commit()
            observation = _first_request(game, kind)
            relay.publish_many(topics.seat_down(match_id, 0), [
                {"type": "hello", "game": game, "seat": 0, "players": 3, "options": {}, "clock_s": 120},
                {"type": "request", "id": 1, "kind": kind, "observation": observation, "deadline": time.time() + 120}])
            url = f"/play/match/{match_id}"
            phone.page.goto(phone.base + url)
            phone.page.wait_for_selector("form.play-form")
            phone.check(f"{url} ({kind})")
            where = phone.page.evaluate("""() => {
              const top = (sel) => { const el = document.querySelector(sel); return el && el.getBoundingClientRect(); };
              const target = top('.play-board .pickable'), title = top('form.play-form h2'),
                    decide = top('form.play-form button[type=submit]');
              return {target: target && target.bottom, title: title && title.bottom, decide: decide && decide.bottom};
            }""")
            if kind != "market_offer":  # a market is decided in the panel alone
                assert where["target"] is not None and where["target"] <= HEIGHT, (game, kind, where)
            assert where["title"] is not None and where["title"] <= HEIGHT, (game, kind, where)
            if kind in ("attack", "flip"):
                assert where["decide"] <= HEIGHT, (game, kind, where)
            if SHOTS:
                phone.page.screenshot(path=str(Path(SHOTS) / f"phone-play-{game}-{kind}.png"))
    phone.context.close()
    assert not phone.problems, "\n".join(phone.problems)
