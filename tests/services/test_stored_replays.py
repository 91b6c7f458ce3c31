"""Stored replays (ladder/services/stored_replays.py): new results are stored compactly; a database
of old-form (gzip) rows is converted in batches and every page and download still serves them,
byte for byte; a row that no longer rebuilds is refused with a reason, never served wrong."""

from __future__ import annotations

import gzip

import pytest
from sqlalchemy import update
from sqlmodel import select

from ladder.models import Replay as ReplayRow
from ladder.models import Seat
from ladder.play import default_bot_names, play_builtin
from ladder.replay import dumps_replay, loads_replay, verify_replay
from ladder.replay.compact import is_compact
from ladder.services import matches, pages, results, stored_replays
from ladder.services.errors import NotFound

GAMES = ("treasure", "drachengold", "dragonflame")


def _recorded(world, session, game: str, seed: int):
    versions = [world.bot(game=game)[1] for _ in range(3)]
    match = matches.queue_match(session=session, game=game, seats=[v.id for v in versions], seed=seed)
    matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    played = play_builtin(game, default_bot_names(game, 3), seed=match.seed, options=match.options).replay
    results.record_result(session=session, match_id=match.id, outcome=results.outcome_from_replay(played),
                          worker_id="w1")
    return match.id, dumps_replay(played)


def _as_old_form(session, match_id: int, raw: bytes) -> None:
    table = ReplayRow.__table__
    session.exec(update(table).where(table.c.match_id == match_id)
                 .values(data=gzip.compress(raw, compresslevel=6, mtime=0), compact=False))
    session.commit()


def _served(session, match_id: int) -> bytes:
    stored_replays.clear_cache()  # rebuilt from the row, not remembered from the write
    return stored_replays.stored_replay_bytes(session=session, match_id=match_id)


def test_a_new_result_is_stored_compactly_and_served_as_played(world, session):
    for n, game in enumerate(GAMES):
        match_id, raw = _recorded(world, session, game, seed=20 + n)
        row = session.get(ReplayRow, match_id)
        assert row.compact and is_compact(row.data) and row.size == len(raw)
        assert len(row.data) < len(gzip.compress(raw)) / 3
        assert _served(session, match_id) == raw
        served = loads_replay(pages.replay_json(session=session, match_id=match_id))
        assert verify_replay(served).ok


def test_old_form_rows_are_converted_in_batches_and_still_served(world, session):
    recorded = [_recorded(world, session, game, seed=30 + n) for n, game in enumerate(GAMES * 2)]
    for match_id, raw in recorded:
        _as_old_form(session, match_id, raw)
    # one row whose stored bytes are not the canonical form the engine writes: kept as it is
    odd_id, odd_raw = recorded[0]
    odd = odd_raw.replace(b"\n", b"\n ")
    session.exec(update(ReplayRow.__table__).where(ReplayRow.__table__.c.match_id == odd_id)
                 .values(data=gzip.compress(odd)))
    session.commit()
    before = {m: pages.replay_json(session=session, match_id=m) for m, _ in recorded}

    cursor, changed, kept, batches = 0, 0, 0, 0
    while (batch := stored_replays.compact_batch(session=session, after=cursor, limit=2)).last is not None:
        cursor, changed, kept, batches = batch.last, changed + batch.changed, kept + batch.kept, batches + 1
    assert (changed, kept, batches) == (len(recorded) - 1, 1, 3)
    assert stored_replays.compact_batch(session=session, after=0, limit=100).changed == 0  # once only

    rows = {r.match_id: r for r in session.exec(select(ReplayRow)).all()}
    for match_id, raw in recorded:
        assert rows[match_id].compact == (match_id != odd_id)
        assert _served(session, match_id) == (odd if match_id == odd_id else raw)
        assert pages.replay_json(session=session, match_id=match_id) == before[match_id]
        zipped = pages.replay_gzip(session=session, match_id=match_id)
        assert gzip.decompress(zipped) == before[match_id]
    exported = stored_replays.stored_replays(session=session, match_ids=[m for m, _ in recorded])
    assert {m: dumps_replay(r) for m, r in exported.items() if m != odd_id} == \
        {m: raw for m, raw in recorded if m != odd_id}

    cursor = 0
    while (batch := stored_replays.expand_batch(session=session, game="treasure", after=cursor)).last is not None:
        cursor = batch.last
    session.expire_all()
    treasure = {m for m, _ in recorded[::3]}  # GAMES * 2: the first and the fourth
    for match_id, raw in recorded:
        row = session.get(ReplayRow, match_id)
        assert row.compact == (match_id != odd_id and match_id not in treasure)
        assert _served(session, match_id) == (odd if match_id == odd_id else raw)


def test_a_compact_row_that_disagrees_with_the_recorded_result_is_refused(world, session):
    match_id, _ = _recorded(world, session, "treasure", seed=41)
    seat = session.exec(select(Seat).where(Seat.match_id == match_id, Seat.seat == 0)).one()
    seat.score = (seat.score or 0) + 1
    session.add(seat)
    session.commit()
    stored_replays.clear_cache()
    with pytest.raises(NotFound, match="cannot be rebuilt"):
        pages.replay_json(session=session, match_id=match_id)


def test_the_cache_is_bounded(world, session, monkeypatch):
    monkeypatch.setattr(stored_replays, "CACHE_BYTES", 50_000)
    ids = [_recorded(world, session, "drachengold", seed=50 + n)[0] for n in range(3)]
    stored_replays.clear_cache()
    for match_id in ids:
        stored_replays.stored_replay_bytes(session=session, match_id=match_id)
        assert stored_replays._cache_size <= 50_000 or len(stored_replays._cache) == 1
