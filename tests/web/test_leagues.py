"""The leagues on the site: the leagues page (each league's boss, standings, progress, promotions)
and the league panel of a bot's page."""

from __future__ import annotations

import re

from sqlmodel import select

from ladder.models import Bot, BotVersion, LeagueMember
from ladder.services import matches, results
from ladder.services.results import MatchOutcome, SeatOutcome


def _section(html: str, league: int) -> str:
    return html.split(f'id="league-{league}"', 1)[1].split("</section>", 1)[0]


def _house(sessions, name: str) -> tuple[int, int]:
    with sessions() as session:
        bot = session.exec(select(Bot).where(Bot.game == "treasure", Bot.builtin == name)).one()
        return bot.id, session.exec(select(BotVersion.id).where(BotVersion.bot_id == bot.id)).first()


def _beat_the_boss(sessions, version_id: int, boss_version: int, times: int) -> int:
    last = 0
    with sessions() as session:
        for _ in range(times):
            match = matches.queue_match(session=session, game="treasure", seats=[version_id, boss_version], league=0)
            matches.claim_match(session=session, match_id=match.id, worker_id="w")
            results.record_result(session=session, match_id=match.id, worker_id="w", outcome=MatchOutcome(
                [SeatOutcome(rank=1, score=20, status="ok"), SeatOutcome(rank=2, score=5, status="ok")]))
            last = match.id
    return last


def test_the_leagues_page_names_each_league_its_boss_and_who_plays_there(client, build):
    build.bot("alice", "climber")
    html = client.get("/leaderboard/treasure/leagues").get_data(as_text=True)
    assert [re.sub(r"<.*?>|\s+", " ", h).split()[0] for h in re.findall(r"<h2>(.*?)</h2>", html, re.S)] == [
        "Wood", "Bronze", "Silver", "Gold"]
    wood, bronze, gold = _section(html, 0), _section(html, 1), _section(html, 3)
    assert ">climber</a>" in wood and ">random</a>" in wood and 'class="tag boss"' in wood
    assert "9 in a row to go up" in wood  # a new bot: no meeting yet
    assert ">careful</a>" in bronze and ">memory</a>" in bronze and ">climber</a>" not in bronze
    assert "the top league" in gold and "Nobody here yet." in gold
    assert "leagues" in client.get("/leaderboard/treasure").get_data(as_text=True)


def test_a_promotion_shows_on_the_bots_page_and_the_leagues_page(client, build, sessions):
    bot, version = build.bot("alice", "climber")
    _, boss = _house(sessions, "random")
    page = client.get(f"/bots/{bot.id}").get_data(as_text=True)
    assert "League: Wood" in page and "No league game against the boss yet." in page
    assert "<strong>9 more in a row</strong>" in page
    _beat_the_boss(sessions, version.id, boss, 5)
    page = client.get(f"/bots/{bot.id}").get_data(as_text=True)
    assert "above it in 5, below in 0" in page and "<strong>4 more in a row</strong>" in page
    last = _beat_the_boss(sessions, version.id, boss, 4)
    with sessions() as session:
        assert session.get(LeagueMember, bot.id).league == 1
    page = client.get(f"/bots/{bot.id}").get_data(as_text=True)
    assert "League: Bronze" in page and ">careful</a>" in page and f"match {last}" in page
    html = client.get("/leaderboard/treasure/leagues").get_data(as_text=True)
    assert ">climber</a>" in _section(html, 1) and "Latest promotions" in html


def test_a_house_bot_says_its_league_and_the_boss_says_it_is_one(client, sessions):
    boss, _ = _house(sessions, "search")
    page = client.get(f"/bots/{boss}").get_data(as_text=True)
    assert "League: Silver" in page and 'class="tag boss"' in page
    other, _ = _house(sessions, "memory")
    page = client.get(f"/bots/{other}").get_data(as_text=True)
    assert "League: Bronze" in page and "its <span" not in page


def test_unknown_games_and_a_game_without_leagues_answer_404(client):
    assert client.get("/leaderboard/chess/leagues").status_code == 404
    assert client.get("/leaderboard/%00/leagues").status_code == 404
