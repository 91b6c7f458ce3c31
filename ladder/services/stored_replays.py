"""Stored replays: the one place that writes a finished match's replay and the one that reads it.

A row of `replays` holds either the whole replay gzipped (the old form, and any replay without a
compact form) or its compact form (ladder/replay/compact.py: header, seats, decisions, digest;
`compact` true), about a sixth of the gzip. Every reader (the match page, the viewer's frames, the
download and the API, the Parquet export and the daily dumps, the collusion report) asks here for
the replay's JSON bytes or its typed `Replay` and never looks at the row's bytes itself.

A compact row is rebuilt by re-simulating its decisions (10 to 20 ms of CPU for a flagship
match), checked byte for byte against its digest and against the scores and ranks its seats'
rows hold, and kept in a bounded in-process LRU (`CACHE_BYTES` of rebuilt JSON): a finished
replay never changes (the key is the stored bytes' hash, so a converted or replaced row is never
answered from the cache), one page view reads it several times (the page, each view's frames, the
download), and any process can rebuild it, so a shared cache would add a hop for nothing.

`compact_batch` converts old rows in small transactions while the ladder runs (`ladder admin
compact-replays`); `expand_batch` turns compact rows of a game back into gzip, the step before a
rules change that alters what old decisions give.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import Session, select

from ladder.models import Match, Seat
from ladder.models import Replay as ReplayRow
from ladder.replay import Replay, ReplayError, dumps_replay, loads_replay
from ladder.replay.compact import CompactError, compact, is_compact, rebuild

CACHE_BYTES = 64 * 1024 * 1024  # rebuilt replays' JSON (30 to 110 KB each): some 800 matches per process
_cache: OrderedDict[bytes, bytes] = OrderedDict()
_cache_size = 0
_cache_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class StoredForm:
    data: bytes  # what the row holds
    size: int  # the whole replay's JSON bytes
    compact: bool
    # the replay as parsed on the way (None when its bytes do not parse): the result's scorecard
    # measures it, and parsing a flagship replay again cost more than measuring it
    replay: Replay | None = None


def stored_form(replay: Replay | bytes | Mapping) -> StoredForm:
    """The row to store for a finished match's public replay: compact when it rebuilds byte for
    byte, else the gzip of its JSON (bytes given are stored as they are, gzipped)."""
    if isinstance(replay, Mapping):
        replay = dumps_replay(replay)
    if isinstance(replay, bytes | bytearray):
        raw = gzip.decompress(replay) if replay[:2] == b"\x1f\x8b" else bytes(replay)
        try:
            typed = Replay.from_json(loads_replay(raw))
        except ReplayError:
            typed = None
        if typed is None or dumps_replay(typed) != raw:
            return StoredForm(gzip.compress(raw, compresslevel=6, mtime=0), len(raw), False, typed)
        replay = typed
    raw = dumps_replay(replay)
    try:
        data = compact(replay)
    except CompactError:
        return StoredForm(gzip.compress(raw, compresslevel=6, mtime=0), len(raw), False, replay)
    _remember(data, raw)  # the match page is usually asked for soon after the result
    return StoredForm(data, len(raw), True, replay)


def _remember(data: bytes, raw: bytes) -> None:
    global _cache_size
    key = hashlib.sha256(data).digest()
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return
        _cache[key] = raw
        _cache_size += len(raw)
        while _cache_size > CACHE_BYTES and len(_cache) > 1:
            _, old = _cache.popitem(last=False)
            _cache_size -= len(old)


def clear_cache() -> None:
    global _cache_size
    with _cache_lock:
        _cache.clear()
        _cache_size = 0


def _check_scores(replay: Replay, seats: Mapping[int, tuple[int | None, int | None]] | None) -> None:
    if seats is None:
        return
    for result in replay.results:
        stored = seats.get(result.seat)
        if stored is not None and stored != (result.score, result.rank):
            raise CompactError(f"seat {result.seat}: the rebuilt replay scores {result.score} (rank {result.rank}),"
                               f" the stored result {stored[0]} (rank {stored[1]})")


def replay_bytes(data: bytes, seats: Mapping[int, tuple[int | None, int | None]] | None = None) -> bytes:
    """The whole replay's JSON bytes of a row's data (either form); ReplayError when they cannot be
    had (corrupt gzip, a compact row that no longer rebuilds or disagrees with `seats`: seat ->
    (score, rank) as recorded)."""
    if not is_compact(data):
        try:
            return gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ReplayError(f"corrupt gzip data: {exc}") from None
    key = hashlib.sha256(data).digest()
    with _cache_lock:
        raw = _cache.get(key)
        if raw is not None:
            _cache.move_to_end(key)
            return raw
    replay = rebuild(data)
    _check_scores(replay, seats)
    raw = dumps_replay(replay)
    _remember(data, raw)
    return raw


def recorded_scores(session: Session, match_ids: Iterable[int]) -> dict[int, dict[int, tuple[int | None, int | None]]]:
    ids = sorted(set(match_ids))
    out: dict[int, dict[int, tuple[int | None, int | None]]] = {}
    if ids:
        for match_id, seat, score, rank in session.exec(
                select(Seat.match_id, Seat.seat, Seat.score, Seat.rank).where(Seat.match_id.in_(ids))):
            out.setdefault(match_id, {})[seat] = (score, rank)
    return out


def stored_row(session: Session, match_id: int) -> ReplayRow | None:
    return session.get(ReplayRow, match_id)


def stored_replay_bytes(*, session: Session, match_id: int, row: ReplayRow | None = None) -> bytes | None:
    """The stored replay's JSON bytes as the worker wrote them (no access check: callers check who
    may see it, services/replay_names.py); None when the match has none."""
    row = row if row is not None else stored_row(session, match_id)
    if row is None:
        return None
    seats = recorded_scores(session, [match_id]).get(match_id) if is_compact(row.data) else None
    return replay_bytes(row.data, seats)


def stored_replay(*, session: Session, match_id: int) -> Replay | None:
    """The typed stored replay of a match (no access check), None when it has none."""
    raw = stored_replay_bytes(session=session, match_id=match_id)
    return None if raw is None else Replay.from_json(loads_replay(raw))


def stored_replays(*, session: Session, match_ids: Iterable[int], public_only: bool = False) -> dict[int, Replay]:
    """The typed stored replays of many matches, one query (the export, the dumps, the collusion
    report); `public_only` leaves out those a moderator hid. A replay that cannot be read is left out."""
    ids = sorted(set(match_ids))
    if not ids:
        return {}
    query = select(ReplayRow.match_id, ReplayRow.data).where(ReplayRow.match_id.in_(ids))
    if public_only:
        query = query.where(ReplayRow.hidden == False)  # noqa: E712
    rows = session.exec(query.order_by(ReplayRow.match_id)).all()
    scores = recorded_scores(session, [m for m, data in rows if is_compact(data)])
    out = {}
    for match_id, data in rows:
        try:
            out[match_id] = Replay.from_json(loads_replay(replay_bytes(data, scores.get(match_id))))
        except ReplayError:
            continue
    return out


# --- converting rows -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Batch:
    seen: int  # rows looked at
    changed: int  # rows rewritten
    kept: int  # rows left as they were (no compact form, or no longer rebuilding)
    last: int | None  # the last match id looked at: where the next batch starts; None: no more
    bytes_before: int
    bytes_after: int


def compact_batch(*, session: Session, after: int = 0, limit: int = 200) -> Batch:
    """Convert up to `limit` gzip rows after match id `after` to the compact form, in one short
    transaction; each is rebuilt and compared byte for byte before it is replaced."""
    rows = session.exec(select(ReplayRow.match_id, ReplayRow.data).where(
        ReplayRow.match_id > after, ReplayRow.compact == False)  # noqa: E712
        .order_by(ReplayRow.match_id).limit(limit)).all()
    session.rollback()  # no transaction held while the rows are rebuilt
    changes, kept, before, after_bytes = [], 0, 0, 0
    for match_id, data in rows:
        form = None
        if not is_compact(data):
            candidate = stored_form(data)
            form = candidate if candidate.compact else None
        if form is None:
            kept += 1
            continue
        changes.append((match_id, form))
        before += len(data)
        after_bytes += len(form.data)
    if changes:
        table = ReplayRow.__table__
        for match_id, form in changes:  # compact false in the guard: converted once, whoever else runs
            session.exec(update(table).where(table.c.match_id == match_id, table.c.compact == False)  # noqa: E712
                         .values(data=form.data, compact=True))
        session.commit()
    return Batch(len(rows), len(changes), kept, rows[-1][0] if rows else None, before, after_bytes)


def expand_batch(*, session: Session, game: str | None, after: int = 0, limit: int = 200) -> Batch:
    """Turn up to `limit` compact rows (of `game`, or every game) back into the gzip of their JSON:
    before a rules change that would make their decisions rebuild differently."""
    query = (select(ReplayRow.match_id, ReplayRow.data).where(ReplayRow.match_id > after,
                                                               ReplayRow.compact == True)  # noqa: E712
             .order_by(ReplayRow.match_id).limit(limit))
    if game is not None:
        query = query.join(Match, Match.id == ReplayRow.match_id).where(Match.game == game)
    rows = session.exec(query).all()
    session.rollback()
    table = ReplayRow.__table__
    changed, kept, before, after_bytes = 0, 0, 0, 0
    for match_id, data in rows:
        try:
            raw = replay_bytes(data)
        except ReplayError:
            kept += 1
            continue
        packed = gzip.compress(raw, compresslevel=6, mtime=0)
        session.exec(update(table).where(table.c.match_id == match_id, table.c.compact == True)  # noqa: E712
                     .values(data=packed, compact=False))
        changed += 1
        before += len(data)
        after_bytes += len(packed)
    session.commit()
    return Batch(len(rows), changed, kept, rows[-1][0] if rows else None, before, after_bytes)
