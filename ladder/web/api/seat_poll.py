"""The HTTP long poll of a remote seat (docs/remote.md), for a client that cannot speak websockets:
the same lines, token, limits and faults as the websocket (ladder/web/api/seat_socket.py), decided
by the same functions (ladder/web/api/seat_lines.py); only the carrying differs. A polling connection lives by its
requests: each renews its place in seat_connections and tells the worker, with a lease mark, until
when it holds; past that without a request it is cut (workers/match/seats/outside.py).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from flask import Response, g, jsonify, request

from ladder.relay import seat_relay
from ladder.relay.backends import RelayError
from ladder.web.api.seat_counts import _asked, _sent
from ladder.web.api.seat_lines import down_message, refuse, slots, up_fault
from ladder.web.common import relay
from ladder.web.held import budget, refusal
from ladder.web.limiting import _address

HTTP_WAIT_S = 25  # the longest one GET waits for lines
HTTP_GRACE_S = 10  # how long past its wait a polling connection lives without its next request
HTTP_SLOT_S = HTTP_WAIT_S + HTTP_GRACE_S  # its place in seat_connections: any request renews it this long
MAX_POST_BYTES = 4 * seat_relay.MAX_LINE_BYTES  # one POST: a few lines; more is refused as oversized
WAKE_S = 1.0  # a waiting GET looks this often whether a newer GET on its `conn` replaced it
# A renewal is told to the worker only when it moves the connection's end by more than this: each
# mark is a message on the seat's up topic, so a client polling with wait=0 in a tight loop would
# otherwise fill the topic toward its trim (and push the seat's own lines out of it). The worker's
# view of the end is then at most this much early, against a grace of HTTP_GRACE_S.
LEASE_SLACK_S = 1.0
MAX_LEASES = 10_000  # connections whose last told end this process remembers
_told: dict[str, float] = {}  # conn -> the end last told to the worker (from this process)
_told_lock = threading.Lock()
# One waiting GET per `conn`, over every web process: each waiting GET appends a mark to the conn's
# own relay topic (topics.seat_waiter) and waits while the topic's newest mark is its own; a newer
# GET, on any process, appends another, and the older answers within WAKE_S with what it has
# (nothing is lost: the lines stay on the relay after `after`). The relay is the one store every
# web process already shares and the waiting loop already reads once a WAKE_S, so the check is one
# more cheap read there (XREVRANGE of one entry, or the max of an indexed column), and the mark is
# one append per waiting GET; no schema, no lock. A client whose GET was cut by a proxy may so ask
# again at once, and one `conn` never holds more than one place of the budgets of held requests.

def _lease(conn: str, first: bool, wait: float) -> dict[str, Any] | None:
    """The mark that keeps a polling connection alive for the worker until `until` (wall clock):
    past it without another request, it is cut (workers/match/seats/outside.py). None for a renewal
    that moves the end by no more than LEASE_SLACK_S: nothing new to tell."""
    now = time.time()
    until = now + wait + HTTP_GRACE_S
    with _told_lock:
        if not first and until <= _told.get(conn, 0.0) + LEASE_SLACK_S:
            return None
        if len(_told) >= MAX_LEASES:  # ended connections: forget those whose end is past
            for old in [c for c, end in _told.items() if end < now]:
                del _told[old]
        _told[conn] = until
    return {"mark": "connect" if first else "lease", "conn": conn, "at": round(now, 3),
            "until": round(until, 3)}


def _poll_conn(wait: float) -> tuple[str | None, Response | None]:
    """The polling connection this request belongs to: `conn` renewed, or a new one taken (no `conn`)."""
    key = (g.seat_access.match_id, g.seat_access.seat)
    down, up = seat_relay.down_topic(*key), seat_relay.up_topic(*key)
    conn = request.args.get("conn")
    if conn is not None:
        if len(conn) > 32 or not slots().renew(key, conn, HTTP_SLOT_S):
            return None, refuse(409, "this connection is over (replaced by a newer one, or it stopped polling): "
                                      "GET lines without conn to connect again")
        lease = _lease(conn, False, wait)
        if lease is not None:
            relay().publish(up, lease)
        return conn, None
    conn = secrets.token_hex(8)
    taken = slots().take(key, conn=conn, user_id=g.seat_user, address=_address(), transport="http",
                         lease_s=HTTP_SLOT_S)
    if taken.refusal is not None:
        return None, refuse(429, taken.refusal)
    if taken.replaced is not None:
        relay().publish(down, {"replaced": taken.replaced})
    relay().publish(up, _lease(conn, True, wait))
    return conn, None


def lines(match_id: int, seat: int):
    """The seat's lines over HTTP (docs/remote.md): GET waits for the next lines down, POST sends
    the program's lines up. The same lines, limits and faults as the websocket."""
    return _get_lines(match_id, seat) if request.method == "GET" else _post_lines(match_id, seat)


def _get_lines(match_id: int, seat: int) -> Response:
    after = request.args.get("after", "0")
    wait_arg = request.args.get("wait", str(HTTP_WAIT_S))
    if not wait_arg.isdigit() or int(wait_arg) > HTTP_WAIT_S:
        return refuse(400, f"wait is a whole number of seconds, 0 to {HTTP_WAIT_S}")
    wait = float(wait_arg)
    down = seat_relay.down_topic(match_id, seat)
    try:
        relay().read(down, after, limit=1)  # a bad id is refused before the connection is counted
    except RelayError as exc:
        return refuse(400, str(exc))
    conn, refused = _poll_conn(wait)
    if refused is not None:
        return refused
    # the lease is renewed above, so a GET refused here keeps its connection: the client asks again
    waiting = wait > 0
    if waiting and not budget().try_take():
        return refusal("GET lines", conn=conn, after=after)
    waiter = seat_relay.waiter_topic(match_id, seat, conn)
    out: list[str] = []
    closed, replaced, mine = None, False, None
    try:
        if waiting:  # inside the try: the place is given back whatever the relay does
            mine = relay().publish(waiter, {"waiting": True})
        deadline = time.monotonic() + (wait if waiting else 0)
        while True:
            block = min(WAKE_S, max(0.0, deadline - time.monotonic()))
            batch = relay().read(down, after, limit=100, block=block)
            for message in batch:
                what, line = down_message(relay(), match_id, seat, conn, message)
                if what == "replaced":
                    return refuse(409, "replaced by a newer connection to this seat")
                after = message.id
                if what == "close":
                    closed = line
                    slots().give_back((match_id, seat), conn)
                    break
                if what == "line":
                    out.append(line)
                    if line.startswith('{"type":"end"'):
                        relay().publish(seat_relay.up_topic(match_id, seat), {"mark": "delivered"})
            if out or closed is not None or time.monotonic() >= deadline:
                break
            if mine is not None and relay().last_id(waiter) != mine:  # a newer GET on this conn, anywhere
                replaced = True
                break
    except RelayError as exc:
        return refuse(400, str(exc))
    finally:
        if waiting:
            budget().give_back()
    return jsonify(conn=conn, after=after, lines=out, closed=closed, **({"replaced": True} if replaced else {}))


def _post_lines(match_id: int, seat: int) -> Response:
    key, up = (match_id, seat), seat_relay.up_topic(match_id, seat)
    if request.args.get("conn") is None:
        return refuse(400, "POST lines with the conn your GET lines answered")
    size = request.content_length
    body = request.stream.read(MAX_POST_BYTES + 1) if size is None or size <= MAX_POST_BYTES else None
    conn, refused = _poll_conn(0)
    if refused is not None:
        return refused
    try:
        text = body.decode("utf-8") if body is not None and len(body) <= MAX_POST_BYTES else None
    except UnicodeDecodeError:
        return refuse(400, "lines are UTF-8 text, one JSON line each")
    lines = [line for line in (text or "").split("\n") if line.strip()] if text is not None else None
    asked = _asked(relay(), seat_relay.down_topic(match_id, seat))
    fault = ("oversized", f"a request body over {MAX_POST_BYTES} bytes") if lines is None else \
        up_fault(lines, _sent(relay(), up), asked)
    if fault is not None:  # the seat's fault, as over the websocket; this connection is over
        relay().publish(up, {"mark": fault[0]})
        slots().give_back(key, conn)
        return refuse(413 if fault[0] == "oversized" else 422, fault[1])
    if lines:
        relay().publish_many(up, [{"line": line} for line in lines])
    return jsonify(conn=conn, accepted=len(lines))
