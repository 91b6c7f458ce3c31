"""The remote seat's websocket on a real server (werkzeug, threaded), against hostile clients.

The test stands for the worker: it writes the seat's down topic and reads its up topic on the app's
relay (an in-process one). Each hostile client is refused, or only its own connection ends (a cut of
its own seat), while another seat's connection keeps relaying."""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time

import pytest
from werkzeug.serving import make_server

from ladder.relay import seat_relay, ws_client
from ladder.relay.backends import MemoryRelay
from ladder.services import outside, tokens
from ladder.services.seat_slots import SeatSlots
from ladder.web.api import seat_poll, seat_socket

HELLO = json.dumps({"type": "hello", "seat": 0})


@pytest.fixture
def server(app):
    relay = MemoryRelay()
    app.extensions["ladder_relay"] = relay
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{http.server_port}", relay
    http.shutdown()
    thread.join(10)


@pytest.fixture
def alice(build, app):
    """A user with a play token and one without, and three remote challenges of theirs."""
    user = build.user("alice")
    with build.sessions() as session:
        play = tokens.create(session=session, user_id=user.id, name="home", scopes=["play"])[1]
        read = tokens.create(session=session, user_id=user.id, name="read", scopes=["read"])[1]
        matches = [outside.remote_challenge(session=session, user_id=user.id, game="treasure", bot_name="far",
                                            against=["house/careful"])[0].id for _ in range(3)]
    return {"play": play, "read": read, "matches": matches, "id": user.id}


def connect(address: str, token: str | None, match_id: int, seat: int = 0, query: str = ""):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return ws_client.Client.connect(f"ws://{address}/api/v1/seats/{match_id}/{seat}/ws{query}", headers=headers)


def refused(address, token, match_id, seat=0, query="") -> int:
    with pytest.raises(ws_client.ConnectionError) as caught:
        connect(address, token, match_id, seat, query)
    return caught.value.status_code


def marks(relay: MemoryRelay, match_id: int, seat: int = 0) -> list[str]:
    return [m.data.get("mark", "line") for m in relay.read(seat_relay.up_topic(match_id, seat), limit=10_000)]


def wait_for(predicate, seconds: float = 20.0) -> None:
    """Poll observable state (never a timing assertion): fail only after a generous wait."""
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "the expected state was never reached"
        time.sleep(0.02)


def down(relay: MemoryRelay, match_id: int, *messages: dict, seat: int = 0) -> None:
    relay.publish_many(seat_relay.down_topic(match_id, seat), list(messages))


def test_refusals_come_before_the_handshake(server, alice, build):
    address, relay = server
    match = alice["matches"][0]
    assert refused(address, None, match) == 401
    assert refused(address, "ldr_forged", match) == 401
    assert refused(address, alice["read"], match) == 403  # a token without the play scope
    assert refused(address, alice["play"], match, seat=1) == 404  # the house bot's seat
    assert refused(address, alice["play"], 10**9) == 404
    bob = build.user("bob")
    with build.sessions() as session:
        bob_token = tokens.create(session=session, user_id=bob.id, name="home", scopes=["play"])[1]
    assert refused(address, bob_token, match) == 404  # not theirs: the same answer as no seat at all
    for query in ("?received=x", "?received=%00", "?received=1&received=2", "?after=3", "?received=" + "9" * 50):
        assert refused(address, alice["play"], match, query=query) == 400
    assert marks(relay, match) == []  # nothing reached the relay


def test_a_connection_carries_lines_both_ways_and_resumes_where_it_was(server, alice):
    address, relay = server
    match = alice["matches"][0]
    down(relay, match, {"line": HELLO}, {"line": '{"type":"request","id":1}'})
    ws = connect(address, alice["play"], match)
    assert json.loads(ws.receive(10)) == json.loads(HELLO)
    ws.send('{"type":"ready"}\n')
    assert ws.receive(10) == '{"type":"request","id":1}'
    ws.close()
    wait_for(lambda: marks(relay, match) == ["connect", "line", "cut"])

    ws = connect(address, alice["play"], match, query="?received=1")  # it had the hello: the request next
    assert ws.receive(10) == '{"type":"request","id":1}'
    ws.send('{"id":1,"decision":{}}')
    down(relay, match, {"line": '{"type":"end","results":[],"you":0}'}, {"close": "the match is over"})
    assert ws.receive(10).startswith('{"type":"end"')
    with pytest.raises(ws_client.ConnectionClosed):
        ws.receive(10)
    assert ws.close_reason == 1000 and ws.close_message == "the match is over"
    wait_for(lambda: marks(relay, match)[3:] in (["connect", "line", "delivered"], ["connect", "delivered", "line"]))
    time.sleep(0.5)
    assert "cut" not in marks(relay, match)[3:]  # a seat finished with: its closing is no cut


@pytest.mark.parametrize("abuse, mark, code", [
    ("binary", "cut", 1003),
    ("oversized", "oversized", 1009),
    ("flood", "flood", 1008),
])
def test_malformed_frames_oversized_lines_and_floods_end_only_that_connection(server, alice, abuse, mark, code):
    address, relay = server
    bad, good = alice["matches"][:2]
    down(relay, good, {"line": HELLO})
    down(relay, bad, {"line": HELLO})
    other = connect(address, alice["play"], good)
    assert other.receive(10) == HELLO
    ws = connect(address, alice["play"], bad)
    assert ws.receive(10) == HELLO
    if abuse == "binary":
        ws.send(b"\x00\xff")
    elif abuse == "oversized":
        ws.send("x" * (seat_relay.MAX_LINE_BYTES + 10))
    else:
        for _ in range(seat_relay.FLOOD_SLACK + 5):
            ws.send('{"type":"ready"}')
    with pytest.raises(ws_client.ConnectionClosed):
        while True:
            ws.receive(10)
    wait_for(lambda: mark in marks(relay, bad))
    assert ws.close_reason == code
    lines = [m for m in relay.read(seat_relay.up_topic(bad, 0), limit=10_000) if "line" in m.data]
    assert all(len(m.data["line"]) <= seat_relay.MAX_LINE_BYTES for m in lines)
    assert len(lines) <= 1 + seat_relay.FLOOD_SLACK
    # the other seat's connection still relays both ways
    other.send('{"type":"ready"}')
    wait_for(lambda: marks(relay, good) == ["connect", "line"])
    down(relay, good, {"line": '{"type":"request","id":1}'})
    assert other.receive(10) == '{"type":"request","id":1}'
    other.close()


def test_a_second_connection_replaces_the_first_and_a_storm_leaves_one(server, alice, app):
    address, relay = server
    app.extensions["ladder_limiter"].enabled = False  # 22 handshakes at once: this is the replacing, not the rate
    match = alice["matches"][0]
    first = connect(address, alice["play"], match)
    wait_for(lambda: marks(relay, match) == ["connect"])
    second = connect(address, alice["play"], match)
    with pytest.raises(ws_client.ConnectionClosed):
        first.receive(10)
    # 4000 says why; the replaced handler's own return may close it first as a normal end (1000)
    assert first.close_reason in (4000, 1000)
    storm = [second, *(connect(address, alice["play"], match) for _ in range(20))]
    wait_for(lambda: marks(relay, match).count("connect") == 22)
    down(relay, match, {"line": HELLO})
    survivors = []
    for ws in storm:  # whichever connection the server took last is the one left
        try:
            if ws.receive(10) == HELLO:
                survivors.append(ws)
        except ws_client.ConnectionClosed:
            assert ws.close_reason in (4000, 1000)
    assert len(survivors) == 1
    survivors[0].close()
    # each connection's end is one cut of this seat (its client left it), and only one
    wait_for(lambda: marks(relay, match).count("cut") == 22)
    up = relay.read(seat_relay.up_topic(match, 0), limit=10_000)
    assert {m.data["conn"] for m in up if m.data.get("mark") == "cut"} == \
        {m.data["conn"] for m in up if m.data.get("mark") == "connect"}


def test_connections_per_user_and_per_address_are_limited(server, alice, app):
    address, relay = server
    app.extensions["ladder_seat_slots"] = SeatSlots(app.extensions["ladder"].engine, per_user=2, per_address=8)
    open_ = [connect(address, alice["play"], m) for m in alice["matches"][:2]]
    assert refused(address, alice["play"], alice["matches"][2]) == 429
    down(relay, alice["matches"][0], {"line": HELLO})
    assert open_[0].receive(10) == HELLO  # the ones open are unaffected
    open_[1].close()
    wait_for(lambda: "cut" in marks(relay, alice["matches"][1]))
    third = connect(address, alice["play"], alice["matches"][2])  # a place is free again
    third.close()
    open_[0].close()


def test_a_client_that_reads_nothing_is_cut_off_without_holding_others(server, alice, monkeypatch):
    address, relay = server
    monkeypatch.setattr(seat_socket, "SEND_TIMEOUT_S", 1)
    slow_match, good = alice["matches"][:2]
    host, port = address.split(":")
    raw = socket.create_connection((host, int(port)))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET /api/v1/seats/{slow_match}/0/ws HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                 f"Authorization: Bearer {alice['play']}\r\n\r\n").encode())
    assert raw.recv(12) == b"HTTP/1.1 101"
    line = json.dumps({"type": "event", "pad": "x" * (seat_relay.MAX_LINE_BYTES - 100)})
    for _ in range(10):  # far more than the socket buffers hold, and nobody reads
        down(relay, slow_match, *[{"line": line}] * 20)
        if "cut" in marks(relay, slow_match):
            break
    wait_for(lambda: "cut" in marks(relay, slow_match), 60)
    down(relay, good, {"line": HELLO})
    ws = connect(address, alice["play"], good)
    assert ws.receive(10) == HELLO
    ws.close()
    raw.close()


def test_a_close_before_a_restart_is_an_earlier_attempts_and_the_connection_stays(server, alice):
    """A match the ladder plays again keeps its topic: a client joining late hears the old attempt,
    the `restart`, and the new `hello`, and is not closed by the old attempt's close."""
    address, relay = server
    match = alice["matches"][0]
    restart = seat_relay.restart_line("played again")
    down(relay, match, {"line": HELLO}, {"close": "the fallback bot plays this seat now: error"},
         {"line": restart}, {"line": HELLO})
    ws = connect(address, alice["play"], match)
    assert [ws.receive(10) for _ in range(3)] == [HELLO, restart, HELLO]
    down(relay, match, {"line": '{"type":"request","id":1}'})
    assert ws.receive(10) == '{"type":"request","id":1}'  # still open, still relaying
    ws.close()


@pytest.fixture
def second_server(app, server, engine, settings):
    """Another web process over the same database and relay: its own app, its own server."""
    from ladder import create_app

    other = create_app({"settings": settings, "LADDER_ENGINE": engine, "TESTING": True,
                        "LADDER_DISPATCH": lambda ids: None})
    other.extensions["ladder_relay"] = server[1]
    http = make_server("127.0.0.1", 0, other, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{http.server_port}", other
    http.shutdown()
    thread.join(10)


def test_two_web_processes_share_the_limits_and_the_one_connection_per_seat(server, second_server, alice, app):
    (first, relay), (second, other) = server, second_server
    for each in (app, other):
        each.extensions["ladder_seat_slots"] = SeatSlots(each.extensions["ladder"].engine, per_user=2, per_address=8)
    one, two, three = alice["matches"]
    on_first = connect(first, alice["play"], one)
    on_second = connect(second, alice["play"], two)
    assert refused(first, alice["play"], three) == 429  # the first process counts the second's connection
    assert refused(second, alice["play"], three) == 429
    again = connect(second, alice["play"], one)  # seat `one`, held by the first process, is replaced
    with pytest.raises(ws_client.ConnectionClosed):
        on_first.receive(10)
    assert on_first.close_reason == 4000
    wait_for(lambda: marks(relay, one) == ["connect", "connect", "cut"])
    down(relay, one, {"line": HELLO})
    assert again.receive(10) == HELLO
    for ws in (again, on_second):
        ws.close()
    wait_for(lambda: marks(relay, two) == ["connect", "cut"])
    third = connect(first, alice["play"], three)  # the places are free again on both
    third.close()


def http(address: str, token: str | None, method: str, path: str, body: bytes | None = None):
    """(status, JSON) of one request to the seat's HTTP long poll."""
    import urllib.error
    import urllib.request

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(f"http://{address}{path}", data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def test_the_http_long_poll_refuses_as_the_websocket_does(server, alice):
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    assert http(address, None, "GET", path)[0] == 401
    assert http(address, alice["read"], "GET", path)[0] == 403
    assert http(address, alice["play"], "GET", f"/api/v1/seats/{match}/1/lines")[0] == 404
    for query in ("?wait=x", "?wait=99", "?after=x", "?received=1", "?wait=1&wait=2"):
        assert http(address, alice["play"], "GET", path + query)[0] == 400, query
    assert http(address, alice["play"], "POST", path, b'{"type":"ready"}')[0] == 400  # no conn
    assert http(address, alice["play"], "POST", path + "?conn=forged", b'{"type":"ready"}')[0] == 409
    assert marks(relay, match) == []  # nothing reached the relay


def test_lines_go_both_ways_over_http_and_the_end_closes_the_seat(server, alice):
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    down(relay, match, {"line": HELLO})
    status, got = http(address, alice["play"], "GET", path + "?wait=5")
    assert status == 200 and got["lines"] == [HELLO] and got["closed"] is None
    conn, after = got["conn"], got["after"]
    assert http(address, alice["play"], "POST", f"{path}?conn={conn}", b'{"type":"ready"}\n')[0] == 200
    assert marks(relay, match) == ["connect", "line"]  # the POST's renewal ends before the GET's: no lease
    status, got = http(address, alice["play"], "GET", f"{path}?conn={conn}&after={after}&wait=0")
    assert status == 200 and got["lines"] == []  # nothing new yet
    down(relay, match, {"line": '{"type":"end","results":[],"you":0}'}, {"close": "the match is over"})
    status, got = http(address, alice["play"], "GET", f"{path}?conn={conn}&after={after}&wait=5")
    assert got["lines"] == ['{"type":"end","results":[],"you":0}'] and got["closed"] == "the match is over"
    assert marks(relay, match)[-1] == "delivered"
    assert http(address, alice["play"], "POST", f"{path}?conn={conn}", b'{}')[0] == 409  # the seat is over


@pytest.mark.parametrize("abuse, mark, status", [("oversized", "oversized", 413), ("flood", "flood", 422)])
def test_floods_and_oversized_lines_over_http_are_the_seats_faults(server, alice, abuse, mark, status):
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    down(relay, match, {"line": HELLO})
    conn = http(address, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    body = b"x" * (seat_relay.MAX_LINE_BYTES + 10) if abuse == "oversized" else \
        b'{"type":"ready"}\n' * (seat_relay.FLOOD_SLACK + 5)
    assert http(address, alice["play"], "POST", f"{path}?conn={conn}", body)[0] == status
    assert marks(relay, match) in (["connect", mark], ["connect", "lease", mark])  # nothing of the lines went up
    assert http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=0")[0] == 409  # that connection is over


def test_polling_in_a_tight_loop_does_not_fill_the_seats_topic(server, alice):
    """Each renewal that moves the connection's end is a mark on the up topic; one that does not
    (a GET with wait=0 right after another) adds nothing, so a spinning client cannot push the
    seat's lines out of a topic that keeps its last 10,000 messages."""
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    started = time.monotonic()
    conn = http(address, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    for _ in range(18):  # within the seats' request rate (seat_rate: 20 a second)
        assert http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=0")[0] == 200
    seconds = time.monotonic() - started
    got = marks(relay, match)
    assert got[0] == "connect" and set(got[1:]) <= {"lease"}
    assert len(got) <= 2 + seconds / seat_poll.LEASE_SLACK_S, (len(got), seconds)
    status = http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=3")[0]
    assert status == 200 and marks(relay, match)[-1] == "lease"  # a longer wait moves the end: told


def test_a_websocket_replaces_a_polling_connection(server, alice):
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    conn = http(address, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    ws = connect(address, alice["play"], match)
    wait_for(lambda: marks(relay, match) == ["connect", "connect"])  # the worker cuts the polling one
    assert http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=0")[0] == 409
    ws.close()


def test_past_the_budget_of_held_requests_a_seat_is_answered_at_once_with_retry_ms(server, alice, app):
    """One budget over every long-lived request of the process (ladder/web/held.py): past it a
    seat's waiting GET and a websocket handshake are answered at once, 429 with retry_ms, the GET
    keeping its connection (it renewed it); a page needs no place and is served meanwhile."""
    address, relay = server
    places = app.extensions["ladder_long_lived"]
    places.limit = 1
    first, other = (f"/api/v1/seats/{m}/0/lines" for m in alice["matches"][:2])
    waiting = []
    waiter = threading.Thread(target=lambda: waiting.append(http(address, alice["play"], "GET", first + "?wait=20")))
    waiter.start()
    wait_for(lambda: places.held == 1)
    status, body = http(address, alice["play"], "GET", other + "?wait=20")
    assert status == 429 and body["retry_ms"] > 0 and body["conn"]
    assert http(address, alice["play"], "GET", f"{other}?conn={body['conn']}&wait=0")[0] == 200  # still its own
    assert refused(address, alice["play"], alice["matches"][2]) == 429
    import urllib.request

    with urllib.request.urlopen(f"http://{address}/", timeout=10) as page:
        assert page.status == 200
    down(relay, alice["matches"][0], {"line": HELLO})
    waiter.join(10)
    assert waiting[0][0] == 200 and waiting[0][1]["lines"] == [HELLO]
    assert places.held == 0


def test_a_second_waiting_get_on_a_conn_replaces_the_first(server, alice, app):
    """One waiting GET per `conn`: a newer one replaces it, and the older answers at once with
    nothing (no line is lost: the newer reads from its own `after`), so one `conn` never holds two
    places of the budget."""
    address, relay = server
    places = app.extensions["ladder_long_lived"]
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    conn = http(address, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    answers: dict[str, tuple] = {}

    def get(name: str) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.__setitem__(
            name, http(address, alice["play"], "GET", f"{path}?conn={conn}&wait=20")))
        thread.start()
        return thread

    older = get("older")
    wait_for(lambda: places.held == 1)
    newer = get("newer")
    older.join(10)
    assert not older.is_alive() and answers["older"][0] == 200
    assert answers["older"][1]["replaced"] is True and answers["older"][1]["lines"] == []
    wait_for(lambda: places.held == 1)  # the newer one only
    down(relay, match, {"line": HELLO})
    newer.join(10)
    assert answers["newer"][1]["lines"] == [HELLO] and "replaced" not in answers["newer"][1]
    assert places.held == 0



def test_a_post_reads_only_what_came_since_the_last_one(server, alice):
    """Each POST counts the lines up and the requests down (the flood rule) from where this process
    counted last, not over both whole topics again (a topic holds a whole match)."""
    address, relay = server
    match = alice["matches"][0]
    path = f"/api/v1/seats/{match}/0/lines"
    down(relay, match, {"line": HELLO}, *({"line": f'{{"type":"request","id":{i}}}'} for i in range(1, 60)))
    conn = http(address, alice["play"], "GET", path + "?wait=0")[1]["conn"]
    assert http(address, alice["play"], "POST", f"{path}?conn={conn}", b'{"type":"ready"}\n')[0] == 200
    seat_topics = {seat_relay.up_topic(match, 0), seat_relay.down_topic(match, 0)}
    reads: list[tuple[str, str, int]] = []
    whole = relay.read

    def counted(topic, after="0", **kw):
        got = whole(topic, after, **kw)
        if topic in seat_topics:
            reads.append((topic, after, len(got)))
        return got

    relay.read = counted
    assert http(address, alice["play"], "POST", f"{path}?conn={conn}", b'{"id":1,"decision":{}}\n')[0] == 200
    assert reads and all(after != "0" for _, after, _ in reads), reads
    assert sum(n for _, _, n in reads) <= 3, reads  # the one line (and mark) since, not 60 and more
    assert marks(relay, match).count("line") == 2


def test_a_websocket_is_closed_once_its_token_is_revoked(server, alice, build, monkeypatch):
    """A websocket outlives the handshake that checked its token: once the token is revoked (here
    tokens.revoke_all, what log out everywhere, a password change and a suspension each call) it is
    closed within TOKEN_CHECK_S with REVOKED_CLOSE and a reason, and counts as a cut of its seat."""
    address, relay = server
    monkeypatch.setattr(seat_socket, "TOKEN_CHECK_S", 0.2)
    match = alice["matches"][0]
    ws = connect(address, alice["play"], match)
    down(relay, match, {"line": HELLO})
    assert ws.receive(10) == HELLO  # it plays while the token lives
    with build.sessions() as session:
        tokens.revoke_all(session=session, user_id=alice["id"])
    with pytest.raises(ws_client.ConnectionClosed):
        ws.receive(10)
    assert ws.close_reason == seat_relay.REVOKED_CLOSE and "revoked" in ws.close_message
    wait_for(lambda: marks(relay, match) == ["connect", "cut"])
    assert refused(address, alice["play"], match) == 401  # and it cannot come back with it
