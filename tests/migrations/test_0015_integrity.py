"""Migration 0015: every existing event gets a deal key of its own (its later deals are keyed
with it), and back again on downgrade."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from ladder.db import alembic_config, make_engine, upgrade


def test_existing_events_get_a_key_each_and_back(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0014_lobby")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (username, password_hash, is_admin, is_system, created_at) "
                              "VALUES ('org', '!', true, false, '2026-01-01 00:00:00')"))
            for name in ("cup", "shield"):
                conn.execute(text(
                    "INSERT INTO events (name, game, options, format, table_size, deals, rounds, duplicate, seed, "
                    "open_registration, status, organizer_id, created_at) SELECT :n, 'treasure', '{}', "
                    "'round-robin', 2, 1, 1, true, 7, false, 'running', id, '2026-01-01 00:00:00' FROM users"),
                    {"n": name})
        upgrade(engine, "0015_integrity")
        with engine.connect() as conn:
            keys = conn.execute(text("SELECT deal_key FROM events")).scalars().all()
        assert len(keys) == len(set(keys)) == 2 and all(len(bytes.fromhex(k)) == 32 for k in keys)
        command.downgrade(alembic_config(engine), "0014_lobby")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM events")).scalar() == 2
        upgrade(engine)
    finally:
        engine.dispose()
