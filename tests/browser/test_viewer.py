"""The replay viewer in headless Chromium: a finished match of each game, stepped with the buttons,
the keys, the scrub bar and #step=N, checked against the replay the page offers for download (which
tiles are face up, which dragons are on the table, a negotiation round's proposals and votes), and
the match page at 390 px wide, which must not scroll sideways.

Matches are played in-process by the web tests' fake runner (the starter bots, no sandbox), on
SQLite: this test is about the page, the database tests run elsewhere. Needs Debian's chromium
and Playwright for Python (never `playwright install`); without them it skips, except with
LADDER_REQUIRE_SERVICES=1 (CI), where it fails. With LADDER_SCREENSHOTS=DIR it also saves the
screenshots README links to (docs/img/).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from web.conftest import app, build, dispatched, play, settings  # noqa: F401 (fixtures)

SHOTS = os.environ.get("LADDER_SCREENSHOTS")
LETTERS = "ABCDEFG"


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"


def _open(browser, url, width=1200, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#viewer[data-ready='1']")
    return page, errors


def _replay(page, base_url, match_id):
    response = page.request.get(f"{base_url}/matches/{match_id}/replay.json")
    assert response.ok
    return json.loads(response.body())


def _step(page) -> int:
    return int(page.get_attribute("#viewer", "data-step"))


def _no_sideways_scroll(browser, url):
    page, errors = _open(browser, url, width=390, height=844)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide at 390px"
    assert not errors
    return page


# --- Treasure of the Dragons -----------------------------------------------------------------


def _treasure_expected(replay):
    """Per frame (the viewer makes one per game_start/flip/keep/turn_end/spider_move/game_end):
    the names of the squares face up and the tiles each seat has won."""
    face_up, won, out = set(), [0] * replay["players"], []
    for entry in replay["log"]:
        kind, d = entry.get("type"), entry.get("data", {})
        if kind in ("turn_start", "turn_end"):
            face_up = set()
        elif kind == "flip":
            r, c = d["square"]
            face_up.add(f"{LETTERS[c]}{r + 1}")
        elif kind == "keep":
            face_up -= {f"{LETTERS[c]}{r + 1}" for r, c in d["squares"]}
            won[d["seat"]] += sum(d["tiles"].values())
        elif kind == "game_end":
            won = list(d["scores"])  # the spider bonus, when someone gets it
        if kind in ("game_start", "flip", "keep", "turn_end", "spider_move", "game_end"):
            out.append((set(face_up), list(won)))
    return out


def _board_matches(page, expected, step):
    face_up, won = expected[step - 1]
    assert _step(page) == step
    shown = set(page.eval_on_selector_all("table.cave td[data-state='up']",
                                          "cells => cells.map(c => c.dataset.square)"))
    assert shown == face_up, f"step {step}"
    totals = page.eval_on_selector_all("table.tile-counts tbody td.strong", "cells => cells.map(c => +c.textContent)")
    assert totals == won, f"step {step}"


def test_treasure_viewer_steps_through_a_match(browser, base_url, build, play):  # noqa: F811
    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    page, errors = _open(browser, f"{base_url}/matches/{match_id}#step=6")
    expected = _treasure_expected(_replay(page, base_url, match_id))
    assert page.get_attribute("#viewer", "data-frames-count") == str(len(expected))
    heads = page.eval_on_selector_all("table.cave thead th", "cells => cells.map(c => c.textContent)")
    rows = page.eval_on_selector_all("table.cave tbody th", "cells => cells.map(c => c.textContent)")
    assert heads[1:] == list(LETTERS) and rows == [str(r) for r in range(1, 8)]
    _board_matches(page, expected, 6)
    for _ in range(3):  # the keyboard
        page.keyboard.press("ArrowRight")
    _board_matches(page, expected, 9)
    assert page.evaluate("location.hash") == "#step=9"
    page.click("button[aria-label='previous step']")
    _board_matches(page, expected, 8)
    page.evaluate("location.hash = '#step=12'")  # a link to a step on the same page
    page.wait_for_selector("#viewer[data-step='12']")
    _board_matches(page, expected, 12)
    middle = len(expected) // 2  # the scrub bar
    page.eval_on_selector(".scrub", f"(el) => {{ el.value = '{middle}'; el.dispatchEvent(new Event('input')); }}")
    _board_matches(page, expected, middle)
    page.keyboard.press("End")
    _board_matches(page, expected, len(expected))
    page.click("button[aria-label='first step']")
    page.select_option("select.speed", "8")
    page.click("button.play")  # play runs on by itself, pause stops it
    for _ in range(100):  # wait_for_function would eval a string, which the CSP forbids
        if _step(page) >= 4:
            break
        page.wait_for_timeout(50)
    assert _step(page) >= 4
    page.click("button.play")
    stopped = _step(page)
    page.wait_for_timeout(400)
    assert _step(page) == stopped
    _board_matches(page, expected, stopped)
    assert page.locator("svg.score-chart polyline.series").count() == 3
    assert page.locator("details.turn").count() > 3  # the transcript stays, collapsed by turn
    assert not errors
    if SHOTS:
        page.goto(f"{base_url}/matches/{match_id}#step=60")
        page.reload()
        page.wait_for_selector("#viewer[data-ready='1']")
        page.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-treasure-desktop.png"))
    phone = _no_sideways_scroll(browser, f"{base_url}/matches/{match_id}#step=60")
    if SHOTS:
        phone.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-treasure-phone.png"))


# --- Drachengold -----------------------------------------------------------------------------


def _public_frames(replay):
    """The public view's frames: one per public event but the turn markers."""
    return [e for e in replay["log"] if "type" in e and e["to"] is None and e["type"] != "turn"]


def _dragons_standing(events, upto):
    table, slain = {}, set()
    for e in events[:upto]:
        d = e["data"]
        if e["type"] == "setup":
            table = {i: x["id"] for i, x in enumerate(d["dragons"])}
        elif e["type"] == "dragon":
            table[d["slot"]] = d["id"]
        elif e["type"] == "kill":
            slain.add(d["dragon"])
    return set(table.values()) - slain


def _dragons_shown(page):
    return set(page.eval_on_selector_all(".dg .dragon[data-dragon]:not(.slain)",
                                         "els => els.map(e => e.dataset.dragon)"))


def test_drachengold_viewer_shows_the_table_and_a_negotiation(browser, base_url, build, play):  # noqa: F811
    _, mine = build.bot("alice", "haggler", game="drachengold")
    starters = build.starters("drachengold")
    for seed in range(1, 12):  # most games have a shared kill; take the first seed that does
        match_id = build.match([mine.id, *starters[:3]], game="drachengold", seed=seed)
        play(match_id)
        page, errors = _open(browser, f"{base_url}/matches/{match_id}")
        replay = _replay(page, base_url, match_id)
        events = _public_frames(replay)
        if any(e["type"] == "proposals" for e in events):
            break
        page.close()
    else:
        pytest.fail("no negotiation in eleven seeded games")
    assert page.get_attribute("#viewer", "data-frames-count") == str(len(events))
    assert _dragons_shown(page) == _dragons_standing(events, 1)
    kill = next(i for i, e in enumerate(events) if e["type"] == "kill") + 1
    for step in (kill - 1, kill, kill + 3):  # #step=N, then the dragons the events leave standing
        page.goto(f"{base_url}/matches/{match_id}#step={step}")
        page.reload()
        page.wait_for_selector("#viewer[data-ready='1']")
        assert _step(page) == step
        assert _dragons_shown(page) == _dragons_standing(events, step), f"step {step}"

    proposals = next(i for i, e in enumerate(events) if e["type"] == "proposals") + 1
    page.goto(f"{base_url}/matches/{match_id}#step={proposals}")
    page.reload()
    page.wait_for_selector("#viewer[data-ready='1']")
    event = events[proposals - 1]["data"]
    last_round = page.locator(".negotiation .round").last
    assert last_round.get_attribute("data-round") == str(event["round"])
    shown = last_round.locator(".proposal").evaluate_all(
        "els => els.map(e => [e.dataset.proposal, +e.dataset.proposer])")
    assert shown == [[p["id"], p["proposer"]] for p in event["proposals"]]
    assert last_round.locator(".votes").count() == 0  # nobody has voted yet
    page.keyboard.press("ArrowRight")
    votes = events[proposals]
    assert votes["type"] == "votes"
    accepted = last_round.locator(".proposal .votes").evaluate_all("els => els.map(e => e.dataset.accepted)")
    expected = [",".join(str(s) for s in sorted(int(k) for k, ids in votes["data"]["votes"].items() if p["id"] in ids))
                for p in event["proposals"]]
    assert accepted == expected

    seats = page.locator(".dg .seat-panel").count()
    assert seats == 4 and page.locator(".viewer-legend .seat-tag").count() == 4
    page.select_option("select.view", "all")  # after the end everything may be shown, and says so
    page.wait_for_selector("#viewer[data-ready='1'][data-view='all']")
    assert "over" in page.inner_text(".viewer-note")
    assert not errors
    if SHOTS:
        page.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-drachengold-desktop.png"))
    phone = _no_sideways_scroll(browser, f"{base_url}/matches/{match_id}#step={proposals + 1}")
    if SHOTS:
        phone.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-drachengold-phone.png"))


def test_ladder_replay_view_opens_a_local_file_in_the_same_viewer(browser):
    from ladder.cli.replay import make_server
    from ladder.games.drachengold.view.frames import frames
    from ladder.replay import Replay, load_replay

    replay = Replay.from_json(load_replay(Path(__file__).parents[1] / "golden" / "drachengold-advanced-b-seed3.json"))
    server = make_server(replay, "local")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page, errors = _open(browser, f"http://127.0.0.1:{server.server_address[1]}/#step=5")
        assert _step(page) == 5
        page.select_option("select.view", "seat:1")  # a local file is yours: every seat's view
        page.wait_for_selector("#viewer[data-ready='1'][data-view='seat']")
        mine = frames(replay, 1)
        assert page.get_attribute("#viewer", "data-frames-count") == str(len(mine))
        page.keyboard.press("End")
        shown = page.eval_on_selector_all(".dg .seat-panel .hoard", "els => els.map(e => +e.dataset.size)")
        assert shown == [h["size"] for h in mine[-1]["board"]["hoards"]]
        assert not errors
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- DragonFlame -----------------------------------------------------------------------------


def _dragonflame_expected(replay):
    """Per public frame (one per public event): cards on each castle, fire tokens on the grid and
    each hoard's size, counted from the replay's events."""
    castles, fire, hoards, out = {}, 0, [0] * replay["players"], []
    for entry in replay["log"]:
        if "type" not in entry or entry["to"] is not None:
            continue
        kind, d = entry["type"], entry["data"]
        if kind == "round":
            castles = {c["number"]: 0 for c in d["castles"]}
        elif kind == "play" and d["castle"] is not None:
            castles[d["castle"]] += 1
        elif kind in ("attack", "castle_discarded"):
            castles[d["castle"]["number"]] = 0
        if kind == "attack":
            hoards[d["seat"]] += sum(c["category"] != "dragonflame" for c in d["cards"])
        elif kind == "second_discarded":
            hoards[d["seat"]] -= 1
        elif kind == "relic":
            hoards[d["seat"]] -= len(d.get("discarded", []))
        elif kind == "flame":
            fire += len(d["placed"])
        out.append((dict(castles), fire, list(hoards)))
    return out


def _dragonflame_matches(page, expected, step):
    castles, fire, hoards = expected[step - 1]
    assert _step(page) == step
    shown = page.eval_on_selector_all("#viewer .df-castle",
                                      "els => els.map(e => [+e.dataset.castle, +e.dataset.cards])")
    assert dict(shown) == castles, f"step {step}"
    burnt = page.eval_on_selector_all("#viewer .df-grid td", "els => els.reduce((n, e) => n + +e.dataset.fire, 0)")
    assert burnt == fire, f"step {step}"
    assert page.eval_on_selector_all("#viewer .df-hoard", "els => els.map(e => +e.dataset.cards)") == hoards
    downs = page.eval_on_selector_all("#viewer .df-stack .df-down", "els => els.map(e => e.firstChild.textContent)")
    assert all(text == "a hidden card" for text in downs)  # the public view


def test_dragonflame_viewer_steps_through_a_match(browser, base_url, build, play):  # noqa: F811
    _, mine = build.bot("alice", "flamer", game="dragonflame")
    match_id = build.match([mine.id, *build.starters("dragonflame")[:2]], game="dragonflame")
    play(match_id)
    page, errors = _open(browser, f"{base_url}/matches/{match_id}#step=8")
    expected = _dragonflame_expected(_replay(page, base_url, match_id))
    assert page.get_attribute("#viewer", "data-frames-count") == str(len(expected))
    _dragonflame_matches(page, expected, 8)
    assert page.locator("#viewer .df-stack .df-card").count() > 0
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    _dragonflame_matches(page, expected, 13)
    if SHOTS:
        page.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-dragonflame-round.png"))
    flame = next((i for i, e in enumerate(expected) if e[1]), len(expected) - 1) + 1
    page.eval_on_selector(".scrub", f"(el) => {{ el.value = '{flame}'; el.dispatchEvent(new Event('input')); }}")
    _dragonflame_matches(page, expected, flame)
    page.keyboard.press("End")
    _dragonflame_matches(page, expected, len(expected))
    assert page.locator("#viewer .df-breakdown tbody tr").count() == 3
    # one colour per seat: each dragon's name chip (in its row and in the legend) is its fire token's
    # colour (the chips took the site's seat palette, the tokens the game's fire colours)
    rows = page.eval_on_selector_all("#viewer .df-dragons:not(.df-breakdown) tbody tr", """rows => rows.map(r => [
        getComputedStyle(r.querySelector('.df-token')).backgroundColor,
        getComputedStyle(r.querySelector('.seat-tag')).backgroundColor])""")
    assert len(rows) == 3 and all(token == chip for token, chip in rows), rows
    assert len({token for token, _ in rows}) == 3
    legend = page.eval_on_selector_all("#viewer .viewer-legend .seat-tag",
                                       "els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert legend == [token for token, _ in rows], legend
    page.select_option("select.view", "all")
    page.wait_for_selector("#viewer[data-ready='1'][data-view='all']")
    assert page.locator("#viewer .df-dragons .df-hand").count() == 3
    assert not errors
    if SHOTS:
        page.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-dragonflame-desktop.png"))
    _no_sideways_scroll(browser, f"{base_url}/matches/{match_id}#step=20")


# --- the owner's answers follow the steps ------------------------------------------------------


def _talk_per_request(sessions, match_id, seat=0):
    """What the sandboxed runner records for a bot that writes one stderr line per request (the
    fake runner plays in process and records none): a timing per answer, the clock, and the byte
    marks of its stderr at each answer, with the log stored apart as the worker stores it. Written
    here rather than by a sandboxed bot because a real runner's drain thread may let a line fall to
    the next answer (tests/workers/match/test_runner.py checks that runner); this test is the page's."""
    from dataclasses import replace

    from ladder.models import BotLog
    from ladder.models import Replay as StoredReplay
    from ladder.replay import Replay, loads_replay
    from ladder.replay.model import Decision, SandboxRun
    from ladder.services.results import compress_replay
    from ladder.services.stored_replays import stored_replay_bytes

    with sessions() as session:
        row = session.get(StoredReplay, match_id)
        replay = Replay.from_json(loads_replay(stored_replay_bytes(session=session, match_id=match_id)))
        kinds = [e.kind for e in replay.log if isinstance(e, Decision) and e.seat == seat]
        lines = [f"request {k} <{kind}> thinking\n" for k, kind in enumerate(kinds, 1)]
        marks = [sum(len(x.encode()) for x in lines[:k]) for k in range(1, len(lines) + 1)]
        run = SandboxRun("strict", timings=tuple([10.0 + k, 2.0] for k in range(len(kinds))),
                         clock={"decision_ms": 1000, "bank_ms": 10000}, stderr_marks=tuple(marks),
                         stderr_bytes=marks[-1])
        seats = tuple(replace(s, run=run) if s.seat == seat else s for s in replay.seats)
        row.data = compress_replay(replace(replay, seats=seats))[0]
        log = session.get(BotLog, (match_id, seat)) or BotLog(match_id=match_id, seat=seat, text="")
        log.text = "".join(lines)
        session.add_all([row, log])
        session.commit()


def _shown_request(page) -> int:
    return int(page.get_attribute(".viewer-answer", "data-request"))


def test_the_owners_seat_view_shows_the_stderr_of_the_request_at_each_step(
        browser, base_url, build, play, engine):  # noqa: F811
    from browser.test_bot_page import owners_seat_view

    from ladder.db import session_factory

    _, mine = build.bot("alice", "talker")
    match_id = build.match([mine.id, *build.starters()[:2]], seed=4)
    play(match_id)
    _talk_per_request(session_factory(engine), match_id)
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    owners_seat_view(page, base_url, match_id, "alice")
    # independently of the page: the log index of each of seat 0's requests, and of each step's event
    log = _replay(page, base_url, match_id)["log"]
    asked = [i for i, e in enumerate(log) if "decision" in e and e["seat"] == 0]
    steps = [i for i, e in enumerate(log) if "type" in e and e["type"] in
             ("game_start", "flip", "keep", "turn_end", "spider_move", "game_end")]
    page.click("button[aria-label='first step']")
    seen = set()
    for step in range(1, 41):
        assert _step(page) == step
        latest = sum(1 for i in asked if i <= steps[step - 1])  # requests answered by this step's event
        assert _shown_request(page) == latest, f"step {step}"
        panel = page.inner_text(".viewer-answer")
        if latest:
            before = steps[step - 2] if step > 1 else -1
            answered_here = [k for k, i in enumerate(asked, 1) if before < i <= steps[step - 1]]
            pieces = page.eval_on_selector_all(".viewer-answer pre", "els => els.map(e => e.textContent)")
            # each answer's own line (as text: "<flip>" is no tag), none other
            assert [p.split(" <")[0] for p in pieces] == [f"request {k}" for k in answered_here or [latest]], step
            assert f"request {latest + 1} <" not in panel and "of 1000 ms" in panel
            assert page.text_content(".viewer-decisions tr.current td:first-child") == str(latest)  # the table follows
            seen.add(latest)
        else:
            assert "No request answered yet" in panel
        page.click("button[aria-label='next step']")
    assert len(seen) > 5
    page.click(".viewer-decisions summary")  # a request in the table jumps to the step showing it
    page.click(".viewer-decisions button[aria-label='show the step of request 3']")
    target = next(s for s, i in enumerate(steps, 1) if i >= asked[2])
    assert _step(page) == target and _shown_request(page) == 3
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the panel goes under the board
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".viewer-answer").bounding_box()["y"] > page.locator(".viewer-board").bounding_box()["y"]
    assert not errors
    if SHOTS:
        page.click("button[aria-label='next step']")
        page.locator("#viewer").screenshot(path=str(Path(SHOTS) / "viewer-seat-answers-1366.png"))
    page.close()
