"""POST /api/v1/bots/<id>/challenges: the bot page's challenge through the API, with the form's use
case and limits (ladder/services/challenges.py); hostile bodies are a 400 that writes nothing."""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import select

from ladder.models import Match, Seat
from ladder.services import outside, tokens


def _token(build, sessions, username, scopes=("play",)) -> dict[str, str]:
    user = build.user(username)
    with sessions() as session:
        token = tokens.create(session=session, user_id=user.id, name="-".join(scopes), scopes=scopes)[1]
    return {"Authorization": f"Bearer {token}"}


def _house(build, sessions) -> list[int]:
    """Bot ids of the treasure starter bots (the API names bots; each plays its active version)."""
    from ladder.models import BotVersion

    with sessions() as session:
        return [session.get(BotVersion, v).bot_id for v in build.starters()]


def _matches(sessions) -> int:
    with sessions() as session:
        return session.exec(select(func.count()).select_from(Match)).one()


def test_a_challenge_through_the_api_queues_the_forms_match(client, build, sessions, dispatched):
    alice = _token(build, sessions, "alice")
    bot, mine = build.bot("alice", "alpha")
    house = _house(build, sessions)
    answer = client.post(f"/api/v1/bots/{bot.id}/challenges", json={"opponents": house[:2], "seed": 7}, headers=alice)
    assert answer.status_code == 201, answer.get_json()
    match = answer.get_json()["match"]
    assert match["kind"] == "challenge" and not match["ranked"] and match["status"] == "queued"
    assert answer.get_json()["url"].endswith(f"/api/v1/matches/{match['id']}") and dispatched == [match["id"]]
    with sessions() as session:
        seats = session.exec(select(Seat).where(Seat.match_id == match["id"]).order_by(Seat.seat)).all()
        assert [s.bot_id for s in seats] == [bot.id, *house[:2]] and seats[0].bot_version_id == mine.id
        assert session.get(Match, match["id"]).seed == 7


def test_the_api_keeps_the_forms_limits(client, build, sessions, settings):
    alice = _token(build, sessions, "alice")
    bot, _ = build.bot("alice", "alpha")
    house = _house(build, sessions)
    url = f"/api/v1/bots/{bot.id}/challenges"
    for _ in range(settings.challenges_per_target):
        assert client.post(url, json={"opponents": [house[0]]}, headers=alice).status_code == 201
    refused = client.post(url, json={"opponents": [house[0]]}, headers=alice)
    assert refused.status_code == 429 and "challenges against" in refused.get_json()["error"]
    assert int(refused.headers["Retry-After"]) > 0
    while client.post(url, json={"opponents": [house[1]]}, headers=alice).status_code == 201:
        pass
    refused = client.post(url, json={"opponents": [house[2]]}, headers=alice)
    assert refused.status_code == 429 and f"the most allowed ({settings.challenges_in_flight})" in \
        refused.get_json()["error"]
    assert _matches(sessions) == settings.challenges_in_flight


def test_someone_elses_bot_a_bad_body_or_a_missing_scope_is_refused_and_writes_nothing(client, build, sessions):
    alice, bob = _token(build, sessions, "alice"), _token(build, sessions, "bob")
    bot, _ = build.bot("alice", "alpha")
    house = _house(build, sessions)
    url = f"/api/v1/bots/{bot.id}/challenges"
    assert client.post(url, json={"opponents": house[:1]}, headers=bob).status_code == 404
    assert client.post(url, json={"opponents": house[:1]}).status_code == 401
    read_only = _token(build, sessions, "alice", scopes=("read",))
    assert client.post(url, json={"opponents": house[:1]}, headers=read_only).status_code == 403
    for body in (None, [], {}, {"opponents": []}, {"opponents": "3"}, {"opponents": [True]}, {"opponents": [1.0]},
                 {"opponents": [0]}, {"opponents": [2**70]}, {"opponents": house[:1] * 2},
                 {"opponents": list(range(1, 20))}, {"opponents": house[:1], "seed": -1},
                 {"opponents": house[:1], "seed": "7"}, {"opponents": house[:1], "extra": 1}):
        answer = client.post(url, json=body, headers=alice)
        assert answer.status_code == 400, (body, answer.get_json())
        assert answer.get_json()["error"]
    assert client.post(url, json={"opponents": [999999]}, headers=alice).status_code == 404
    assert client.post(url, json={"opponents": [bot.id]}, headers=alice).status_code == 400  # not its own
    crowd = [build.bot("bob", f"b{i}")[0].id for i in range(8)]
    too_many = client.post(url, json={"opponents": crowd}, headers=alice)  # a table of 9: the game says no
    assert too_many.status_code == 400 and "players" in too_many.get_json()["error"]
    with sessions() as session:
        remote = outside.remote_bot(session=session, user_id=bot.owner_id, game="treasure", name="home").bot.id
    at_home = client.post(f"/api/v1/bots/{remote}/challenges", json={"opponents": house[:1]}, headers=alice)
    assert at_home.status_code == 400 and "ladder connect" in at_home.get_json()["error"]
    assert client.post(url, json={"opponents": [remote]}, headers=alice).status_code == 400  # nobody answers for it
    assert _matches(sessions) == 0
