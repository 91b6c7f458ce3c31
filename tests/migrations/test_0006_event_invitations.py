"""Migration 0006: existing entrants stay entrants (accepted), events keep their rows through the
SQLite table copy (no cascade into entrants and schedule), and back again on downgrade."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from ladder.db import alembic_config, make_engine, upgrade


def test_entrants_carry_over_and_back(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0005")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (username, password_hash, is_admin, is_system, created_at) "
                              "VALUES ('org', '!', true, false, '2026-01-01 00:00:00')"))
            conn.execute(text("INSERT INTO bots (name, game, description, owner_id, retired, created_at) "
                              "SELECT 'b', 'treasure', '', id, false, '2026-01-01 00:00:00' FROM users"))
            conn.execute(text(
                "INSERT INTO events (name, game, options, format, table_size, deals, rounds, duplicate, seed, "
                "open_registration, status, organizer_id, created_at) SELECT 'cup', 'treasure', '{}', "
                "'round-robin', 2, 1, 1, true, 7, false, 'registration', id, '2026-01-01 00:00:00' FROM users"))
            conn.execute(text("INSERT INTO event_entrants (event_id, bot_id, invited, joined_at) "
                              "SELECT events.id, bots.id, true, '2026-01-01 00:00:00' FROM events, bots"))
        upgrade(engine, "0006")
        with engine.begin() as conn:
            assert conn.execute(text("SELECT accepted FROM event_entrants")).scalars().all() == [True]
            conn.execute(text("UPDATE events SET status = 'cancelled'"))  # the new status is allowed
        command.downgrade(alembic_config(engine), "0005")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT status FROM events")).scalars().all() == ["finished"]
            assert conn.execute(text("SELECT count(*) FROM event_entrants")).scalar() == 1
        upgrade(engine)
    finally:
        engine.dispose()
