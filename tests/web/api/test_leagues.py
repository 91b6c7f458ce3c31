"""The leagues and seasons in the API: a game's leagues, a bot's league, the seasons and a season."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ladder.models import Season, SeasonStanding, SeasonStatus, User


def test_a_games_leagues_name_each_boss_and_a_new_bot_starts_in_the_first(client, build):
    bot, _ = build.bot("alice", "climber")
    body = client.get("/api/v1/games/treasure/leagues").get_json()
    assert [lg["name"] for lg in body["leagues"]] == ["Wood", "Bronze", "Silver", "Gold"]
    wood = body["leagues"][0]
    assert wood["boss"] == "random" and not wood["open"] and body["leagues"][-1]["open"]
    climber = next(m for m in wood["members"] if m["bot_id"] == bot.id)
    assert climber["progress"] == {"meetings": 0, "above": 0, "below": 0, "ties": 0, "record": "", "needed": 9}
    assert next(m for m in wood["members"] if m["bot"] == "random")["boss"] is True
    league = client.get(f"/api/v1/bots/{bot.id}").get_json()["league"]
    assert (league["name"], league["next"], league["boss"], league["house"]) == ("Wood", "Bronze", "random", False)
    assert league["boss_bot_id"] == wood["boss_bot_id"] and league["promotions"] == []


def test_unknown_games_seasons_and_parameters_are_refused(client):
    assert client.get("/api/v1/games/chess/leagues").status_code == 404
    assert client.get("/api/v1/games/chess/seasons").status_code == 404
    assert client.get("/api/v1/seasons/12345").status_code == 404
    refused = client.get("/api/v1/games/treasure/leagues?page=2")
    assert refused.status_code == 400 and "unknown query parameter" in refused.get_json()["error"]


def test_a_seasons_archived_final_is_served(client, sessions, build):
    bot, _ = build.bot("alice", "champ")
    with sessions() as session:
        admin = User(username="org", password_hash="!", is_admin=True)
        session.add(admin)
        session.flush()
        season = Season(game="treasure", name="Winter", organizer_id=admin.id, status=SeasonStatus.CLOSED,
                        ends_at=datetime(2026, 11, 30, tzinfo=UTC), closed_at=datetime(2026, 12, 1, tzinfo=UTC))
        session.add(season)
        session.flush()
        session.add(SeasonStanding(season_id=season.id, place=1, bot_id=bot.id, name="alice/champ v1", league=3,
                                   rating=1_612_500, matches=24, wins=17, mean_rank=1.42, rank_low=1.2,
                                   rank_high=1.7, mean_score=18.25))
        session.add(Season(game="treasure", name="Spring", organizer_id=admin.id,
                           ends_at=datetime.now(UTC) + timedelta(days=9)))
        session.commit()
        season_id = season.id
    listed = client.get("/api/v1/games/treasure/seasons").get_json()["seasons"]
    assert [(s["name"], s["status"]) for s in listed] == [("Spring", "open"), ("Winter", "closed")]
    body = client.get(f"/api/v1/seasons/{season_id}").get_json()
    assert body["season"]["closed_at"].startswith("2026-12-01")
    assert body["standings"] == [{"place": 1, "bot_id": bot.id, "bot": "alice/champ v1", "league": 3,
                                  "rating": 1612.5, "matches": 24, "wins": 17,
                                  "rank": {"mean": 1.42, "low": 1.2, "high": 1.7}, "score": 18.25}]
