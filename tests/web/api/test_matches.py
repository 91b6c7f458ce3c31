"""GET /api/v1/matches: filtered by bot, owner (`me` or a name), game, status and time, paged by
`next`; and every API endpoint refuses a query parameter it does not take (a 400 naming it), so a
filter that does not exist is never silently ignored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ladder.services import users


def _auth(build, sessions, username) -> dict[str, str]:
    user = build.user(username)
    with sessions() as session:
        return {"Authorization": f"Bearer {users.issue_api_token(session=session, user_id=user.id)}"}


def _ids(client, query, headers=None) -> list[int]:
    answer = client.get(f"/api/v1/matches?{query}", headers=headers or {})
    assert answer.status_code == 200, answer.get_json()
    return [m["id"] for m in answer.get_json()["matches"]]


def test_matches_filter_by_bot_owner_game_status_and_time(client, build, play, sessions):
    headers = _auth(build, sessions, "alice")
    alpha, a1 = build.bot("alice", "alpha")
    beta, b1 = build.bot("bob", "beta")
    starters = build.starters()
    mine = build.match([a1.id, *starters[:2]])
    theirs = build.match([b1.id, *starters[:2]])
    both = build.match([a1.id, b1.id, starters[0]])
    play(mine)
    play(both)  # `theirs` stays queued
    assert _ids(client, f"bot={alpha.id}") == [both, mine]
    assert _ids(client, f"bot={beta.id}") == [both, theirs]
    assert _ids(client, "owner=me", headers) == [both, mine]
    assert _ids(client, "owner=bob") == [both, theirs]
    assert _ids(client, "owner=me&status=queued", headers) == []
    assert _ids(client, f"bot={beta.id}&status=queued") == [theirs]
    assert _ids(client, f"bot={beta.id}&game=treasure") == [both, theirs]
    assert _ids(client, f"bot={beta.id}&game=drachengold") == []
    later = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert _ids(client, f"bot={beta.id}&since={later}") == []
    assert _ids(client, f"bot={beta.id}&until={later}") == [both, theirs]
    assert _ids(client, f"bot={beta.id}&since=2020-01-01") == [both, theirs]


def test_matches_page_with_next_until_the_end(client, build, play):
    _, version = build.bot("alice", "alpha")
    made = [build.match([version.id, *build.starters()[:2]], seed=n) for n in range(5)]
    seen, url = [], "/api/v1/matches?limit=2&game=treasure"
    while url:
        page = client.get(url).get_json()
        seen += [m["id"] for m in page["matches"]]
        url = page["next"] and page["next"].split("://", 1)[1].split("/", 1)[1]
        url = url and "/" + url
    assert seen == sorted(made, reverse=True)


def test_unusable_or_unknown_parameters_are_400_with_the_reason(client, build, sessions):
    for query, words in [
        ("bots=17", "unknown query parameter 'bots'"),
        ("bot=abc", "bot must be a whole number"),
        ("bot=1&bot=2", "more than once"),
        ("status=done", "status must be one of"),
        ("since=yesterday", "since must be an ISO 8601 time"),
        ("until=2026-13-01", "until must be an ISO 8601 time"),
        ("owner=nobody_here", "there is no user 'nobody_here'"),
        ("game=chess", "game must be one of"),
    ]:
        answer = client.get(f"/api/v1/matches?{query}")
        assert answer.status_code == 400 and words in answer.get_json()["error"], (query, answer.get_json())
    assert client.get("/api/v1/matches?owner=me").status_code == 401  # whose? a token says
    for url in ("/api/v1/games?x=1", "/api/v1/leaderboards/treasure?pages=2", "/api/v1/events?limits=3",
                "/api/v1/?debug=1", "/api/v1/matches/1?full=1"):
        answer = client.get(url)
        assert answer.status_code == 400 and "unknown query parameter" in answer.get_json()["error"], url


def test_a_game_played_in_person_is_one_of_my_matches_and_named_for_the_person(client, site, build, sessions,
                                                                                settings):
    # `owner=me` found only matches of the user's bots, not the games they played in person; the
    # result table called the seat "person v1 · house" while the viewer says "alice (in person)"
    from ladder.models import BotVersion
    from ladder.services import person_seat

    headers = _auth(build, sessions, "alice")
    alice = build.user("alice")
    with sessions() as session:
        house_bot = session.get(BotVersion, build.starters()[0]).bot_id
        match_id = person_seat.start(session=session, settings=settings, user_id=alice.id, address="10.0.0.9",
                                     game="treasure", seat=1, opponents=[house_bot]).id
    assert _ids(client, "owner=me", headers) == [match_id]
    assert _ids(client, "owner=alice") == [match_id]
    assert _ids(client, "owner=house") == [match_id]  # its stand-in bot is still the house's
    seats = client.get(f"/api/v1/matches/{match_id}").get_json()["seats"]
    assert [s["person"] for s in seats] == [None, "alice"]
    table = site.text(f"/matches/{match_id}").split('<table class="board seats">', 1)[1].split("</table>", 1)[0]
    assert "alice (in person)" in table and "person</a>" not in table
    recent = site.text("/matches/")
    assert "alice (in person)" in recent
