"""The seasons on the site: the game's list, a season's page (open, in its final, closed with its
archived standings), the leaderboard's line, and uploads refused while a final is played."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from ladder.models import Bot, Season, SeasonStanding, SeasonStatus, User


def _season(sessions, status=SeasonStatus.OPEN, **kw) -> int:
    with sessions() as session:
        admin = User(username="org", password_hash="!", is_admin=True)
        session.add(admin)
        session.flush()
        season = Season(game="treasure", name="Winter <b>", organizer_id=admin.id, status=status,
                        ends_at=datetime.now(UTC) + timedelta(days=3), **kw)
        session.add(season)
        session.commit()
        return season.id


def test_no_season_yet_is_said_and_an_unknown_season_is_404(client):
    html = client.get("/leaderboard/treasure/seasons").get_data(as_text=True)
    assert "No season yet" in html
    assert client.get("/seasons/99").status_code == 404
    assert client.get("/leaderboard/chess/seasons").status_code == 404


def test_an_open_season_shows_on_the_leaderboard_and_its_page_says_what_happens_at_the_end(client, sessions):
    season_id = _season(sessions)
    board = client.get("/leaderboard/treasure").get_data(as_text=True)
    assert f'/seasons/{season_id}">Winter &lt;b&gt;</a>' in board and "ends " in board
    page = client.get(f"/seasons/{season_id}").get_data(as_text=True)
    assert "uploads for Treasure of the Dragons freeze" in page and "5 Swiss rounds of 2 deals" in page
    assert "Winter &lt;b&gt;" in page  # escaped


def test_a_final_freezes_the_upload_form_with_the_reason(site, sessions):
    _season(sessions, status=SeasonStatus.FINAL)
    site.signup("alice")
    response = site.upload(b"print(1)\n", name="late")
    text = response.get_data(as_text=True)
    assert response.status_code in (400, 409) and "frozen while the final of" in text
    with sessions() as session:
        assert session.exec(select(Bot).where(Bot.name == "late")).first() is None  # nothing stored
    assert "is in its final: uploads are frozen" in site.text("/leaderboard/treasure")


def test_a_closed_season_shows_its_archived_standings(client, sessions, build):
    bot, _ = build.bot("alice", "champ")
    season_id = _season(sessions, status=SeasonStatus.CLOSED, closed_at=datetime.now(UTC))
    with sessions() as session:
        session.add(SeasonStanding(season_id=season_id, place=1, bot_id=bot.id, name="alice/champ v1", league=3,
                                   rating=1_612_000, matches=24, wins=17, mean_rank=1.42, rank_low=1.2, rank_high=1.7,
                                   mean_score=18.25))
        session.commit()
    page = client.get(f"/seasons/{season_id}").get_data(as_text=True)
    assert "Final standings" in page and "alice/champ v1" in page and "1.42 [1.20, 1.70]" in page
    assert "1612" in page
    listing = client.get("/leaderboard/treasure/seasons").get_data(as_text=True)
    assert "closed" in listing and f"/seasons/{season_id}" in listing
