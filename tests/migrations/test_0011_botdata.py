"""Migration 0011_botdata: existing seats and entrants are not pinned (null: the latest data), the
two bot data tables come and go, and the seats and entrants survive the way back."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, text

from ladder.db import alembic_config, make_engine, upgrade


def test_seats_and_entrants_carry_over_unpinned_and_back(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0010_person_seats")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (username, password_hash, is_admin, is_system, created_at) "
                              "VALUES ('org', '!', true, false, '2026-01-01 00:00:00')"))
            conn.execute(text("INSERT INTO bots (name, game, description, owner_id, retired, created_at) "
                              "SELECT 'b', 'treasure', '', id, false, '2026-01-01 00:00:00' FROM users"))
            conn.execute(text(
                "INSERT INTO events (name, game, options, format, table_size, deals, rounds, duplicate, seed, "
                "open_registration, status, organizer_id, created_at) SELECT 'cup', 'treasure', '{}', "
                "'round-robin', 2, 1, 1, true, 7, false, 'registration', id, '2026-01-01 00:00:00' FROM users"))
            conn.execute(text("INSERT INTO event_entrants (event_id, bot_id, invited, accepted, joined_at) "
                              "SELECT events.id, bots.id, true, true, '2026-01-01 00:00:00' FROM events, bots"))
        upgrade(engine, "0011_botdata")
        with engine.begin() as conn:
            assert conn.execute(text("SELECT data_version FROM event_entrants")).scalars().all() == [None]
            conn.execute(text("INSERT INTO bot_data (bot_id, version, updated_at) "
                              "SELECT id, 0, '2026-01-01 00:00:00' FROM bots"))
        assert {"bot_data", "bot_data_versions"} <= set(inspect(engine).get_table_names())
        assert "data_version" in {c["name"] for c in inspect(engine).get_columns("seats")}
        command.downgrade(alembic_config(engine), "0010_person_seats")
        inspector = inspect(engine)
        assert not {"bot_data", "bot_data_versions"} & set(inspector.get_table_names())
        assert "data_version" not in {c["name"] for c in inspector.get_columns("event_entrants")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM event_entrants")).scalar() == 1
        upgrade(engine)
    finally:
        engine.dispose()
