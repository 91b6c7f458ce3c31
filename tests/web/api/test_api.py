"""The JSON API: public reads, uploads with a personal API token (Bearer), clear errors."""

from __future__ import annotations

import io
import re

from web.helpers import GOOD_BOT, make_zip

from ladder.services import users
from ladder.web.api import matches as api_matches


def _token(build, sessions, username="alice") -> str:
    user = build.user(username)
    with sessions() as session:
        return users.issue_api_token(session=session, user_id=user.id)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _upload(client, token, code=GOOD_BOT, filename="main.py", **form):
    data = {"name": "apibot", "game": "treasure", **form, "file": (io.BytesIO(code), filename)}
    return client.post("/api/v1/bots", data=data, headers=_auth(token), content_type="multipart/form-data")


def test_upload_with_a_token_queues_validation(client, build, sessions, dispatched):
    token = _token(build, sessions)
    response = _upload(client, token, description="scripted")
    assert response.status_code == 201
    body = response.get_json()
    assert body["bot"]["name"] == "apibot" and body["version"]["number"] == 1
    assert body["version"]["status"] == "validating"
    assert dispatched == [body["validation_match"]]
    assert "code" not in body["version"]  # the public model never carries the code
    again = client.post(f"/api/v1/bots/{body['bot']['id']}/versions", headers=_auth(token),
                        data={"file": (io.BytesIO(GOOD_BOT), "main.py")}, content_type="multipart/form-data")
    assert again.status_code == 200 and again.get_json()["version"]["number"] == 1  # the same file: nothing new
    changed = client.post(f"/api/v1/bots/{body['bot']['id']}/versions", headers=_auth(token),
                          data={"file": (io.BytesIO(GOOD_BOT + b"# v2\n"), "main.py")},
                          content_type="multipart/form-data")
    assert changed.status_code == 201 and changed.get_json()["version"]["number"] == 2


def test_upload_without_or_with_a_bad_token_is_401(client, build, sessions):
    data = {"name": "x", "game": "treasure", "file": (io.BytesIO(GOOD_BOT), "main.py")}
    anonymous = client.post("/api/v1/bots", data=data, content_type="multipart/form-data")
    assert anonymous.status_code == 401
    assert anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    assert _upload(client, "ldr_not-a-real-token").status_code == 401
    token = _token(build, sessions)
    with sessions() as session:
        users.revoke_api_token(session=session, user_id=build.user("alice").id)
    assert _upload(client, token).status_code == 401


def test_the_session_cookie_does_not_authorise_api_writes(site):
    site.signup("alice")  # logged in by cookie, but the API is CSRF-exempt: it must want a token
    response = site.client.post("/api/v1/bots", data={"name": "x", "game": "treasure",
                                                      "file": (io.BytesIO(GOOD_BOT), "main.py")},
                                content_type="multipart/form-data")
    assert response.status_code == 401


def test_broken_uploads_get_clear_json_errors(client, build, sessions):
    token = _token(build, sessions)
    cases = [
        (dict(code=b"#" * (64 * 1024 + 1)), 400, "at most 65536"),
        (dict(code=b"nope", filename="bot.zip"), 400, "not a valid zip"),
        (dict(code=make_zip({"x/main.py": GOOD_BOT}), filename="bot.zip"), 400, "no entry point at the root"),
        (dict(game="chess"), 400, "unknown game"),
        (dict(name="<script>"), 400, "a bot name is 1 to 40 letters"),
    ]
    for kwargs, status, message in cases:
        response = _upload(client, token, **kwargs)
        assert response.status_code == status, (kwargs, response.get_json())
        assert message in response.get_json()["error"]
    missing = client.post("/api/v1/bots", headers=_auth(token), data={"name": "x", "game": "treasure"})
    assert missing.status_code == 400 and "'file'" in missing.get_json()["error"]


def test_token_page_shows_the_token_once_and_it_works(site):
    site.signup("alice")
    page = site.post("/account/tokens", {"name": "script", "scopes": ["read", "upload"]},
                     page="/account/").get_data(as_text=True)
    token = re.search(r'id="api-token">([^<]+)<', page).group(1)
    assert token.startswith("ldr_")
    assert token not in site.text("/account/")  # shown once
    me = site.client.get("/api/v1/me", headers=_auth(token))
    assert me.status_code == 200 and me.get_json()["user"]["username"] == "alice"
    assert "password_hash" not in me.get_data(as_text=True) and "token_hash" not in me.get_data(as_text=True)


def test_me_gives_each_rating_with_how_sure_it_is(client, build, sessions, play):
    from ladder.ranking.ratings import INITIAL_DEVIATION, INITIAL_RATING, to_points

    token = _token(build, sessions)
    rated, mine = build.bot("alice", "alpha")
    build.bot("alice", "beta")  # never played: the starting rating, as unsure as a rating is
    play(build.match([mine.id, *build.starters()[:2]]))
    bots = {b["name"]: b for b in client.get("/api/v1/me", headers=_auth(token)).get_json()["bots"]}
    detail = client.get(f"/api/v1/bots/{rated.id}").get_json()["rating"]
    assert bots["alpha"]["rating"] == detail["rating"]
    assert {k: bots["alpha"][k] for k in ("deviation", "plus_minus", "uncertain")} == {
        k: detail[k] for k in ("deviation", "plus_minus", "uncertain")}
    assert 0 < bots["alpha"]["plus_minus"] == 2 * bots["alpha"]["deviation"]
    assert bots["alpha"]["uncertain"] is True  # one game: far from settled
    assert (bots["beta"]["rating"], bots["beta"]["deviation"], bots["beta"]["uncertain"]) == (
        to_points(INITIAL_RATING), to_points(INITIAL_DEVIATION), True)
    assert bots["alpha"]["deviation"] < bots["beta"]["deviation"]


def test_public_reads(client, build, play):
    bot, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    games = client.get("/api/v1/games").get_json()["games"]
    assert {g["name"] for g in games} >= {"treasure", "drachengold"}
    board = client.get("/api/v1/leaderboards/treasure?per_page=2").get_json()
    assert board["per_page"] == 2 and len(board["rows"]) == 2 and board["total"] >= 3
    assert {"rank", "bot", "owner", "rating", "games", "win_rate", "provisional", "starter",
            "last_played_at"} <= set(board["rows"][0])
    assert client.get("/api/v1/leaderboards/chess").status_code == 404
    assert client.get("/api/v1/leaderboards/treasure?per_page=0").status_code == 400
    detail = client.get(f"/api/v1/bots/{bot.id}").get_json()
    assert detail["bot"]["name"] == "alpha" and detail["owner"] == "alice"
    assert detail["rating"]["games"] == 1 and len(detail["history"]) == 1
    assert detail["recent_matches"][0]["match_id"] == match_id
    versions = client.get(f"/api/v1/bots/{bot.id}/versions").get_json()["versions"]
    assert [v["number"] for v in versions] == [1]
    assert client.get(f"/api/v1/versions/{mine.id}").get_json()["version"]["sha256"] == versions[0]["sha256"]
    listing = client.get("/api/v1/matches?game=treasure").get_json()["matches"]
    assert listing[0]["id"] == match_id and listing[0]["status"] == "finished"
    match = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert len(match["seats"]) == 3 and match["replay"].endswith(f"/api/v1/matches/{match_id}/replay")
    assert all(s["rank"] for s in match["seats"])
    replay = client.get(f"/api/v1/matches/{match_id}/replay")
    assert replay.status_code == 200 and replay.get_json()["game"] == "treasure"
    assert client.get("/api/v1/bots/99999").status_code == 404
    assert client.get("/api/v1/bots/99999").get_json()["error"]


def test_logs_through_the_api_are_the_owners_only(client, build, sessions, play):
    alice = _token(build, sessions, "alice")
    bob = _token(build, sessions, "bob")
    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    url = f"/api/v1/matches/{match_id}/seats/0/log"
    own = client.get(url, headers=_auth(alice))
    assert own.status_code == 200 and "seat 0 says hello" in own.get_json()["text"]
    assert client.get(url, headers=_auth(bob)).status_code == 404
    assert client.get(url).status_code == 401


def test_index_lists_the_endpoints(client):
    endpoints = client.get("/api/v1/").get_json()["endpoints"]
    assert "POST /api/v1/bots" in endpoints and "GET /api/v1/leaderboards/<game>" in endpoints


def test_seeds_show_only_once_a_match_is_finished_and_failures_in_public_words(client, site, build, play, sessions):
    from sqlalchemy import update

    from ladder.models import Match

    starters = build.starters()
    queued, finished, failed = (build.match(starters[:2], seed=s) for s in (11, 12, 13))
    play(finished)
    with sessions() as session:
        session.exec(update(Match).where(Match.id == failed).values(
            status="failed", failure_reason="OSError: [Errno 36] File name too long: '/tmp/ladder-match-3-x/0/b.py'"))
        session.commit()
    assert client.get(f"/api/v1/matches/{queued}").get_json()["match"]["seed"] is None
    assert client.get(f"/api/v1/matches/{finished}").get_json()["match"]["seed"] == 12
    listed = {m["id"]: m for m in client.get("/api/v1/matches").get_json()["matches"]}
    assert listed[queued]["seed"] is None and listed[finished]["seed"] == 12
    assert "seed 11" not in site.text(f"/matches/{queued}") and "seed 12" in site.text(f"/matches/{finished}")
    for text in (site.text(f"/matches/{failed}"), client.get(f"/api/v1/matches/{failed}").get_data(as_text=True)):
        assert "ladder-match" not in text and "/tmp" not in text and "OSError" not in text
        assert "could not play this match" in text


def test_rejection_reasons_are_for_the_owner_only(client, build, sessions):
    token = _token(build, sessions)
    first = _upload(client, token)
    bot_id = first.get_json()["bot"]["id"]
    refused = client.post(f"/api/v1/bots/{bot_id}/versions", headers=_auth(token), content_type="multipart/form-data",
                          data={"file": (io.BytesIO(b"nope"), "bot.zip")})
    assert refused.status_code == 422
    version_id = refused.get_json()["version"]["id"]
    urls = (f"/api/v1/bots/{bot_id}", f"/api/v1/bots/{bot_id}/versions", f"/api/v1/versions/{version_id}")

    def reasons(headers):
        found = []
        for url in urls:
            body = client.get(url, headers=headers).get_json()
            versions = body.get("versions") or [body["version"]]
            found += [v["rejection_reason"] for v in versions if v["id"] == version_id]
        return found

    assert all("not a valid zip" in r for r in reasons(_auth(token)))
    assert reasons({}) == [None, None, None]
    assert reasons(_auth(_token(build, sessions, "bob"))) == [None, None, None]


def test_an_upload_only_token_reads_no_private_seat_data(site, build, play, monkeypatch):
    """A replay's private seat parts (the owner's stderr) need the read scope, like /me and logs."""
    site.signup("alice")
    tokens = {}
    for scope in ("read", "upload"):
        page = site.post("/account/tokens", {"name": scope, "scopes": [scope]}, page="/account/").get_data(as_text=True)
        tokens[scope] = re.search(r'id="api-token">([^<]+)<', page).group(1)
    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    owned_seats = []
    real = api_matches.load_replay_for
    monkeypatch.setattr(api_matches, "load_replay_for", lambda m, owns: owned_seats.append(owns) or real(m, owns))
    for scope in ("read", "upload"):
        assert site.client.get(f"/api/v1/matches/{match_id}/replay", headers=_auth(tokens[scope])).status_code == 200
    assert owned_seats == [{0}, set()]  # alice's seat is private data: the read token only


def test_a_built_versions_compiler_output_is_for_its_owner_only(client, build, sessions):
    from ladder.services import builds as build_service

    token = _token(build, sessions)
    body = _upload(client, token).get_json()
    version_id, bot_id = body["version"]["id"], body["bot"]["id"]
    with sessions() as session:
        build_service.store_artifact(session=session, store=client.application.extensions["ladder"].store,
                                     key="k" * 64, runtime="c", toolchain="gcc-12 12.2.0",
                                     data=b"tar", log="main.c:3: warning: unused variable 'x'\n", seconds=0.5)
        build_service.note_builds(session=session, keys={version_id: "k" * 64})
    mine = client.get(f"/api/v1/bots/{bot_id}", headers=_auth(token)).get_json()["versions"][0]
    assert mine["build_key"] == "k" * 64
    assert mine["build"] == {"toolchain": "gcc-12 12.2.0", "seconds": 0.5, "size": 3,
                             "log": "main.c:3: warning: unused variable 'x'\n"}
    theirs = client.get(f"/api/v1/bots/{bot_id}").get_json()["versions"][0]
    assert "build" not in theirs and theirs["build_key"] == "k" * 64


def test_the_owners_replay_carries_their_bots_stderr_and_nobody_elses(client, build, sessions, play):
    # docs/api.md and docs/protocol.md promise the owner's stderr in the replay; the worker stores
    # the logs apart from the replay, and the replay served never had them merged back
    alice, bob = _token(build, sessions, "alice"), _token(build, sessions, "bob")
    _, mine = build.bot("alice", "alpha")
    match_id = build.match([mine.id, *build.starters()[:2]])
    play(match_id)
    url = f"/api/v1/matches/{match_id}/replay"
    seats = client.get(url, headers=_auth(alice)).get_json()["seats"]
    assert "seat 0 says hello" in seats[0]["stderr"]
    assert all("stderr" not in seat for seat in seats[1:])
    for headers in (_auth(bob), {}):
        assert all("stderr" not in seat for seat in client.get(url, headers=headers).get_json()["seats"])
