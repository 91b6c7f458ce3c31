"""The scorecard API (ladder/web/api/scorecards.py): per bot, per version, per opponent; 404s
with a JSON error. `played` is tests/web/conftest.py's."""

from __future__ import annotations

import pytest


def test_the_api_gives_the_bot_its_versions_and_its_opponents(client, played, sessions):
    from ladder.models import BotVersion

    bot, _ids, starters = played
    card = client.get(f"/api/v1/bots/{bot.id}/scorecard").get_json()
    assert card["matches"] == 5 and card["latest_version"]["number"] == 2 and card["latest_version"]["matches"] == 2
    assert card["matches_by_players"] == {"2": 2, "3": 3}
    bust = card["measures"]["bust_rate"]
    assert set(bust) == {"value", "latest_version", "winners", "by_players"} and set(bust["by_players"]) == {"2", "3"}
    assert card["definitions"]["bust_rate"]["doc"] == "/docs/scorecard#treasure-bust-rate"
    v1 = client.get(f"/api/v1/bots/{bot.id}/scorecard/versions/1").get_json()
    v2 = client.get(f"/api/v1/bots/{bot.id}/scorecard/versions/2").get_json()
    assert v1["matches"] == 3 and v2["matches"] == 2 and "ev_optimal" in v1["measures"]
    with sessions() as session:
        first = session.get(BotVersion, starters[0]).bot_id
    vs = client.get(f"/api/v1/bots/{bot.id}/scorecard/opponents/{first}").get_json()
    assert vs["matches"] == 5
    score = vs["measures"]["score"]
    assert score["margin"] == pytest.approx(score["value"] - score["opponent"])
    assert {o["bot_id"] for o in card["opponents"]} >= {first}
    for path in (f"/api/v1/bots/{bot.id}/scorecard/versions/9", "/api/v1/bots/99999/scorecard",
                 f"/api/v1/bots/{bot.id}/scorecard/opponents/99999"):
        response = client.get(path)
        assert response.status_code == 404 and response.get_json()["error"], path
