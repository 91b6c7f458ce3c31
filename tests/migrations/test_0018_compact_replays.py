"""Migration 0018: existing replays stay gzip (`compact` false) and are still served; the
downgrade refuses while compact rows remain, and goes once they are expanded."""

from __future__ import annotations

import gzip

import pytest
from alembic import command
from sqlalchemy import text

from ladder.db import alembic_config, make_engine, session_factory, upgrade
from ladder.play import play_builtin
from ladder.replay import dumps_replay
from ladder.services.stored_replays import compact_batch, expand_batch, stored_replay_bytes


def test_old_rows_stay_gzip_and_the_downgrade_waits_for_expansion(db_url):
    engine = make_engine(db_url)
    raw = dumps_replay(play_builtin("treasure", ["careful", "random"], seed=4).replay)
    try:
        upgrade(engine, "0017_rating_checks")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO matches (id, game, options, seed, status, kind, ranked, sandbox, "
                              "attempts, created_at) VALUES (1, 'treasure', '{}', 4, 'finished', 'ladder', false, "
                              "'none', 1, '2026-01-01 00:00:00')"))
            conn.execute(text("INSERT INTO replays (match_id, data, size, created_at, hidden) "
                              "VALUES (1, :d, :s, '2026-01-01 00:00:00', false)"),
                         {"d": gzip.compress(raw), "s": len(raw)})
        upgrade(engine, "0018_compact_replays")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT compact FROM replays")).scalar_one() in (False, 0)
        upgrade(engine)  # the services below are the head's, and read the head's columns
        with session_factory(engine)() as session:
            assert stored_replay_bytes(session=session, match_id=1) == raw
            assert compact_batch(session=session).changed == 1
            assert stored_replay_bytes(session=session, match_id=1) == raw
        with pytest.raises(RuntimeError, match="compact replays remain"):
            command.downgrade(alembic_config(engine), "0017_rating_checks")
        upgrade(engine)  # back where the services run, wherever the refused downgrade stopped
        with session_factory(engine)() as session:
            assert expand_batch(session=session, game=None).changed == 1
        command.downgrade(alembic_config(engine), "0017_rating_checks")
        with engine.connect() as conn:
            assert gzip.decompress(conn.execute(text("SELECT data FROM replays")).scalar_one()) == raw
        upgrade(engine)
    finally:
        engine.dispose()
