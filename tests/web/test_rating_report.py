"""How sure each rating is, on every page and in the API (the ± and the "?"), and the accuracy
report's page and API route (served from the stored report; no 500 before there is one)."""

from __future__ import annotations

import re

from ladder.models import Rating
from ladder.ranking.ratings import half_width, is_uncertain, to_points
from ladder.services.rating_reports import compute_report


def _cell(html: str, name: str) -> str:
    row = next(r for r in re.findall(r"<tr.*?</tr>", html, flags=re.S) if f">{name}</a>" in r)
    return re.sub(r"<.*?>", "", re.findall(r'<td class="num strong">.*?</td>', row, flags=re.S)[0]).strip()


def test_every_rating_shows_its_plus_minus_and_a_question_mark_while_unsure(client, build, play, sessions):
    alpha, mine = build.bot("alice", "alpha")
    first, second = build.starters()[:2]
    play(build.match([mine.id, first, second]))
    with sessions() as session:
        rating = session.get(Rating, alpha.id)
        rating_id, deviation, elo = rating.bot_id, rating.deviation, rating.rating
    text = f"{round(to_points(elo))}? ±{round(to_points(half_width(deviation)))}"
    assert is_uncertain(deviation)
    assert _cell(client.get("/leaderboard/treasure").get_data(as_text=True), "alpha") == text
    assert text in re.sub(r"<.*?>", "", client.get("/").get_data(as_text=True))  # the front page's boards
    assert text in re.sub(r"<.*?>", "", client.get("/users/alice").get_data(as_text=True))  # the owner's page
    bot_page = client.get(f"/bots/{rating_id}").get_data(as_text=True)
    assert f"<strong>{text}</strong>" in bot_page and "still unsure" in bot_page
    row = next(r for r in client.get("/api/v1/leaderboards/treasure").get_json()["rows"] if r["bot"] == "alpha")
    assert row["deviation"] == to_points(deviation) and row["plus_minus"] == to_points(half_width(deviation))
    assert row["uncertain"] is True
    detail = client.get(f"/api/v1/bots/{rating_id}").get_json()["rating"]
    assert (detail["plus_minus"], detail["uncertain"]) == (row["plus_minus"], True)


def test_a_sure_rating_has_no_question_mark(client, build, sessions):
    bot, _ = build.bot("alice", "steady")
    with sessions() as session:
        rating = session.get(Rating, bot.id)
        rating.rating, rating.deviation, rating.games = 1612_400, 56_000, 400
        session.add(rating)
        session.commit()
    assert _cell(client.get("/leaderboard/treasure").get_data(as_text=True), "steady") == "1612 ±112"
    assert "still unsure" not in client.get(f"/bots/{bot.id}").get_data(as_text=True)
    row = next(r for r in client.get("/api/v1/leaderboards/treasure").get_json()["rows"] if r["bot"] == "steady")
    assert (row["plus_minus"], row["uncertain"]) == (112.0, False)


def test_the_accuracy_report_before_any_match_and_after(client, build, play, sessions):
    html = client.get("/leaderboard/treasure").get_data(as_text=True)
    assert 'href="/leaderboard/treasure/accuracy"' in html  # linked from the leaderboard
    page = client.get("/leaderboard/treasure/accuracy")
    assert page.status_code == 200 and "No report yet" in page.get_data(as_text=True)
    assert client.get("/api/v1/leaderboards/treasure/accuracy").get_json() == {
        "game": "treasure", "computed_at": None, "report": None}
    with sessions() as session:  # a report of no matches is no division by zero either
        compute_report(session=session, game="treasure")
    assert client.get("/leaderboard/treasure/accuracy").status_code == 200
    starters = build.starters()
    for seed in range(3):
        play(build.match(starters[:3], seed=seed))
    with sessions() as session:
        compute_report(session=session, game="treasure", last=2)
    body = client.get("/api/v1/leaderboards/treasure/accuracy").get_json()
    prediction = body["report"]["prediction"]
    assert body["computed_at"] and prediction["matches"] == 2 and prediction["pairs"] == 6
    html = client.get("/leaderboard/treasure/accuracy").get_data(as_text=True)
    assert f"{prediction['log_loss']:.4f}" in html and "0.6931" in html  # the ratings against the naive
    assert client.get("/leaderboard/chess/accuracy").status_code == 404
    assert client.get("/api/v1/leaderboards/chess/accuracy").status_code == 404
    assert client.get("/api/v1/leaderboards/treasure/accuracy?x=1").status_code == 400
