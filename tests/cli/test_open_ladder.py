"""The open ladder end to end: a real web server, the scheduler's open-ladder tick, a worker playing
the match through workers.queue.jobs, and remote clients (`ladder connect --open`'s code: each opts
its bot in, waits in the lobby, and plays the match it is paired into with a local bot process over
the websocket). Three clients play; a fourth is paired and never connects: the clock hands its seat
to the fallback, the match is rated on the open ladder only, and the no-show is counted."""

from __future__ import annotations

import random
import threading
import time

import pytest
from service_support import redis_url  # noqa: F401 (fixture)
from sqlmodel import select
from werkzeug.serving import make_server

from ladder import create_app
from ladder.cli import connect as connect_cmd
from ladder.cli.open_ladder import LobbyClient
from ladder.config import Settings
from ladder.db import session_factory
from ladder.models import Bot, LobbyEntry, Match, Seat
from ladder.relay.backends import relay_for
from ladder.services import lobby, tokens
from ladder.services.bots import seed_house_bots
from ladder.services.users import sign_up
from workers.match.runner import builtin_source
from workers.queue.jobs import play_match
from workers.queue.lobby import schedule_open

PLAYERS = ("ann", "bob", "cyd")
NO_SHOW = "dee"


@pytest.fixture(params=["database", "redis"])
def ladder_site(request, engine, tmp_path):
    redis = request.getfixturevalue("redis_url") if request.param == "redis" else None
    settings = Settings(env="test", instance_dir=tmp_path, sandbox_mode="none", redis_url=redis)
    sessions = session_factory(engine)
    play = {}
    with sessions() as session:
        seed_house_bots(session=session, username=settings.house_username)
        for name in (*PLAYERS, NO_SHOW):
            user = sign_up(session=session, data={"username": name, "password": "correct horse battery"})
            play[name] = tokens.create(session=session, user_id=user.id, name="home", scopes=["play"])[1]
    app = create_app({"settings": settings, "LADDER_ENGINE": engine, "TESTING": True, "LADDER_DISPATCH": list})
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield {"url": f"http://127.0.0.1:{http.server_port}", "tokens": play, "sessions": sessions,
           "settings": settings, "relay": relay_for(settings, engine)}
    http.shutdown()
    thread.join(10)


def test_remote_clients_wait_get_paired_and_play_a_rated_open_match(ladder_site, tmp_path):
    site = ladder_site
    bot = tmp_path / "mybot.py"  # an author's copy of a starter bot: the same file the sandbox would run
    bot.write_text(builtin_source("treasure", "careful").read_text())
    reports: dict[str, connect_cmd.MatchReport] = {}
    paired: dict[str, tuple[int, int]] = {}
    errors: list = []
    bot_ids: dict[str, int] = {}

    def client(name: str) -> None:  # one owner's machine
        try:
            ladder = connect_cmd.Ladder(site["url"], site["tokens"][name])
            lobby_client = LobbyClient(ladder, connect_cmd.LadderRefused)
            bot_ids[name] = lobby_client.opt_in("treasure", f"{name}-home")
            found = lobby_client.next_match(bot_ids[name], wait_s=2, give_up_s=120)
            assert found is not None, f"{name} was never paired"
            paired[name] = found
            if name == NO_SHOW:  # told its match, it never connects
                return
            reports[name] = connect_cmd.outcome(ladder, connect_cmd.play_one(
                ladder, str(bot), *found, cut_chance=0.0, rng=random.Random(0)), timeout_s=300)
            lobby_client.leave(bot_ids[name])
        except BaseException as exc:  # reported by the test, not lost in a thread
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(name,), daemon=True) for name in (*PLAYERS, NO_SHOW)]
    for thread in threads:
        thread.start()

    def waiting() -> int:
        with site["sessions"]() as session:
            return len(lobby.waiting_bots(session=session, game="treasure"))

    deadline = time.monotonic() + 60
    while waiting() < 4:  # all four in the lobby before the first tick: one table of the game's 4
        assert time.monotonic() < deadline and not errors, errors
        time.sleep(0.05)
    made = schedule_open(site["sessions"], site["settings"], site["relay"], rng=random.Random(26))
    assert len(made) == 1
    result = play_match(made[0], sessions=site["sessions"], settings=site["settings"], worker_id="test-worker")
    assert result.status == "finished", result
    for thread in threads:
        thread.join(300)
    assert not errors, errors
    assert {paired[name][0] for name in paired} == set(made)

    match_id = made[0]
    with site["sessions"]() as session:
        match = session.get(Match, match_id)
        assert match.ranked and match.kind == "ladder"
        seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.match_id == match_id))}
        remote = {b.id for b in session.exec(select(Bot).where(Bot.remote == True))}  # noqa: E712
    assert {s.bot_id for s in seats.values()} == set(bot_ids.values()) <= remote
    for name in PLAYERS:  # played to the end over the websocket, exactly as a challenge
        assert reports[name].status == "finished" and reports[name].seat_status == "ok", reports[name]
    assert seats[paired[NO_SHOW][1]].status != "ok"  # the fallback played the no-show's seat

    ladder = connect_cmd.Ladder(site["url"], site["tokens"]["ann"])
    status, board, _ = ladder.call("GET", "/api/v1/leaderboards/treasure/open")
    assert status == 200
    assert {row["bot_id"] for row in board["rows"]} == set(bot_ids.values())  # rated on the open ladder
    assert all(row["games"] == 1 for row in board["rows"])
    status, sandboxed, _ = ladder.call("GET", "/api/v1/leaderboards/treasure")
    assert status == 200 and not {row["bot_id"] for row in sandboxed["rows"]} & set(bot_ids.values())

    # the next tick settles the match: the no-show is counted, the others shown up
    assert schedule_open(site["sessions"], site["settings"], site["relay"]) == []
    with site["sessions"]() as session:
        entries = {name: session.get(LobbyEntry, bot_ids[name]) for name in bot_ids}
    assert entries[NO_SHOW].no_shows == 1 and entries[NO_SHOW].match_id is None
    assert all(entries[name].no_shows == 0 and not entries[name].waiting for name in PLAYERS)
