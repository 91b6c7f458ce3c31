"""Live matches on the site (ladder/web/live.py over ladder/services/live.py), on a MemoryRelay the
app is given: the match page's live viewer, its long poll (frames as they come, the last one sent
again, a new attempt from the start, the end), the caps on waiting polls per process and per
address, /api/v1/live, and the lists of matches being played on the home page and a game's page.
What the worker publishes is tested in tests/workers/queue/test_live.py; here the messages are
put on the relay by hand, in the documented shapes."""

from __future__ import annotations

import threading
import time

import pytest
from frames_support import spectators_frames
from web.helpers import without_flood_limits

from ladder.config import Settings
from ladder.games.frames import Heading
from ladder.play import play_builtin
from ladder.relay.backends import MemoryRelay, topics
from ladder.replay.public import public_log
from ladder.services.matches import claim_match, release_match


@pytest.fixture
def settings(tmp_path) -> Settings:
    return without_flood_limits(Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict", placement_games=2,
                                         long_lived_per_process=1, live_waiting_per_address=1,
                                         live_wait_seconds=30))


@pytest.fixture
def relay(app) -> MemoryRelay:
    relay = MemoryRelay()
    app.config["LADDER_RELAY"] = relay
    return relay


@pytest.fixture
def running(build, sessions):
    """A treasure match of two starter bots, claimed by a worker (running)."""
    match_id = build.match(build.starters()[:2])
    with sessions() as session:
        claim_match(session=session, match_id=match_id, worker_id="w")
        session.commit()
    return match_id


@pytest.fixture
def game_log():
    """A played treasure game's public log, and the names of its seats."""
    played = play_builtin("treasure", ["random", "random"], seed=7)
    return public_log(played.replay.log), ["alice/one v1", "bob/two v1"]


def finish(sessions, play, match_id):
    """The worker that held the match gives it back, and another plays it to the end."""
    with sessions() as session:
        release_match(session=session, match_id=match_id, worker_id="w")
        session.commit()
    play(match_id)


def start(relay, match_id, names, attempt=1):
    relay.publish(topics.public(match_id), {"type": "start", "attempt": attempt, "game": "treasure", "players": 2,
                                            "options": {}, "names": names})


def entries(relay, match_id, log, first):
    relay.publish(topics.public(match_id), {"type": "entries", "first": first, "entries": log[first:]})


def expected_frames(log, names):
    return spectators_frames(Heading("treasure", 2, {}, tuple(names)), log)


def poll(client, match_id, **args):
    response = client.get(f"/matches/{match_id}/live.json", query_string=args)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def wait_until(check, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.01)


def test_the_viewer_gets_the_frames_as_they_come(client, relay, running, game_log):
    log, names = game_log
    before = poll(client, running)
    assert before["live"] is False and before["done"] is False and before["status"] == "running"
    start(relay, running, names)
    half = len(log) // 2
    relay.publish(topics.public(running), {"type": "entries", "first": 0, "entries": log[:half]})
    first = poll(client, running)
    assert first["live"] and first["from"] == 0 and first["names"] == names and first["attempt"]
    assert first["frames"] == expected_frames(log[:half], names)
    entries(relay, running, log, half)
    have = len(first["frames"])
    second = poll(client, running, cursor=first["cursor"], attempt=first["attempt"], have=have)
    assert second["from"] == have - 1  # the last frame again: a fault line may still join it
    assert first["frames"][:have - 1] + second["frames"] == expected_frames(log, names)
    assert second["total"] == len(expected_frames(log, names))
    # a client of an older attempt gets everything from the start
    again = poll(client, running, cursor=second["cursor"], attempt="0", have=have)
    assert again["from"] == 0 and again["frames"] == expected_frames(log, names)


@pytest.mark.parametrize("number", [2, 1])  # the ladder voided the attempt; another worker took the match over
def test_a_new_attempt_starts_the_view_over(client, relay, running, game_log, number):
    log, names = game_log
    start(relay, running, names)
    entries(relay, running, log, 0)
    first = poll(client, running)
    start(relay, running, names, attempt=number)
    relay.publish(topics.public(running), {"type": "entries", "first": 0, "entries": log[:3]})
    second = poll(client, running, cursor=first["cursor"], attempt=first["attempt"], have=len(first["frames"]))
    assert second["attempt"] != first["attempt"] and second["from"] == 0
    assert second["frames"] == expected_frames(log[:3], names)


def test_lost_messages_stop_the_live_view_rather_than_draw_a_wrong_table(client, relay, running, game_log):
    log, names = game_log
    start(relay, running, names)
    relay.publish(topics.public(running), {"type": "entries", "first": 5, "entries": log[5:]})  # 0..4 never came
    answer = poll(client, running)
    assert answer["live"] is False and answer["frames"] == []


def test_a_waiting_poll_gets_the_news_and_the_end(app, client, relay, running, game_log, play, sessions):
    log, names = game_log
    start(relay, running, names)
    entries(relay, running, log[:10], 0)
    first = poll(client, running)
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(
        poll(app.test_client(), running, cursor=first["cursor"], attempt=first["attempt"], have=len(first["frames"]),
             wait=1)))
    waiter.start()
    wait_until(lambda: app.extensions["ladder_live_waiting"].total == 1)
    entries(relay, running, log, 10)
    waiter.join(30)
    assert not waiter.is_alive() and answers[0]["cursor"] != first["cursor"]
    assert first["frames"][:-1] + answers[0]["frames"] == expected_frames(log, names)
    # the match ends: its result is stored, then the end message wakes whoever waits
    with_end = threading.Thread(target=lambda: answers.append(
        poll(app.test_client(), running, cursor=answers[0]["cursor"], attempt=first["attempt"], have=9999, wait=1)))
    with_end.start()
    wait_until(lambda: app.extensions["ladder_live_waiting"].total == 1)
    finish(sessions, play, running)  # the fake runner records a result: finished
    relay.publish(topics.public(running), {"type": "end", "status": "finished"})
    with_end.join(30)
    assert answers[1]["done"] is True and answers[1]["status"] == "finished"
    assert poll(client, running)["done"] is True  # and so it stays, without a relay read


def test_waiting_polls_are_capped_per_process_and_per_address(app, relay, running, game_log):
    log, names = game_log
    start(relay, running, names)
    first = poll(app.test_client(), running)
    here = app.test_client()
    here.environ_base["REMOTE_ADDR"] = "10.0.0.1"
    there = app.test_client()
    there.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    held = []
    waiter = threading.Thread(target=lambda: held.append(
        poll(here, running, cursor=first["cursor"], attempt=first["attempt"], have=0, wait=1)))
    waiter.start()
    wait_until(lambda: app.extensions["ladder_live_waiting"].total == 1)
    # the process holds its one waiting poll (its whole budget of held requests, ladder/web/held.py):
    # another address is answered at once, 429, told when to come back
    at_once = there.get(f"/matches/{running}/live.json", query_string={
        "cursor": first["cursor"], "attempt": first["attempt"], "have": 0, "wait": 1})
    assert at_once.status_code == 429 and at_once.get_json()["retry_ms"] > 0
    assert app.extensions["ladder_long_lived"].held == 1
    # the same address may not hold a second one
    refused = here.get(f"/matches/{running}/live.json", query_string={"cursor": first["cursor"], "wait": 1})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "live views waiting" in refused.get_json()["error"]
    api = here.get(f"/api/v1/live/{running}", query_string={"after": first["cursor"], "wait": 5})
    assert api.status_code == 429
    entries(relay, running, log, 0)  # news: the held poll answers and frees its place
    waiter.join(30)
    assert held and held[0]["live"]
    assert app.extensions["ladder_live_waiting"].total == 0 and not app.extensions["ladder_live_waiting"].by_address
    assert app.extensions["ladder_long_lived"].held == 0


@pytest.mark.parametrize("query", [{"cursor": "x"}, {"cursor": "1" * 41}, {"have": "-1"}, {"attempt": "z"},
                                   {"wait": "2"}])
def test_bad_parameters_are_refused(client, relay, running, query):
    response = client.get(f"/matches/{running}/live.json", query_string=query)
    assert response.status_code == 400


def test_no_such_match(client, relay):
    assert client.get("/matches/999999/live.json").status_code == 404
    assert client.get("/matches/99999999999999999999/live.json").status_code == 404
    assert client.get("/api/v1/live/999999").status_code == 404


def test_the_match_page_follows_a_running_match_and_shows_a_finished_one(client, relay, running, play, sessions):
    page = client.get(f"/matches/{running}").get_data(as_text=True)
    assert f'data-live="/matches/{running}/live.json"' in page
    # the live view moves and the page stays; only a browser without JavaScript reloads it
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in page
    finish(sessions, play, running)
    page = client.get(f"/matches/{running}").get_data(as_text=True)
    assert "data-live" not in page and 'data-frames="' in page


def test_the_home_page_and_the_games_page_list_matches_being_played(client, relay, running):
    for url in ("/", "/leaderboard/treasure"):
        page = client.get(url).get_data(as_text=True)
        assert "Being played now" in page and f'href="/matches/{running}"' in page, url
    assert "Being played now" not in client.get("/leaderboard/drachengold").get_data(as_text=True)


def test_the_api_lists_live_matches_and_relays_their_messages(client, relay, running, game_log):
    log, names = game_log
    listed = client.get("/api/v1/live").get_json()["matches"]
    assert [m["id"] for m in listed] == [running]
    assert listed[0]["game"] == "treasure" and len(listed[0]["seats"]) == 2
    assert listed[0]["feed"].endswith(f"/api/v1/live/{running}")
    assert client.get("/api/v1/live?game=treasure").get_json()["matches"][0]["id"] == running
    assert client.get("/api/v1/live?game=drachengold").get_json()["matches"] == []
    assert client.get("/api/v1/live?game=nope").status_code == 404
    assert client.get("/api/v1/live?gmae=treasure").status_code == 400
    start(relay, running, names)
    entries(relay, running, log, 0)
    feed = client.get(f"/api/v1/live/{running}").get_json()
    assert [m["type"] for m in feed["messages"]] == ["start", "entries"]
    assert feed["messages"][1]["entries"] == log and feed["status"] == "running"
    relay.publish(topics.public(running), {"type": "end", "status": "finished"})
    rest = client.get(f"/api/v1/live/{running}", query_string={"after": feed["cursor"]}).get_json()
    assert [m["type"] for m in rest["messages"]] == ["end"]
    for bad in ("abc", "9" * 30):
        assert client.get(f"/api/v1/live/{running}", query_string={"after": bad}).status_code == 400
