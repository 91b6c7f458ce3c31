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

Bytes: MAGIC, then zlib (with a fixed preset dictionary of the format's own keys, which is what
makes a document of a few hundred bytes compress) of one canonical JSON document:

    {"v": 1, "h": header, "s": [seat record minus stderr...], "d": [decision...],
     "f": {"<index of the decision>": fault...}, "x": extra top-level keys or absent,
     "t": [[wall centi-ms deltas...], [cpu ...]] per seat in place of its timings, "z": sha256[:8] hex}

A seat's `bot_seed` that the seed key gives (ladder.play.bot_seed, every sandboxed match) is kept
as `true`.

Pure: no I/O, usable by the services and the bench alike.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from ladder.games import get_game
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
    b'"reason":null,"status":"ok","bot_seed":"engine_version":"0.1.0","game":"drachengold",'
    b'"treasure","dragonflame","options":{"rules":"basic","split":"fair"},"players":4,'
    b'"schema_version":1,"seed":"seed_key":"cgroup":null,"h":{"d":[{"adventurer":"dragon":"D'
    b'{"accept":true}{"accept":false}{"offer":{"seat":"bot":"house/ v1"}],"s":[{"v":1,"z":"'
)
_DIGEST_CHARS = 16  # 8 bytes of sha256: it tells a rebuild that went astray, no adversary forges it


class CompactError(ReplayError):
    """A replay that has no compact form (or a compact form that no longer rebuilds): why."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:_DIGEST_CHARS]


def is_compact(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def _centi(values: list[Any]) -> list[int] | None:
    """Timings as deltas of hundredths of a millisecond, or None when one is not exactly that."""
    out, last = [], 0
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        scaled = round(value * 100)
        if scaled / 100 != value or type(value) is int:
            return None
        out.append(scaled - last)
        last = scaled
    return out


def _uncenti(deltas: list[int]) -> list[float]:
    out, last = [], 0
    for delta in deltas:
        last += delta
        out.append(last / 100)
    return out


def _pack_timings(seat: dict[str, Any]) -> list[list[int]] | None:
    timings = seat.get("timings")
    if not timings or not all(isinstance(t, list) and len(t) == 2 for t in timings):
        return None
    wall, cpu = _centi([t[0] for t in timings]), _centi([t[1] for t in timings])
    if wall is None or cpu is None:
        return None
    return [wall, cpu]


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
    seats, timings = [], []
    key = bytes.fromhex(replay.header.seed_key) if replay.header.seed_key else None
    for record in replay.seats:
        seat = record.to_json()
        if key is not None and seat.get("bot_seed") == bot_seed(replay.header.seed, record.seat, key):
            seat["bot_seed"] = True  # derivable: HMAC of the seed and seat under the seed key
        packed = _pack_timings(seat)
        if packed is not None:
            seat["timings"] = []
        seats.append(seat)
        timings.append(packed)
    document: dict[str, Any] = {"v": FORMAT, "h": replay.header.to_json(), "s": seats, "d": decisions,
                                "z": digest(original)}
    if faults:
        document["f"] = faults
    if replay.extra:
        document["x"] = dict(replay.extra)
    if any(t is not None for t in timings):
        document["t"] = timings
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _ZDICT)
    data = MAGIC + packer.compress(canonical(document).encode("utf-8")) + packer.flush()
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
        unpacker = zlib.decompressobj(-15, _ZDICT)
        text = unpacker.decompress(data[len(MAGIC):]) + unpacker.flush()
        document = json.loads(text.decode("utf-8"))
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CompactError(f"corrupt compact replay: {exc}") from None
    if not isinstance(document, dict) or document.get("v") != FORMAT:
        raise CompactError("corrupt compact replay: unknown format")
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
    for seat, packed in zip(seats_json, document.get("t") or [None] * len(seats_json), strict=True):
        if packed is not None:
            seat["timings"] = [list(pair) for pair in zip(_uncenti(packed[0]), _uncenti(packed[1]), strict=True)]
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
