"""A match whose replay retention pruned still has its page (no 500): its seats and result, and where
its replay went (the day's dump); its replay downloads are 404s, not errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service_support import house_versions, record_played

from ladder.db import session_factory
from ladder.services.retention import Policy, prune


def test_a_pruned_matchs_page_answers_and_points_at_the_dump(client, app, engine):
    sessions = session_factory(engine)
    with sessions() as session:
        versions = house_versions(session, "treasure")[:2]
        match, _ = record_played(session, "treasure", versions, ["careful", "random"],
                                 datetime.now(UTC) - timedelta(days=40), ranked=False)
        match_id = match.id
        prune(session=session, store=app.extensions["ladder"].store, policy=Policy(unranked_days=30))
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    day = (datetime.now(UTC) - timedelta(days=40)).date().isoformat()
    assert "deleted" in html and "retention policy" in html and f"treasure-{day}.zip" in html
    for path in (f"/matches/{match_id}/replay.json", f"/api/v1/matches/{match_id}/replay",
                 f"/matches/{match_id}/frames.json"):
        assert client.get(path).status_code == 404, path
    api = client.get(f"/api/v1/matches/{match_id}")
    assert api.status_code == 200 and api.get_json()["replay"] is None
