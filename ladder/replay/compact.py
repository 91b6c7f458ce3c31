"""A finished match's replay in its compact stored form, and the full replay rebuilt from it.

A replay re-simulates from its header, seed and decisions (`verify_replay`), so its events and
results are derivable: the compact form keeps only what is not. That is the header, each seat's
record as the runner wrote it (status, faults, what the sandbox saw: timings, strikes, the clock),
the decisions in order (whose decision and of what kind follow from the state), each replaced
answer's fault, and a digest of the full replay's bytes. `rebuild` plays the decisions through the
game again and writes the log and results as the play loop did; the digest says the rebuilt bytes
are the stored ones, byte for byte, or `rebuild` refuses (CompactError).

`compact` itself rebuilds before it answers: a replay whose rebuilt bytes would differ (one the
engine no longer reproduces, one whose results were not the engine's) is refused, and its caller
keeps the whole gzip. So every compact row rebuilds, until a rules change alters what an old seed
and decisions give: a change that alters events must expand the compact rows of its game first
(`ladder admin compact-replays --expand --game NAME`), which the digest would otherwise report
on the first read of each such match.

Bytes: MAGIC, a layout byte (flags: 2, the game's name follows, a length byte and its UTF-8, and
its dictionary is used; 1, a varint of the text's length follows and the numbers come after the
text), then the text: raw deflate, with a preset dictionary (the game's typical decisions,
Game.replay_dictionary, then the format's own keys; the keys alone for a game without one: that
is what makes a document of a few hundred bytes compress) of one canonical JSON document:

    {"v": 1, "h": header, "s": [seat record minus stderr...], "d": [decision...],
     "f": {"<index of the decision>": fault...}, "x": extra top-level keys or absent,
     "n": [[timings, marks] or null per seat], "z": sha256[:8] hex}

and the numbers: raw deflate of varints, per seat of "n", its timings' wall then CPU times in
hundredths of a millisecond, then the steps of its stderr marks.

A seat's `bot_seed` that the seed key gives (ladder.play.bot_seed, every sandboxed match) is kept
as `true`.

Pure: no I/O, usable by the services and the bench alike.
"""

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from typing import Any

from ladder.games import get_game
from ladder.games.base import OptionError
from ladder.play import bot_seed
from ladder.replay import canonical, dumps_replay, results_of
from ladder.replay.model import (
    Decision,
    Fault,
    Header,
    LoggedEvent,
    Replay,
    ReplayError,
    SeatRecord,
)

MAGIC = b"LRC\x01"  # ladder replay, compact, format 1: never a gzip header (1f 8b)
FORMAT = 1
# The preset dictionary: strings the documents repeat, most frequent last (zlib finds those at
# the end nearest). Part of the format: changing it makes FORMAT 2, never an edit of this one.
_ZDICT = (
    b'"sandbox":"strict""sandbox":"user""bank_left_ms":"stderr_bytes":"stderr_marks":["clock":'
    b'{"bank_ms":10000,"decision_ms":1000},"clean":true,"exit":{"code":0,"signal":null},'
    b'"ready":{"name":"Bot"},"strikes":[],"takeover":null,"timings":[],"faults":0,"forfeit":false,'
    b'"reason":null,"status":"ok","bot_seed":true,"engine_version":"0.1.0","game":"'
    b'"options":{},"players":4,"schema_version":1,"seed":"seed_key":"cgroup":null,"h":{"d":[{'
    b'"seat":"bot":"house/ v1"}],"s":[{"n":[[,"v":1,"z":"'
)
NUMBERS, GAME_DICTIONARY = 1, 2  # the layout byte's flags


@functools.cache
def _dictionary(game: str) -> bytes:
    """The game's preset dictionary (its typical decisions) before the common one, whose keys
    zlib then finds nearest; the common one alone for a game without one."""
    try:
        own = get_game(game).replay_dictionary_bytes()
    except OptionError:
        raise CompactError(f"unknown game {game!r}") from None
    return (own + _ZDICT)[-32768:] if own else _ZDICT


_DIGEST_CHARS = 16  # 8 bytes of sha256: it tells a rebuild that went astray, no adversary forges it


class CompactError(ReplayError):
    """A replay that has no compact form (or a compact form that no longer rebuilds): why."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:_DIGEST_CHARS]


def is_compact(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def _centi(values: list[Any]) -> list[int] | None:
    """Timings as whole hundredths of a millisecond, or None when one is not exactly a float of
    two decimals (then the seat's timings stay in the JSON as they are)."""
    out = []
    for value in values:
        if type(value) is not float or value < 0:
            return None
        scaled = round(value * 100)
        if scaled / 100 != value:
            return None
        out.append(scaled)
    return out


def _marks(values: list[Any]) -> list[int] | None:
    """stderr marks (running byte counts) as their steps, or None when they are not that."""
    out, last = [], 0
    for value in values:
        if type(value) is not int or value < last:
            return None
        out.append(value - last)
        last = value
    return out


def _varints(numbers: list[int], out: bytearray) -> None:
    for n in numbers:
        while n > 0x7F:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(n)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, count: int) -> list[int]:
        out = []
        for _ in range(count):
            n = shift = 0
            while True:
                byte = self.data[self.at]
                self.at += 1
                n |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            out.append(n)
        return out


def _pack_numbers(seat: dict[str, Any], numbers: bytearray) -> list[int] | None:
    """Move the seat's timings and stderr marks into `numbers` (varints: they are most of what a
    sandboxed seat's record holds); [timings packed, marks packed], or None when neither was."""
    packed = [0, 0]
    timings = seat.get("timings")
    if timings and all(type(t) is list and len(t) == 2 for t in timings):
        wall, cpu = _centi([t[0] for t in timings]), _centi([t[1] for t in timings])
        if wall is not None and cpu is not None:
            _varints(wall, numbers)
            _varints(cpu, numbers)
            packed[0] = len(timings)
            seat["timings"] = []
    marks = _marks(seat.get("stderr_marks") or [])
    if marks:
        _varints(marks, numbers)
        packed[1] = len(marks)
        seat["stderr_marks"] = []
    return packed if any(packed) else None


def _unpack_numbers(seat: dict[str, Any], packed: list[int], numbers: _Reader) -> None:
    timings, marks = packed
    if timings:
        wall, cpu = numbers.take(timings), numbers.take(timings)
        seat["timings"] = [[w / 100, c / 100] for w, c in zip(wall, cpu, strict=True)]
    if marks:
        total, out = 0, []
        for step in numbers.take(marks):
            total += step
            out.append(total)
        seat["stderr_marks"] = out


def compact(replay: Replay) -> bytes:
    """The compact bytes of a finished public replay (no seat's stderr in it); CompactError when
    rebuilding them would not give this replay's bytes exactly."""
    if any(seat.stderr is not None for seat in replay.seats):
        raise CompactError("a stored replay carries no seat's stderr (Replay.split_logs)")
    original = dumps_replay(replay)
    decisions, faults = [], {}
    for entry in replay.log:
        if isinstance(entry, Decision):
            if entry.fault is not None:
                faults[str(len(decisions))] = entry.fault.to_json()
            decisions.append(entry.decision)
    seats, packed, numbers = [], [], bytearray()
    key = bytes.fromhex(replay.header.seed_key) if replay.header.seed_key else None
    for record in replay.seats:
        seat = record.to_json()
        if key is not None and seat.get("bot_seed") == bot_seed(replay.header.seed, record.seat, key):
            seat["bot_seed"] = True  # derivable: HMAC of the seed and seat under the seed key
        packed.append(_pack_numbers(seat, numbers))
        seats.append(seat)
    document: dict[str, Any] = {"v": FORMAT, "h": replay.header.to_json(), "s": seats, "d": decisions,
                                "z": digest(original)}
    if faults:
        document["f"] = faults
    if replay.extra:
        document["x"] = dict(replay.extra)
    if numbers:
        document["n"] = packed
    game = replay.header.game.encode("utf-8")
    dictionary = _dictionary(replay.header.game)
    layout = bytearray([(NUMBERS if numbers else 0) | (GAME_DICTIONARY if dictionary is not _ZDICT else 0)])
    if layout[0] & GAME_DICTIONARY:  # the game in clear: its dictionary is needed before the text
        layout.append(len(game))
        layout += game
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, dictionary)
    text = packer.compress(canonical(document).encode("utf-8")) + packer.flush()
    if numbers:  # a deflate stream of their own: with the text's codes they cost half as much again
        _varints([len(text)], layout)
        data = MAGIC + bytes(layout) + text + zlib.compress(bytes(numbers), 9, wbits=-15)
    else:
        data = MAGIC + bytes(layout) + text
    try:
        rebuilt = dumps_replay(rebuild(data))
    except ReplayError as exc:
        raise CompactError(f"no compact form: {exc}") from None
    if rebuilt != original:  # the digest matched, so this cannot happen; kept as the plain check
        raise CompactError("no compact form: the rebuilt replay differs from the stored one")
    return data


def _document(data: bytes) -> dict[str, Any]:
    if not is_compact(data):
        raise CompactError("not a compact replay")
    try:
        layout, body, numbers, dictionary = data[len(MAGIC)], data[len(MAGIC) + 1:], b"", _ZDICT
        if layout & ~(NUMBERS | GAME_DICTIONARY):
            raise CompactError("corrupt compact replay: unknown layout")
        if layout & GAME_DICTIONARY:
            game, body = body[1:1 + body[0]].decode("utf-8"), body[1 + body[0]:]
            dictionary = _dictionary(game)
        if layout & NUMBERS:  # the text's length, the text, the numbers
            reader = _Reader(body)
            (length,) = reader.take(1)
            body, numbers = body[reader.at:reader.at + length], zlib.decompress(body[reader.at + length:], -15)
        unpacker = zlib.decompressobj(-15, dictionary)
        document = json.loads((unpacker.decompress(body) + unpacker.flush()).decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError, IndexError) as exc:
        raise CompactError(f"corrupt compact replay: {exc}") from None
    if not isinstance(document, dict) or document.get("v") != FORMAT:
        raise CompactError("corrupt compact replay: unknown format")
    document["numbers"] = numbers
    return document


def stored_digest(data: bytes) -> str:
    """The digest of the full replay a compact form rebuilds to (its `z`)."""
    return _document(data)["z"]


def rebuild(data: bytes) -> Replay:
    """The full public replay of compact bytes, re-simulated; CompactError when its decisions do not
    play through, or the bytes rebuilt are not the ones stored (the digest)."""
    document = _document(data)
    try:
        replay = _replay(document)
    except CompactError:
        raise
    except Exception as exc:  # a decision the current rules refuse, a missing key: the same answer
        raise CompactError(f"the compact replay does not rebuild: {type(exc).__name__}: {exc}") from None
    if digest(dumps_replay(replay)) != document["z"]:
        raise CompactError("the rebuilt replay differs from the one stored (did the game's rules change?)")
    return replay


def _replay(document: dict[str, Any]) -> Replay:
    header = Header(**document["h"])
    seats_json = document["s"]
    key = bytes.fromhex(header.seed_key) if header.seed_key else None
    for i, seat in enumerate(seats_json):
        if seat.get("bot_seed") is True:
            seat["bot_seed"] = bot_seed(header.seed, seat.get("seat", i), key)
    numbers = _Reader(document["numbers"])
    for seat, packed in zip(seats_json, document.get("n") or [None] * len(seats_json), strict=True):
        if packed is not None:
            _unpack_numbers(seat, packed, numbers)
    seats = tuple(SeatRecord.from_json(seat, i) for i, seat in enumerate(seats_json))
    game = get_game(header.game)
    state = game.new_state(game.resolve_options(dict(header.options)), header.seed, header.players)
    decisions, faults = document["d"], document.get("f") or {}
    log: list[Decision | LoggedEvent] = []
    emitted = 0
    for index, decision in enumerate(decisions):
        emitted = _events(state, log, emitted)
        pending = state.pending()
        if pending is None:
            raise CompactError(f"decision {index}: the game is already over")
        fault = faults.get(str(index))
        reason = state.validate(pending.seat, decision)
        if reason is not None:
            raise CompactError(f"decision {index} is illegal now: {reason}")
        state.apply(pending.seat, decision)
        log.append(Decision(pending.seat, pending.kind, decision, None if fault is None else Fault.from_json(fault)))
    _events(state, log, emitted)
    if state.pending() is not None:
        raise CompactError("the decisions end before the game does")
    names = [seat.bot for seat in seats]
    forfeited = [seat.seat for seat in seats if seat.forfeit]
    return Replay(header, seats, tuple(log), results_of(state, names, forfeited), document.get("x"))


def _events(state: Any, log: list[Decision | LoggedEvent], emitted: int) -> int:
    events = state.events
    while emitted < len(events):
        event = events[emitted].as_json()
        log.append(LoggedEvent(event["type"], event["data"], None if event["to"] is None else tuple(event["to"])))
        emitted += 1
    return emitted


__all__ = ["FORMAT", "MAGIC", "CompactError", "compact", "digest", "is_compact", "rebuild", "stored_digest"]
