"""The bot protocol's wire format (docs/protocol.md): one JSON object per line, both ways.

Encoding is for what the ladder sends (hello, request, event, error, end); decoding is for what a
bot sends (ready, answers) and never raises: any bytes come back as a value or a `Fault` with its
documented code. Limits, time allowances and fault codes live here so the runner, the SDK docs and
the tests share one set of numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from ladder.match import STRIKES, TimeControl  # a match's terms: part of its plan

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20  # one line from the bot
LOG_BYTES = 64 << 10  # the tail of stderr kept in the replay, per seat
END_GRACE_MS = 1000  # after `end`, the bot may take this long to exit before it is killed
CPU_BACKSTOP_S = 600  # RLIMIT_CPU per process: far above any fair match, it only stops a runaway

# fault code -> result status (docs/protocol.md, "Faults")
STATUS = {
    "bad_json": "protocol_error",
    "wrong_id": "protocol_error",
    "illegal": "illegal",
    "oversized": "protocol_error",
    "timeout": "timeout",
    "exited": "protocol_error",
    "crash": "crash",
    "startup": "protocol_error",
    "error": "error",  # the ladder could not run the bot (sandbox failure): not the bot's fault
    # an outside seat (workers/match/seats/outside.py): its connection cut three times, or still cut
    # at a deadline; and lines it sent unasked, past what any game needs (a flood)
    "disconnect": "protocol_error",
    "flood": "protocol_error",
}
STRIKE_CODES = frozenset({"bad_json", "wrong_id", "illegal"})
TAKEOVER_CODES = frozenset(STATUS) - STRIKE_CODES
RESULT_STATUSES = ("ok", "timeout", "crash", "illegal", "protocol_error", "error")


@dataclass(frozen=True)
class Fault:
    code: str
    reason: str

    @property
    def status(self) -> str:
        return STATUS[self.code]

    @property
    def strike(self) -> bool:
        return self.code in STRIKE_CODES


def limits_json(max_line_bytes: int = MAX_LINE_BYTES, strikes: int = STRIKES, log_bytes: int = LOG_BYTES) -> dict:
    return {"max_line_bytes": max_line_bytes, "strikes": strikes, "log_bytes": log_bytes}


# --- ladder -> bot ---------------------------------------------------------------------------


# orjson writes a request's observation about nine times faster than the standard encoder (20 against
# 184 µs for the flagship's 3.5 KB, on the worker's thread, once per decision: the largest part of a
# match's protocol cost). Its lines are taken only where they are the standard encoder's bytes; a
# subclass, a dataclass or a datetime is left to the standard encoder, which alone decides them.
# Where the standard encoder refuses a value no game sends (a NaN or an infinity, an Enum, a UUID:
# a rules bug, which used to be charged to the seat as its crash) orjson writes null or the value.
_ORJSON = (orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_PASSTHROUGH_DATETIME)


def encode(message: dict[str, Any]) -> bytes:
    """One compact line. ASCII-only (non-ASCII escaped), so no bot has to care about encodings."""
    try:
        line = orjson.dumps(message, option=_ORJSON)
    except TypeError:  # an int past 64 bits, a non-string key, a subclass, nesting past 254: the standard's
        return _encode_standard(message)
    # The two encoders differ only in escaping (orjson writes UTF-8 and DEL as they are) and in
    # floats under 1e-4 (orjson: 0.00001 and 1e-7, the standard: 1e-05 and 1e-07); a line that may
    # hold either is written again by the standard encoder. Strings holding "e-" cost the same.
    if line.isascii() and b"\x7f" not in line and b"e-" not in line and b"0.0000" not in line:
        return line
    return _encode_standard(message)


def _encode_standard(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def hello(
    *,
    game: str,
    seat: int,
    players: int,
    options: dict[str, Any],
    bot_seed: int,
    time: TimeControl,
    limits: dict[str, int] | None = None,
) -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "seat": seat,
        "players": players,
        "options": options,
        "bot_seed": bot_seed,
        "time": time.as_json(),
        "limits": limits or limits_json(),
    }


def request(request_id: int, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
    return {"type": "request", "id": request_id, "kind": kind, "observation": observation}


def event(game_event: dict[str, Any]) -> dict[str, Any]:
    """An engine event {type, data, to} as the bot sees it: {type, data} (it knows who it is)."""
    return {"type": "event", "event": {"type": game_event["type"], "data": game_event["data"]}}


class EventLines:
    """Each event's line, encoded once per match however many seats see it: play_game hands
    every wire seat of a match the same event object, so the seats share one of these."""

    __slots__ = ("_event", "_line")

    def __init__(self) -> None:
        self._event: dict[str, Any] | None = None  # held, so its id cannot be reused meanwhile
        self._line = b""

    def line(self, game_event: dict[str, Any]) -> bytes:
        if game_event is not self._event:
            self._event, self._line = game_event, encode(event(game_event))
        return self._line


def error(request_id: int, code: str, reason: str, default: Any) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code, "reason": reason, "default": default}


def end(results: list[dict[str, Any]], you: int) -> dict[str, Any]:
    keep = ("seat", "score", "rank", "status")
    return {"type": "end", "results": [{k: r[k] for k in keep} for r in results], "you": you}


# --- bot -> ladder ---------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# One decoder for every answer: json.loads with an option builds a decoder and its scanner per call,
# which cost more than decoding an answer does.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def parse_object(line: bytes) -> tuple[dict[str, Any] | None, Fault | None]:
    """A line as a JSON object, or a bad_json fault. Never raises."""
    if len(line) > MAX_LINE_BYTES:
        return None, Fault("oversized", f"a line of {len(line)} bytes (limit {MAX_LINE_BYTES})")
    try:
        text = line.decode("utf-8")
        if text.startswith("\ufeff"):  # what json.loads says of it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except UnicodeDecodeError as exc:
        return None, Fault("bad_json", f"not UTF-8 at byte {exc.start}: {_preview(line)}")
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, huge ints, NaN, deep nesting
        return None, Fault("bad_json", f"not JSON ({_first_line(exc)}): {_preview(line)}")
    if not isinstance(value, dict):
        return None, Fault("bad_json", f"a JSON {type(value).__name__}, not an object: {_preview(line)}")
    return value, None


def decode_ready(line: bytes) -> tuple[dict[str, Any] | None, Fault | None]:
    """The bot's first line: {"type": "ready"}; name/version kept when they are short strings."""
    value, fault = parse_object(line)
    if fault is not None:
        return None, Fault("startup", f"expected ready, got {fault.reason}")
    assert value is not None
    if value.get("type") != "ready":
        return None, Fault("startup", f'expected {{"type": "ready"}}, got {_preview(line)}')
    info = {k: value[k][:100] for k in ("name", "version") if isinstance(value.get(k), str)}
    return info, None


def decode_answer(line: bytes, request_id: int) -> tuple[dict[str, Any] | None, Fault | None]:
    """The decision in an answer line to request `request_id`, or the fault. Never raises."""
    value, fault = parse_object(line)
    if fault is not None:
        return None, fault
    assert value is not None
    got = value.get("id")
    if type(got) is not int or got != request_id:
        shown = "no id" if "id" not in value else f"id {json.dumps(got)[:40]}"
        return None, Fault("wrong_id", f"answer to request {request_id} has {shown}")
    if "decision" not in value:
        return None, Fault("bad_json", f'answer to request {request_id} has no "decision"')
    if not isinstance(value["decision"], dict):
        return None, Fault("bad_json", f"decision must be a JSON object: {_preview(line)}")
    return value["decision"], None


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:120]


def _preview(data: bytes, limit: int = 80) -> str:
    """A short printable quote of what the bot wrote, for reasons and logs."""
    text = data[:limit].decode("utf-8", "replace")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return repr(text + ("..." if len(data) > limit else ""))
