"""DragonFlame in the replay viewer: its match page loads the viewer and its drawing, and the
frames route answers each view of a finished match (a seat view only for the seat's owner)."""

from __future__ import annotations


def _match(build, play):
    _, mine = build.bot("alice", "flamer", game="dragonflame")
    match_id = build.match([mine.id, *build.starters("dragonflame")[:2]], game="dragonflame")
    play(match_id)
    return match_id


def test_a_finished_dragonflame_match_has_the_viewer_and_its_frames(site, client, build, play):
    match_id = _match(build, play)
    html = site.text(f"/matches/{match_id}")
    assert 'data-game="dragonflame"' in html and f'data-frames="/matches/{match_id}/frames.json"' in html
    assert "/games/dragonflame/viewer.js" in html and "/games/dragonflame/viewer.css" in html
    assert client.get("/games/dragonflame/viewer.js").status_code == 200
    response = client.get(f"/matches/{match_id}/frames.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    assert data["game"] == "dragonflame" and data["score_label"] == "glory" and len(data["names"]) == 3
    last = data["frames"][-1]
    assert last["title"] == "End"
    assert last["scores"] == [r["score"] for r in sorted(data["results"], key=lambda r: r["seat"])]
    assert all(h["cards"] is None for f in data["frames"] for h in f["table"]["hands"])
    everything = client.get(f"/matches/{match_id}/frames.json?view=all").get_json()
    assert any(h["cards"] for f in everything["frames"] for h in f["table"]["hands"])


def test_a_dragonflame_seat_view_is_for_its_owner(site, client, build, play):
    match_id = _match(build, play)
    url = f"/matches/{match_id}/frames.json?view=seat&seat=0"
    assert client.get(url).status_code == 404
    site.login("alice")
    mine = site.client.get(url)
    assert mine.status_code == 200
    hands = [f["table"]["hands"] for f in mine.get_json()["frames"]]
    assert any(h[0]["cards"] for h in hands) and all(h[1]["cards"] is None and h[2]["cards"] is None for h in hands)
