"""The websocket of a remote seat (docs/remote.md): a program played from outside the sandbox
sends and receives its protocol lines here.

The web tier relays, it never plays: the worker holding the match plays the seat
(workers/match/seats/outside.py) and the two meet on the relay (ladder/relay/seat_relay.py). Everything a
hostile client could do is refused here without touching another match: a connection is refused
before the handshake (a bad token, a token without `play`, a seat not theirs, too many at once,
a bad `received`); once open, a binary frame, a line over the cap, more lines than requests, a
client too slow to read, all end that connection (a cut of that seat, nothing else); a second
connection to the same seat replaces the first. Every connection that ends before the seat is
finished with is one cut of that seat (a `disconnect` fault: workers/match/seats/outside.py),
replaced ones too: a client that reconnects before its old connection is seen to end left it all
the same.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from typing import Any

from flask import Response, g, request
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from ladder.relay import seat_relay
from ladder.services import outside
from ladder.services.errors import NotFound
from ladder.services.tokens import authenticate as authenticate_token
from ladder.services.tokens import bearer, is_live
from ladder.web.api.seat_counts import _asks, _sent
from ladder.web.api.seat_lines import down_message, refuse, slots, up_fault
from ladder.web.common import db, relay, status_for
from ladder.web.held import budget, take_or_refuse
from ladder.web.limiting import _address

sock = Sock()  # its one route is registered with the others (ladder/web/api/__init__.py)

SEND_TIMEOUT_S = 10  # a client that reads nothing for this long while we write is cut off
PING_S = 10  # pings keep idle connections alive and find dead ones
POLL_S = 1.0  # how long one wait on the relay or the socket lasts before checking the other side
WS_LEASE_S = 60  # a websocket's place in seat_connections is held this long past its last renewal
RENEW_S = 15  # and renewed this often while the connection lives
# A websocket outlives the handshake that checked its token: it looks again this often (one
# primary-key read) and is closed (seat_relay.REVOKED_CLOSE) once the token is revoked
TOKEN_CHECK_S = 5


def init_app(app) -> None:
    app.config.setdefault("SOCK_SERVER_OPTIONS", {"ping_interval": PING_S,
                                                  "max_message_size": seat_relay.MAX_LINE_BYTES + 2})
    sock.init_app(app)


def before_handshake(allowed: tuple[str, ...]) -> Response | None:
    """Every refusal happens here, as a plain HTTP answer: no handshake, no thread held. The
    long-poll endpoints share the checks of who may play the seat; their own are in their views.
    `allowed`: the query parameters the route takes (for the long poll, with this method)."""
    http = request.endpoint == "seats.lines"
    for name in request.args:
        if name not in allowed or len(request.args.getlist(name)) > 1:
            return refuse(400, f"unknown or repeated query parameter {name[:40]!r}: it takes "
                               f"{', '.join(allowed) or 'none'}")
    received = request.args.get("received", "0")
    if not received.isdigit() or len(received) > 6:
        return refuse(400, "received is the number of lines you already have (a whole number)")
    token = bearer(request.headers.get("Authorization"))
    found = authenticate_token(session=db(), token=token) if token is not None else None
    if found is None:
        return refuse(401, "a remote seat needs a personal API token: Authorization: Bearer <token>")
    if "play" not in found.token.scope_set:
        return refuse(403, "this token lacks the 'play' scope; create one with it on your account page")
    try:
        access = outside.seat_access(session=db(), user_id=found.user.id, match_id=request.view_args["match_id"],
                                     seat=request.view_args["seat"])
    except NotFound as exc:
        return refuse(status_for(exc), str(exc))
    db().commit()  # end the read: a connection lasts a whole match and must hold no transaction
    if http:
        g.seat_user, g.seat_access = found.user.id, access
        return None
    if request.headers.get("Upgrade", "").lower() != "websocket":
        return refuse(400, "connect with a websocket (Upgrade: websocket)")
    # a place in the process's budget of held requests, then the seat's place, both before the
    # handshake, so no burst of handshakes gets past the limits
    refused = take_or_refuse("connect")
    if refused is not None:
        return refused
    conn = Connection(None, relay(), access.match_id, access.seat, found.user.id, _address())
    conn.token_id = found.token.id
    g.seat_conn = conn  # from here the teardown gives back what a connection that never started holds
    taken = slots().take((access.match_id, access.seat), conn=conn.id, user_id=conn.user_id, address=conn.address,
                         transport="ws", lease_s=WS_LEASE_S)
    if taken.refusal is not None:
        conn.slot_refused = True
        return refuse(429, taken.refusal)
    g.seat_old, g.seat_received = taken.replaced, int(received)
    return None


def give_back_unused(_exc) -> None:
    """A place taken for a handshake that never became a connection is free again."""
    conn = g.get("seat_conn")
    if conn is not None and not conn.started:
        budget().give_back()
        if not conn.slot_refused:
            slots().give_back((conn.match_id, conn.seat), conn.id)







class Connection:
    """One client's connection to one seat, between the websocket and the relay."""

    def __init__(self, ws: Any, relay: Any, match_id: int, seat: int, user_id: int, address: str):
        self.ws, self.relay, self.user_id, self.address = ws, relay, user_id, address
        self.match_id, self.seat, self.started = match_id, seat, False
        self.down, self.up = seat_relay.down_topic(match_id, seat), seat_relay.up_topic(match_id, seat)
        self.done = threading.Event()  # the seat is finished with, or this connection is over
        self.finished = False  # the seat said close: no cut when this connection ends
        self.replaced = False
        self.ended = "closed"
        self.id = secrets.token_hex(8)  # names this connection in its marks, its seat_connections row
        self.asked = 0  # hello and requests on the down topic: each allows one line up
        self.slots: Any = None
        self.slot_refused = False  # the seat's limits refused it: no place of seat_connections to give back
        self.sent_before = 0  # lines sent up before this connection (counted in the request context)
        self.token_id = 0
        self.token_live: Any = lambda: True  # whether its token is still valid (set by the view)

    def send_down(self, received: int) -> None:
        """The sender thread: every down line after the first `received`, as text frames."""
        after, skip = "0", received
        try:
            while not self.done.is_set():
                for message in self.relay.read(self.down, after, limit=100, block=POLL_S):
                    after = message.id
                    what, line = down_message(self.relay, self.match_id, self.seat, self.id, message)
                    if what == "replaced":  # a newer connection, on any process
                        self.replaced = True
                        self.ws.close(4000, "replaced by a newer connection to this seat")
                        self.done.set()
                        return
                    if what == "close":
                        self.finished = True
                        self.ws.close(1000, line)
                        self.done.set()
                        return
                    if what == "skip":
                        continue
                    if _asks(line):
                        self.asked += 1
                    if skip > 0:
                        skip -= 1
                        continue
                    self.ws.send(line)
                    if line.startswith('{"type":"end"'):
                        self.relay.publish(self.up, {"mark": "delivered"})
        except (ConnectionClosed, OSError):  # the client went away, or read too slowly (SEND_TIMEOUT_S)
            self.ended = "could not be written to"
        self.done.set()

    def receive_up(self) -> None:
        """The request's own thread: the client's frames, line by line, onto the relay."""
        # counted over the topic, so no reconnect starts a fresh allowance
        sent = self.sent_before
        renew_at = time.monotonic() + RENEW_S
        check_at = time.monotonic() + TOKEN_CHECK_S
        while True:
            done = self.done.is_set()  # then only what the client sent before is still carried up
            if not done and time.monotonic() >= check_at:
                check_at = time.monotonic() + TOKEN_CHECK_S
                if not self.token_live():
                    self._stop(None, seat_relay.REVOKED_CLOSE, "your API token was revoked (revoked on the account "
                                                               "page, log out everywhere, a password change or a "
                                                               "suspension): connect with a new token")
                    break
            if not done and time.monotonic() >= renew_at:
                renew_at = time.monotonic() + RENEW_S
                # the seat is another connection's now (or its place expired): this one is over
                if not self.slots.renew((self.match_id, self.seat), self.id, WS_LEASE_S):
                    self.replaced = True
                    self._stop(None, 4000, "replaced by a newer connection to this seat")
                    break
            try:
                frame = self.ws.receive(timeout=0 if done else POLL_S)
            except ConnectionClosed:
                # simple-websocket stops reading a frame past max_message_size (its close names no
                # code): what it had counted of that frame says so
                if getattr(self.ws, "incoming_message_len", 0) > seat_relay.MAX_LINE_BYTES:
                    self._stop("oversized", 1009, f"a line over {seat_relay.MAX_LINE_BYTES} bytes")
                break
            if frame is None:
                if done:
                    break
                continue
            if isinstance(frame, bytes):
                self._stop(None, 1003, "text frames only: one protocol line each")
                break
            lines = [line for line in frame.split("\n") if line.strip()]
            fault = up_fault(lines, sent, self.asked)
            if fault is not None:
                self._stop(fault[0], 1009 if fault[0] == "oversized" else 1008, fault[1])
                break
            sent += len(lines)
            if lines:
                self.relay.publish_many(self.up, [{"line": line} for line in lines])
        self.done.set()

    def _stop(self, mark: str | None, code: int, why: str) -> None:
        if mark is not None:
            self.relay.publish(self.up, {"mark": mark})
            self.finished = True  # the seat has its fault; this ending is not also a cut
        self.ended = why
        with contextlib.suppress(ConnectionClosed):
            self.ws.close(code, why)


def _token_live(token_id: int) -> bool:
    session = db()
    try:
        return is_live(session=session, token_id=token_id)
    finally:
        session.rollback()  # a connection lasts a whole match and must hold no transaction


def connect(ws, match_id: int, seat: int) -> None:
    """The websocket of one remote seat (docs/remote.md): protocol lines down and up."""
    with contextlib.suppress(AttributeError, OSError):
        ws.sock.settimeout(SEND_TIMEOUT_S)
    conn, old, key = g.seat_conn, g.seat_old, (match_id, seat)
    conn.sent_before = _sent(conn.relay, conn.up)  # before `started`: a failure here is the teardown's
    conn.ws, conn.started, conn.slots = ws, True, slots()
    conn.token_live = lambda: _token_live(conn.token_id)
    if old is not None:  # its sender, on whichever process holds it, reads this and closes it (4000)
        conn.relay.publish(conn.down, {"replaced": old})
    conn.relay.publish(conn.up, {"mark": "connect", "conn": conn.id})
    sender = threading.Thread(target=conn.send_down, args=(g.seat_received,), daemon=True,
                              name=f"seat-{match_id}-{seat}-down")
    sender.start()
    try:
        conn.receive_up()
    finally:
        conn.done.set()
        sender.join(SEND_TIMEOUT_S + POLL_S * 2)
        conn.slots.give_back(key, conn.id)
        budget().give_back()
        if not conn.finished:  # replaced too: its client left it (a reconnect may come first)
            conn.relay.publish(conn.up, {"mark": "cut", "conn": conn.id})

