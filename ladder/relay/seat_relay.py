"""What crosses the relay (ladder/relay/backends.py) between an outside seat and the web tier's websocket.

The match's worker plays the seat (workers/match/seats/outside.py); the web tier only carries lines
(ladder/web/api/seat_socket.py). Both sides name the topics and the messages here, so neither imports the
other. Down (worker -> client): `{"line": <one protocol line>}`, and last `{"close": <why>}`
when the seat is finished with (the match ended, or the fallback took the seat). Up (client ->
worker): `{"line": ...}` for each line the program wrote, and the web tier's markers:
`{"mark": "connect", "conn": id}`, `{"mark": "cut", "conn": id}` (that connection ended before the
seat was finished with),
`{"mark": "oversized"}`, `{"mark": "flood"}`, `{"mark": "delivered"}` (the `end` line went out).

A match the ladder plays again from the start (an attempt it voided for its own failure, or a match
given back to the queue by a stopping worker) keeps its topics: the new attempt's first line down is
a `restart` line (`restart_line`), which is not a line of the sandbox's protocol: a client starts
its program afresh, and a `close` said before it is stale (`superseded`).
"""

from __future__ import annotations

import json
from typing import Any

from ladder.relay.backends import START, topics

# A remote line is capped below the relay's message cap (256 KiB of JSON) with room for JSON's
# escapes of the worst text (6 bytes a character): hello tells the program this cap.
MAX_LINE_BYTES = 32 << 10
# Lines a program may send beyond one per request (and its ready) before it is a flood: a client
# that resends after a cut, a blank line; a program that writes far more is cut off.
FLOOD_SLACK = 16
MAX_CUTS = 3  # cuts of a seat's connection before the fallback bot takes the seat
# The websocket close code of a connection whose token was revoked (one revoke, log out everywhere,
# a password change, a suspension): no reconnect with that token can succeed, so the client stops
REVOKED_CLOSE = 4001
MARKS = ("connect", "cut", "oversized", "flood", "delivered")


RESTART_PREFIX = '{"type":"restart"'


def restart_line(reason: str) -> str:
    """The line that tells a client the match starts again from scratch: forget it, a fresh
    `hello` follows (docs/remote.md)."""
    return json.dumps({"type": "restart", "reason": reason[:300]}, separators=(",", ":"))


def is_restart(line: Any) -> bool:
    return isinstance(line, str) and line.startswith(RESTART_PREFIX)


def played_before(relay: Any, match_id: int, seat: int) -> bool:
    """Whether an earlier attempt of this match already wrote to the seat."""
    return relay.last_id(down_topic(match_id, seat)) != START


def superseded(relay: Any, match_id: int, seat: int, after: str) -> bool:
    """Whether a `restart` line follows id `after` on the seat's down topic: a `close` there was an
    earlier attempt's, and the seat is in play again."""
    topic = down_topic(match_id, seat)
    while True:
        batch = relay.read(topic, after, limit=1000)
        if not batch:
            return False
        if any(is_restart(m.data.get("line")) for m in batch):
            return True
        after = batch[-1].id


down_topic = topics.seat_down
up_topic = topics.seat_up
waiter_topic = topics.seat_waiter


def remote_spec(match_id: int, seat: int) -> str:
    """How the worker's job names an outside seat to the runner, in place of a bot file."""
    return f"remote:{match_id}:{seat}"


def parse_remote_spec(spec: str) -> tuple[int, int] | None:
    parts = spec.split(":")
    if len(parts) != 3 or parts[0] != "remote" or not all(p.isdigit() for p in parts[1:]):
        return None
    return int(parts[1]), int(parts[2])
