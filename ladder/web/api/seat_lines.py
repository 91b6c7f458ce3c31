"""What a remote seat's two transports decide the same way (docs/remote.md): the websocket
(ladder/web/api/seat_socket.py) and the HTTP long poll (ladder/web/api/seat_poll.py) carry the
same lines under the same limits and faults; only the carrying differs."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify

from ladder.relay import seat_relay
from ladder.services.seat_slots import SeatSlots
from ladder.web.common import settings


def slots() -> SeatSlots:
    """The seats' live connections, in the database: shared by every web process."""
    extensions = current_app.extensions
    if "ladder_seat_slots" not in extensions:
        extensions["ladder_seat_slots"] = SeatSlots(extensions["ladder"].engine, settings().remote_seats_per_user,
                                                    settings().remote_seats_per_address)
    return extensions["ladder_seat_slots"]


def refuse(status: int, message: str) -> Response:
    response = jsonify(error=message, status=status)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="ladder"'
    if status == 429:
        response.headers["Retry-After"] = "10"
    return response


def down_message(relay: Any, match_id: int, seat: int, conn: str, message: Any) -> tuple[str, Any]:
    """What one message of the seat's down topic is to connection `conn`: ("line", text),
    ("close", why) when the seat is finished with, ("replaced", None) when a newer connection took
    the seat, or ("skip", None)."""
    data = message.data
    if data.get("replaced") == conn:
        return "replaced", None
    if "close" in data:
        if seat_relay.superseded(relay, match_id, seat, message.id):
            return "skip", None  # an earlier attempt's close: the match is being played again
        return "close", str(data["close"])[:120]
    line = data.get("line")
    return ("line", line) if isinstance(line, str) else ("skip", None)


def up_fault(lines: list[str], sent: int, asked: int) -> tuple[str, str] | None:
    """Why these lines up end the connection: (mark, why), or None when they go up. `sent` lines
    went up before (over the whole topic: no reconnect starts a fresh allowance), `asked` allow one each."""
    if any(len(line.encode()) > seat_relay.MAX_LINE_BYTES for line in lines):
        return "oversized", f"a line over {seat_relay.MAX_LINE_BYTES} bytes"
    if sent + len(lines) > asked + seat_relay.FLOOD_SLACK:
        return "flood", "more lines than requests"
    return None
