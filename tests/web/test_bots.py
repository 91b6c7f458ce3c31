"""The bot page (versions, rating chart, recent matches, head-to-head) and the owner's actions:
retire a bot or a version, request an unranked challenge. Another user gets 404 for each action."""

from __future__ import annotations

import re

from sqlmodel import select
from web.helpers import Site

from ladder.models import Bot, BotVersion, Match, MatchKind, Seat


def test_bot_page_shows_versions_chart_recent_matches_and_head_to_head(site, build, play, sessions):
    bot, mine = build.bot("alice", "alpha", description="stops <early>")
    starters = build.starters()
    played = [build.match([mine.id, *starters[:2]]) for _ in range(3)]
    for match_id in played:
        play(match_id)
    html = site.text(f"/bots/{bot.id}")
    assert "stops &lt;early&gt;" in html
    assert "v1" in html and "active" in html
    chart = re.search(r'<svg class="chart".*?</svg>', html, flags=re.S).group(0)
    assert chart.count("<circle") == 3  # one point per rated match
    assert re.findall(r'<text class="x"[^>]*>(\d+)</text>', chart) == ["0", "1", "2", "3"]  # match numbers
    assert "rated match number" in chart
    ranked = 1 + len(starters)
    rank = rf'<strong><a href="/leaderboard/treasure\?page=1">#\d</a></strong><span>of {ranked} on the leaderboard'
    assert re.search(rank, html)
    assert 'aria-label="Rating history over 3 rated matches"' in chart
    assert re.findall(r'<a href="([^"]+)"><circle', chart) == [f"/matches/{m}" for m in played]  # oldest first
    recent = html.split("<h2>Recent matches</h2>", 1)[1].split("</table>", 1)[0]
    assert re.findall(r'href="([^"]+)">#(\d+)<', recent) == [(f"/matches/{m}", str(m)) for m in reversed(played)]
    h2h = html.split("<h2>Head to head</h2>", 1)[1].split("</table>", 1)[0]
    with sessions() as session:
        opponents = {session.get(BotVersion, v).bot_id for v in starters[:2]}
    assert set(re.findall(r'href="/bots/(\d+)"', h2h)) == {str(b) for b in opponents}
    assert re.search(r'class="num">3</td>', h2h)  # met each starter three times


def test_bot_page_links_are_what_url_for_makes_under_a_prefix(app):
    """The page formats its many match and bot links from one url_for result; mounted under a
    path prefix (SCRIPT_NAME), they must still be exactly what url_for would give."""
    from flask import url_for

    from ladder.web.bots import id_url

    with app.test_request_context("/bots/1", base_url="http://example.test/ladder/918273645"):
        for endpoint, key in (("matches.page", "match_id"), ("bots.page", "bot_id")):
            for value in (1, 42, 918_273_645, 10**12):
                assert id_url(endpoint, key)(value) == url_for(endpoint, **{key: value})
        assert id_url("matches.page", "match_id")(7) == "/ladder/918273645/matches/7"


def test_a_bot_without_rated_games_says_so(site, build):
    bot, _ = build.bot("alice", "fresh")
    html = site.text(f"/bots/{bot.id}")
    assert "No rated matches yet" in html
    assert "Against the boss" in html and "no rated meeting yet" in html
    assert site.client.get("/bots/99999").status_code == 404


def test_a_bot_page_says_whether_the_bot_has_beaten_the_boss(site, build, play, sessions):
    from ladder.games import get_game

    bot, mine = build.bot("alice", "climber")
    with sessions() as session:
        boss = session.exec(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(
            Bot.game == "treasure", Bot.builtin == get_game("treasure").boss)).first()
    match_id = build.match([mine.id, boss])
    play(match_id, crash=(1,))  # the boss's seat crashes: it ranks last, below the climber
    html = site.text(f"/bots/{bot.id}")
    boss_line = html.split('class="boss-record"', 1)[1].split("</p>", 1)[0]
    assert "above it in 1 of 1 rated meetings" in boss_line and "boss beaten" in boss_line


def test_owner_controls_are_shown_to_the_owner_only(site, other_site, build):
    site.signup("alice")
    bot, _ = build.bot("alice", "alpha")
    assert "Retire this bot" in site.text(f"/bots/{bot.id}")
    assert "Upload a new version" in site.text(f"/bots/{bot.id}")
    other_site.signup("bob")
    visitor = Site(site.client.application.test_client())
    for page in (other_site.text(f"/bots/{bot.id}"), visitor.text(f"/bots/{bot.id}")):
        assert "Retire this bot" not in page and "Queue the challenge" not in page


def test_retire_a_version_and_the_bot(site, build, sessions):
    site.signup("alice")
    bot, version = build.bot("alice", "alpha")
    page = f"/bots/{bot.id}"
    response = site.post(f"/bots/{bot.id}/versions/{version.id}/retire", page=page, follow_redirects=True)
    assert "Version 1 is retired" in response.get_data(as_text=True)
    with sessions() as session:
        assert session.get(BotVersion, version.id).status == "retired"
    response = site.post(f"/bots/{bot.id}/retire", page=page, follow_redirects=True)
    assert "is retired" in response.get_data(as_text=True)
    assert ">alpha</a>" not in site.text("/leaderboard/treasure")


def test_another_user_cannot_retire_upload_or_challenge(site, other_site, build, sessions):
    bot, version = build.bot("alice", "alpha")
    other_site.signup("mallory")
    page = "/users/mallory"
    assert other_site.post(f"/bots/{bot.id}/retire", page=page).status_code == 404
    assert other_site.post(f"/bots/{bot.id}/versions/{version.id}/retire", page=page).status_code == 404
    assert other_site.post(f"/bots/{bot.id}/challenge", {"opponents": build.starters()[0]},
                           page=page).status_code == 404
    assert other_site.post(f"/bots/{bot.id}/versions", page=page).status_code == 404
    with sessions() as session:
        assert session.get(BotVersion, version.id).status == "active"
        assert session.exec(select(Match)).all() == []
    # and logged out, every action sends you to the login page
    visitor = site.client.application.test_client()
    assert visitor.post(f"/bots/{bot.id}/retire").status_code in (302, 400)


def test_owner_requests_an_unranked_challenge(site, build, sessions, dispatched):
    site.signup("alice")
    bot, mine = build.bot("alice", "alpha")
    _, rival = build.bot("bob", "beta")
    html = site.text(f"/bots/{bot.id}")
    assert f'value="{rival.id}"' in html  # other active bots are offered
    response = site.post(f"/bots/{bot.id}/challenge", {"opponents": [rival.id]}, page=f"/bots/{bot.id}")
    assert response.status_code == 302
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with sessions() as session:
        match = session.get(Match, match_id)
        seats = session.exec(select(Seat.bot_version_id).where(Seat.match_id == match_id).order_by(Seat.seat)).all()
    assert match.kind == MatchKind.CHALLENGE and not match.ranked
    assert list(seats) == [mine.id, rival.id]
    assert dispatched == [match_id]


def test_a_challenge_needs_an_opponent(site, build, sessions):
    site.signup("alice")
    bot, _ = build.bot("alice", "alpha")
    response = site.post(f"/bots/{bot.id}/challenge", {}, page=f"/bots/{bot.id}", follow_redirects=True)
    assert "choose at least one opponent" in response.get_data(as_text=True)
    with sessions() as session:
        assert session.exec(select(Match)).all() == []


def test_the_challenge_form_is_checkboxes_and_states_how_many_opponents_the_game_needs(site, build):
    site.signup("alice")
    bot, _ = build.bot("alice", "alpha", game="drachengold")
    starters = build.starters("drachengold")
    html = site.text(f"/bots/{bot.id}")
    form = html.split('class="challenge"', 1)[1].split("</form>", 1)[0]
    assert 'data-opponents-min="2" data-opponents-max="5"' in form  # Drachengold: 3-6 players
    assert "tick <strong>2 to 5</strong> opponents" in form  # said without JavaScript
    for version_id in starters:
        assert f'type="checkbox" value="{version_id}"' in form
    assert "<select" not in form and "required" not in form  # a browser would ask for every box ticked
    assert '<script src="/static/challenge.js" defer></script>' in html


def test_a_challenge_with_too_few_or_too_many_opponents_is_refused_with_the_range(site, build, sessions):
    site.signup("alice")
    bot, _ = build.bot("alice", "alpha", game="drachengold")
    starters = build.starters("drachengold")
    page = f"/bots/{bot.id}"
    response = site.post(f"/bots/{bot.id}/challenge", {"opponents": starters[:1]}, page=page, follow_redirects=True)
    assert "Drachengold takes 3-6 players: choose 2 to 5 opponents for your bot, not 1" in response.get_data(
        as_text=True)
    response = site.post(f"/bots/{bot.id}/challenge", {"opponents": [starters[0], starters[0]]}, page=page,
                         follow_redirects=True)
    assert "choose each opponent once" in response.get_data(as_text=True)
    with sessions() as session:
        assert session.exec(select(Match)).all() == []
    response = site.post(f"/bots/{bot.id}/challenge", {"opponents": starters[:2]}, page=page)
    assert response.status_code == 302 and "/matches/" in response.headers["Location"]

