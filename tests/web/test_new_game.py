"""A new game is one package plus one registry line, its view included (issue #25's done-when).

The toy game (tests/toygame/: rules/, view/ with its timeline, step list, frames, page partial and
viewer script) is registered by the one GAMES line below and nothing else; the real site then shows
its page, its rules, a played match's steps drawn by its own partial, its viewer script, and its
frames in every view, with what each view may see."""

from __future__ import annotations

import re

import pytest

import ladder.games
from ladder.web.catalog import game_titles


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    """Before the app is built (autouse fixtures come first): the game's one registry line."""
    monkeypatch.setitem(ladder.games.GAMES, "toy", "toygame:ToyGame")
    # the site keeps its list of games once made (a process's registry never changes): an earlier
    # test in this process may have made it without the toy
    game_titles.cache_clear()
    yield
    game_titles.cache_clear()


def _match(build, play):
    _, mine = build.bot("alice", "nimble", game="toy")
    starters = build.starters("toy")
    assert len(starters) == 5  # its house bots were seeded from its own package
    match_id = build.match([mine.id, *starters[1:3]], game="toy", seed=3)
    play(match_id)
    return match_id


def test_the_game_has_its_pages_on_the_site(client):
    assert "Toy Nim" in client.get("/").get_data(as_text=True)
    board = client.get("/leaderboard/toy")
    assert board.status_code == 200 and "Toy Nim" in board.get_data(as_text=True)
    rules = client.get("/games/toy/rules")
    assert rules.status_code == 200 and "secret number" in rules.get_data(as_text=True)  # its rules.md
    script = client.get("/games/toy/viewer.js")
    assert script.status_code == 200 and 'LadderViewer.register("toy", draw)' in script.get_data(as_text=True)
    assert client.get("/games/toy/viewer.css").status_code == 200
    assert client.get("/games/toy/../__init__.py").status_code == 404  # only its view/static/ is served


def test_a_played_match_shows_its_steps_drawn_by_the_game_and_its_viewer(site, build, play):
    match_id = _match(build, play)
    html = site.text(f"/matches/{match_id}")
    viewer = html.split('<section class="viewer"', 1)[1].split("</section>", 1)[0]
    assert 'data-game="toy"' in viewer and f'data-frames="/matches/{match_id}/frames.json"' in viewer
    assert "/games/toy/viewer.js" in html and "/games/toy/viewer.css" in html
    moves = html.split("<h2>Moves</h2>", 1)[1]
    titles = re.findall(r"<summary><h3>([^<]+)</h3></summary>", moves)
    assert titles == ["Setup", "Taking", "Betting", "End"]  # the game's sections (view/steps.py)
    assert moves.count('class="toy-table"') == 4  # each drawn by its own partial (view/templates/)
    assert " takes " in moves and "is dealt the secret" not in moves  # its sentences; no secret told


def test_its_frames_show_each_view_what_it_may_see(site, client, build, play):
    match_id = _match(build, play)
    public = client.get(f"/matches/{match_id}/frames.json").get_json()
    assert public["game"] == "toy" and public["score_label"] == "counters"
    frames = public["frames"]
    assert list(dict.fromkeys(f["title"] for f in frames)) == ["Setup", "Taking", "Betting", "End"]
    assert frames[-1]["scores"] == [r["score"] for r in sorted(public["results"], key=lambda r: r["seat"])]
    before_end = [f for f in frames if f["title"] != "End"]
    assert all(s is None for f in before_end for s in f["table"]["secrets"])  # no secret before the reveal
    assert all(b in ("", "made") for f in frames for b in f["table"]["bets"])  # no bet's side, ever
    assert frames[-1]["table"]["pile"] == 0 and sum(frames[-1]["table"]["taken"]) == 12

    everything = client.get(f"/matches/{match_id}/frames.json?view=all").get_json()["frames"]
    assert len(everything) == len(frames)  # the same public moments, more known in each
    assert all(s is not None for s in everything[0]["table"]["secrets"])
    assert all(b in ("high", "low") for b in everything[-1]["table"]["bets"])

    url = f"/matches/{match_id}/frames.json?view=seat&seat=0"
    assert client.get(url).status_code == 404  # a visitor: no seat view
    site.login("alice")
    mine = site.client.get(url).get_json()["frames"]
    first = mine[0]["table"]
    assert first["secrets"][0] is not None and first["secrets"][1:] == [None, None]
    assert mine[-1]["table"]["bets"][0] in ("high", "low") and mine[-1]["table"]["bets"][1:] == ["made", "made"]
    # each frame names the log entry it was drawn after (the owner's decisions follow the steps by it):
    # the public moments in order, the seat's own secret joining the frame before it
    log = client.get(f"/matches/{match_id}/replay.json").get_json()["log"]
    public_moments = [i for i, e in enumerate(log) if "type" in e and e.get("to") is None]
    assert [f["entry"] for f in frames] == public_moments
    for view, seat in ((everything, None), (mine, 0)):
        entries = [f["entry"] for f in view]
        assert entries == sorted(set(entries)) and entries[0] > public_moments[0]  # the secrets, after the start
        assert all(a <= b for a, b in zip(public_moments, entries, strict=True))
        assert all(seat is None or log[i].get("to") in (None, [seat]) for i in entries)
