"""What crosses the relay (ladder/relay.py) between an outside seat and the web tier's websocket.

The match's worker plays the seat (workers/match/outside_seat.py); the web tier only carries lines
(ladder/web/seats.py). Both sides name the topics and the messages here, so neither imports the
other. Down (worker -> client): `{"line": <one protocol line>}`, and last `{"close": <why>}`
when the seat is finished with (the match ended, or the fallback took the seat). Up (client ->
worker): `{"line": ...}` for each line the program wrote, and the web tier's markers:
`{"mark": "connect", "conn": id}`, `{"mark": "cut", "conn": id}` (that connection ended before the
seat was finished with),
`{"mark": "oversized"}`, `{"mark": "flood"}`, `{"mark": "delivered"}` (the `end` line went out).
"""

from __future__ import annotations

from ladder.relay import topics

# A remote line is capped below the relay's message cap (256 KiB of JSON) with room for JSON's
# escapes of the worst text (6 bytes a character): hello tells the program this cap.
MAX_LINE_BYTES = 32 << 10
# Lines a program may send beyond one per request (and its ready) before it is a flood: a client
# that resends after a cut, a blank line; a program that writes far more is cut off.
FLOOD_SLACK = 16
MAX_CUTS = 3  # cuts of a seat's connection before the fallback bot takes the seat
MARKS = ("connect", "cut", "oversized", "flood", "delivered")


down_topic = topics.seat_down
up_topic = topics.seat_up


def remote_spec(match_id: int, seat: int) -> str:
    """How the worker's job names an outside seat to the runner, in place of a bot file."""
    return f"remote:{match_id}:{seat}"


def parse_remote_spec(spec: str) -> tuple[int, int] | None:
    parts = spec.split(":")
    if len(parts) != 3 or parts[0] != "remote" or not all(p.isdigit() for p in parts[1:]):
        return None
    return int(parts[1]), int(parts[2])
