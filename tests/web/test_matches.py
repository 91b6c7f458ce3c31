"""The match page: seats, ranks, scores, statuses and reasons, the scoring breakdown, the moves
(the Treasure grid turn by turn, the Drachengold negotiation transcript), the replay download,
and each bot's stderr for its owner only."""

from __future__ import annotations

import json
import re

import pytest

from ladder.replay import loads_replay, verify_replay


def _treasure_match(build, play, crash=()):
    bot, mine = build.bot("alice", "alpha")
    starters = build.starters()
    match_id = build.match([mine.id, *starters[:2]])
    play(match_id, crash=crash)
    return bot, match_id


def test_match_page_shows_seats_results_breakdown_and_the_grid(site, build, play):
    _, match_id = _treasure_match(build, play, crash=(2,))
    html = site.text(f"/matches/{match_id}")
    seats = html.split('<table class="board seats">', 1)[1].split("</table>", 1)[0]
    assert seats.count("<tr") == 4  # header + three seats
    assert ">alpha</a>" in seats and "alice" in seats
    assert "crash" in seats and "ZeroDivisionError" in seats and "forfeit" in seats  # status and reason
    assert re.search(r'class="up">\+\d+\.\d</span>', seats)  # a rated match shows the Elo change
    breakdown = html.split('<table class="board breakdown">', 1)[1].split("</table>", 1)[0]
    for column in ("Dragons", "Spider bonus", "Total"):
        assert f"<th>{column}</th>" in breakdown
    assert "<th>tiles</th>" not in breakdown and "{" not in breakdown  # tile kinds get their own columns
    ranks = [int(r) for r in re.findall(r'<tr><td><span class="muted">(\d+)\.</span>', breakdown)]
    assert len(ranks) == 3 and ranks == sorted(ranks) and ranks[-1] == 3  # rank order: the forfeit last
    setup = html.split('<details class="meta setup">', 1)[1].split("</details>", 1)[0]
    assert "<summary>" in setup and "seed " in setup and "sandbox " in setup
    assert "seed " not in html.split('<p class="meta">', 1)[1].split("</p>", 1)[0]  # only in the collapsed line
    steps = html.split("<h2>Moves</h2>", 1)[1]
    assert "<h3>Turn 1: " in steps and "flips " in steps
    assert steps.count('<table class="grid"') >= 2  # the cave after each turn
    assert 'class="kept' in steps or 'class="flipped' in steps
    assert "replay.json" in html


def test_replay_download_is_a_verifiable_replay_without_bot_logs(site, build, play):
    _, match_id = _treasure_match(build, play)
    response = site.client.get(f"/matches/{match_id}/replay.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert f'filename="match-{match_id}.json"' in response.headers["Content-Disposition"]
    replay = loads_replay(response.data)
    assert verify_replay(replay).ok
    assert all("stderr" not in seat for seat in replay["seats"])
    assert site.client.get("/matches/99999/replay.json").status_code == 404


def test_owner_sees_own_stderr_others_get_404(site, other_site, build, play, sessions):
    site.signup("alice")
    _, match_id = _treasure_match(build, play)
    own = site.client.get(f"/matches/{match_id}/seats/0/log")
    assert own.status_code == 200 and own.mimetype == "text/plain"
    assert "seat 0 says hello" in own.get_data(as_text=True)
    assert site.client.get(f"/matches/{match_id}/seats/1/log").status_code == 404  # the house's seat
    page = site.text(f"/matches/{match_id}")
    assert "only you see this" in page and "seat 0 says hello &lt;b&gt;" in page
    other_site.signup("bob")
    assert other_site.client.get(f"/matches/{match_id}/seats/0/log").status_code == 404
    assert "says hello" not in other_site.text(f"/matches/{match_id}")
    visitor = site.client.application.test_client()
    assert visitor.get(f"/matches/{match_id}/seats/0/log").status_code == 404


def test_drachengold_page_has_the_negotiation_transcript(site, build, play):
    starters = build.starters("drachengold")
    _, mine = build.bot("alice", "haggler", game="drachengold")
    for seed in range(1, 6):  # most games have a shared kill; take the first seed that does
        match_id = build.match([mine.id, *starters[:3]], game="drachengold", seed=seed)
        play(match_id)
        html = site.text(f"/matches/{match_id}")
        if 'class="transcript"' in html:
            break
    else:
        pytest.fail("no negotiation in five seeded games")
    transcript = html.split('class="transcript"', 1)[1].split("</div>", 1)[0]
    assert "Negotiation over D" in transcript and " proposes p" in transcript and " votes: " in transcript
    breakdown = html.split('<table class="board breakdown">', 1)[1].split("</table>", 1)[0]
    assert "<th>Majorities</th>" in breakdown and "counts" not in breakdown and "False" not in breakdown


def test_a_queued_match_page_and_the_match_list(site, build):
    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, build.starters()[0]])
    html = site.text(f"/matches/{match_id}")
    # the live viewer waits for the match (tests/web/test_live.py); no replay before it is played
    assert "queued" in html and f'data-live="/matches/{match_id}/live.json"' in html and "replay.json" not in html
    assert site.client.get(f"/matches/{match_id}/replay.json").status_code == 404
    listing = site.text("/matches/?game=treasure")
    assert f"/matches/{match_id}" in listing and "alpha" in listing
    assert f"/matches/{match_id}" not in site.text("/matches/?game=drachengold")
    assert site.client.get("/matches/?game=chess").status_code == 404
    assert site.client.get("/matches/99999").status_code == 404


def test_api_and_page_agree_on_the_replay(site, build, play):
    _, match_id = _treasure_match(build, play)
    page = site.client.get(f"/matches/{match_id}/replay.json").data
    api = site.client.get(f"/api/v1/matches/{match_id}/replay").data
    assert json.loads(page) == json.loads(api)


def test_treasure_turn_endings_read_as_sentences():
    """Every way the engine ends a turn without keeping anything has a phrase, not a raw code."""
    import re
    from pathlib import Path

    import ladder.games.treasure.rules.state as rules
    from ladder.games.treasure.view.steps import LOST

    reasons = set(re.findall(r'_end_turn\("(\w+)"\)', Path(rules.__file__).read_text())) - {"stop"}
    assert reasons and reasons <= set(LOST), reasons - set(LOST)
    assert all("_" not in phrase for phrase in LOST.values())


def test_match_lists_show_the_winner_and_every_rank(site, build, play, sessions):
    from sqlmodel import select

    from ladder.models import Bot, Seat

    bot, match_id = _treasure_match(build, play, crash=(2,))
    with sessions() as session:
        ranked = session.exec(select(Seat.rank, Bot.name).join(Bot, Bot.id == Seat.bot_id)
                              .where(Seat.match_id == match_id).order_by(Seat.rank, Seat.seat)).all()
    winner, last = ranked[0][1], ranked[-1]
    for html in (site.text("/"), site.text("/matches/")):
        row = html.split(f'/matches/{match_id}"', 1)[1].split("</tr>", 1)[0]
        assert f'<strong title="winner">{winner}</strong>' in row
        assert re.search(rf'{last[0]}\.</span>\s*{re.escape(last[1])}', row)  # the forfeit: last, with its rank
        names = re.findall(r"(\d)\.</span>\s*(?:<strong[^>]*>)?([\w.-]+)", row)
        assert names == [(str(rank), name) for rank, name in ranked]  # rank order, not seat order
    page = site.text(f"/bots/{bot.id}")
    recent = page.split("<h2>Recent matches</h2>", 1)[1].split("</table>", 1)[0]
    row = recent.split(f'/matches/{match_id}"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r'class="(up|down)?">[+-]\d+\.\d</span>', row)  # its Elo change in this match
    opponents = [name for _, name in ranked if name != "alpha"]
    assert re.findall(r'/bots/\d+">([^<]+)</a>', row) == opponents


def test_a_finished_match_page_renders_its_replay_once_and_never_caches_personal_parts(
        site, other_site, build, play, monkeypatch):
    import ladder.web.matches as matches_view

    site.signup("alice")
    _, match_id = _treasure_match(build, play)
    calls = []
    real = matches_view.steps
    monkeypatch.setattr(matches_view, "steps", lambda *args: calls.append(args) or real(*args))
    owners = site.text(f"/matches/{match_id}")
    others = other_site.text(f"/matches/{match_id}")
    again = other_site.text(f"/matches/{match_id}")
    assert len(calls) == 1  # the second and third views did not decompress or render the replay
    assert others.split("<h2>Scoring</h2>", 1)[1] == again.split("<h2>Scoring</h2>", 1)[1]
    for part, end in (("<h2>Scoring</h2>", "</table>"), ("<h2>Moves</h2>", "</ol>")):  # the owner's: the same
        assert owners.split(part, 1)[1].split(end)[0] == others.split(part, 1)[1].split(end)[0]
    assert "<h3>Turn 1: " in others
    assert "only you see this" in owners and "says hello" not in others + again  # the owner's log stays theirs
    assert 'href="/users/me"' not in others  # nobody's login header leaks: bob is logged out here


def test_a_running_match_is_not_cached(site, build, monkeypatch):
    import ladder.web.matches as matches_view

    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, build.starters()[0]])
    calls = []
    real = matches_view.render_public_parts
    monkeypatch.setattr(matches_view, "render_public_parts", lambda view: calls.append(view) or real(view))
    site.text(f"/matches/{match_id}")
    site.text(f"/matches/{match_id}")
    assert len(calls) == 2


def test_the_replay_download_sends_the_stored_gzip_or_streams_it_decompressed(site, build, play, sessions):
    import gzip

    from ladder.models import Replay

    _, match_id = _treasure_match(build, play)
    from ladder.services.stored_replays import stored_replay_bytes

    with sessions() as session:
        row = session.get(Replay, match_id)
        stored = row.data if not row.compact else gzip.compress(stored_replay_bytes(session=session, match_id=match_id))
    url = f"/matches/{match_id}/replay.json"
    zipped = site.client.get(url, headers={"Accept-Encoding": "br, gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == gzip.decompress(stored)  # the stored replay, untouched
    for headers in ({}, {"Accept-Encoding": "gzip;q=0, identity"}):
        plain = site.client.get(url, headers=headers)
        assert plain.is_streamed and "Content-Encoding" not in plain.headers
        assert plain.data == gzip.decompress(stored)
        assert verify_replay(loads_replay(plain.data)).ok


def test_a_validation_game_whose_build_failed_says_so(site, build, engine):
    """The bot's compiler error, not "a failure on our side", and no seat left "waiting"."""
    from web.helpers import GOOD_BOT

    from ladder.db import session_factory
    from ladder.services import bots, builds, matches

    bot, _ = build.bot("alice", "rusty")
    with session_factory(engine)() as session:
        version = bots.add_version(session=session, bot_id=bot.id, code=GOOD_BOT, filename="main.py",
                                   placement_games=0)
        match_id = matches.queue_validation_match(session=session, version_id=version.id, seed=5).id
        builds.reject_unbuildable(session=session, match_id=match_id, version_id=version.id,
                                  reason="the rust build failed: error[E0425]: cannot find value `x`")
    html = site.text(f"/matches/{match_id}")
    assert "on our side" not in html and ">waiting<" not in html
    assert f"bot version {version.id} did not build, so the match was not played" in html
    seats = html.split('<table class="board seats">', 1)[1].split("</table>", 1)[0]
    assert ">did not build<" in seats and "error[E0425]: cannot find value `x`" in seats
    assert ">not played<" in seats  # the other seats: nothing more will happen to them
    api = site.client.get(f"/api/v1/matches/{match_id}").get_json()
    assert "did not build" in json.dumps(api) and "on our side" not in json.dumps(api)


def test_an_order_of_a_duplicate_deal_shows_no_seed_or_replay_until_the_deal_is_over(site, build, play, sessions):
    """#39: the first seat order to finish published its seed and whole replay while the deal's
    other order was queued. Its page, downloads and API answers now wait for the deal."""
    from ladder.services import tournaments, users

    organizer = build.user("org")
    entrants = [build.bot("org", name)[0] for name in ("alpha", "beta")]
    with sessions() as session:
        users.set_admin(session=session, username="org")
        ev = tournaments.create_event(session=session, organizer_id=organizer.id, name="cup", game="treasure",
                                      table_size=2, deals=1)
        for bot in entrants:
            tournaments.add_entrant(session=session, event_id=ev.id, bot_id=bot.id, acting_user_id=organizer.id)
        tournaments.start_event(session=session, event_id=ev.id, acting_user_id=organizer.id)
        first, second = tournaments.feed_events(session=session, slots=2)
    play(first)
    html = site.text(f"/matches/{first}")
    assert "held until every seat order of its deal has been played" in html and "seed " not in html
    assert "<h2>Moves</h2>" not in html
    assert site.client.get(f"/matches/{first}/replay.json").status_code == 404
    answer = site.client.get(f"/api/v1/matches/{first}").get_json()
    assert answer["match"]["status"] == "finished" and answer["match"]["seed"] is None and answer["replay"] is None
    assert site.client.get(f"/api/v1/matches/{first}/replay").status_code == 404
    listed = {m["id"]: m for m in site.client.get("/api/v1/matches?game=treasure").get_json()["matches"]}
    assert listed[first]["seed"] is None
    play(second)
    html = site.text(f"/matches/{first}")
    assert "held until" not in html and "seed " in html and "<h2>Moves</h2>" in html
    assert site.client.get(f"/matches/{first}/replay.json").status_code == 200
    assert site.client.get(f"/api/v1/matches/{first}").get_json()["match"]["seed"] is not None


def test_the_owners_replay_download_carries_their_stderr_and_still_verifies(site, other_site, build, play):
    site.signup("alice")
    _, match_id = _treasure_match(build, play)
    response = site.client.get(f"/matches/{match_id}/replay.json")
    assert response.status_code == 200 and "private" in response.headers["Cache-Control"]
    replay = loads_replay(response.data)
    assert "seat 0 says hello" in replay["seats"][0]["stderr"] and verify_replay(replay).ok
    assert all("stderr" not in seat for seat in replay["seats"][1:])
    other_site.signup("bob")
    theirs = loads_replay(other_site.client.get(f"/matches/{match_id}/replay.json").data)
    assert all("stderr" not in seat for seat in theirs["seats"])
