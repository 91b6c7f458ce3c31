"""The replay viewer on the match page and its frames route (ladder/web/viewer.py): the public view
for everyone, the full view once the match is over, a seat's own view for its owner only, clear
400s for bad input, 404s for what is not there, and no 500."""

from __future__ import annotations

import gzip
import json

from ladder.web import CSP


def _match(build, play, game="treasure"):
    _, mine = build.bot("alice", "alpha", game=game)
    starters = build.starters(game)
    match_id = build.match([mine.id, *starters[:2]], game=game)
    play(match_id)
    return match_id


def test_the_match_page_has_the_viewer_above_a_transcript_collapsed_by_turn(site, build, play):
    match_id = _match(build, play)
    html = site.text(f"/matches/{match_id}")
    viewer = html.split('<section class="viewer"', 1)[1].split("</section>", 1)[0]
    assert f'data-frames="/matches/{match_id}/frames.json"' in viewer and "hidden" in viewer
    assert 'value="seat:' not in viewer  # a visitor has no seat view
    assert "/static/viewer.js" in html and "/games/treasure/viewer.js" in html and "viewer.css" in html
    assert html.index('class="viewer"') < html.index("<h2>Moves</h2>")
    assert html.count('<details class="turn"') > 3 and "<summary><h3>Turn 1: " in html


def test_the_owner_gets_a_seat_view_in_the_page(site, build, play):
    match_id = _match(build, play)
    site.login("alice")
    assert 'value="seat:0"' in site.text(f"/matches/{match_id}")


def test_public_frames_and_the_full_view(client, build, play):
    match_id = _match(build, play, game="drachengold")
    response = client.get(f"/matches/{match_id}/frames.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    assert data["game"] == "drachengold" and data["view"] == "public" and len(data["names"]) == 3
    assert data["frames"] and data["frames"][-1]["title"] == "End"
    assert response.headers["Content-Security-Policy"] == CSP
    assert "public" in response.headers["Cache-Control"] and response.headers["ETag"]
    again = client.get(f"/matches/{match_id}/frames.json", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    everything = client.get(f"/matches/{match_id}/frames.json?view=all").get_json()
    assert everything["view"] == "all" and "over" in everything["note"]
    assert everything["frames"][-1]["scores"] == [r["score"] for r in everything["results"]]
    zipped = client.get(f"/matches/{match_id}/frames.json", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.data)) == data


def _record_runs(sessions, match_id):
    """Give the stored replay's seats what the sandboxed runner records (the fake runner records
    none): a timing per answered request and the clock; the stderr stays stored apart."""
    from dataclasses import replace

    from ladder.models import Replay as StoredReplay
    from ladder.replay import Replay, loads_replay
    from ladder.replay.model import Decision, SandboxRun
    from ladder.services.results import compress_replay
    from ladder.services.stored_replays import stored_replay_bytes

    with sessions() as session:
        row = session.get(StoredReplay, match_id)
        replay = Replay.from_json(loads_replay(stored_replay_bytes(session=session, match_id=match_id)))
        counts = [sum(isinstance(e, Decision) and e.seat == s.seat for e in replay.log) for s in replay.seats]
        logged = len(b"seat 0 says hello <b>from stderr</b>\n")  # the fake runner's stderr, at once
        seats = tuple(replace(s, run=SandboxRun("strict", timings=tuple([12.5, 3.0] for _ in range(n)),
                                                clock={"decision_ms": 1000, "bank_ms": 10000},
                                                stderr_marks=(logged,) * n, stderr_bytes=logged))
                      for s, n in zip(replay.seats, counts, strict=True))
        row.data = compress_replay(replace(replay, seats=seats))[0]
        session.add(row)
        session.commit()


def test_a_seat_view_is_for_its_owner_only(site, other_site, client, build, play, sessions):
    match_id = _match(build, play, game="drachengold")
    _record_runs(sessions, match_id)
    url = f"/matches/{match_id}/frames.json?view=seat&seat=0"
    assert client.get(url).status_code == 404  # a visitor
    other_site.signup("bob")
    assert other_site.client.get(url).status_code == 404  # someone else
    site.login("alice")
    mine = site.client.get(url)
    assert mine.status_code == 200 and mine.get_json()["seat"] == 0
    assert "private" in mine.headers["Cache-Control"]
    # the owner's seat view lists each request the bot answered, its log entry and its times
    decisions = mine.get_json()["decisions"]
    assert decisions and [d["request"] for d in decisions] == list(range(1, len(decisions) + 1))
    assert all(d["wall_ms"] == 12.5 and d["cpu_ms"] == 3.0 and d["bank_left_ms"] == 10000 for d in decisions)
    assert "seat 0 says hello" in decisions[0]["stderr"] and decisions[1]["stderr"] == ""  # its own stderr
    assert "decisions" not in client.get(f"/matches/{match_id}/frames.json").get_json()  # the public's has none
    assert site.client.get(f"/matches/{match_id}/frames.json?view=seat&seat=1").status_code == 404  # a starter's


def test_bad_input_is_a_clear_400_and_missing_things_404(client, build, play):
    match_id = _match(build, play)
    for query, code in (("view=everything", 400), ("seat=abc", 400), ("view=seat", 400), ("seat=-1", 400),
                        ("view=seat&seat=99999999", 400), ("view=seat&seat=9", 404)):
        response = client.get(f"/matches/{match_id}/frames.json?{query}")
        assert response.status_code == code, query
        assert response.get_json()["error"]
    assert client.get("/matches/99999/frames.json").status_code == 404
    _, mine = build.bot("carol", "queued")
    queued = build.match([mine.id, build.starters()[0]])
    assert client.get(f"/matches/{queued}/frames.json").status_code == 404  # no replay yet
    # no replay yet: the viewer is the live one, following the match (ladder/web/live.py)
    assert f'data-live="/matches/{queued}/live.json"' in client.get(f"/matches/{queued}").get_data(as_text=True)
