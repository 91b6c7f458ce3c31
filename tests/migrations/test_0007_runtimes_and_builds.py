"""Migration 0007: an existing .py version is a Python version, a .zip's runtime stays unknown,
the artifacts table comes and goes, and back again on downgrade."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, text

from ladder.db import alembic_config, make_engine, upgrade


def test_existing_versions_get_their_runtime_and_back(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0006")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO users (username, password_hash, is_admin, is_system, created_at) "
                              "VALUES ('u', '!', false, false, '2026-01-01 00:00:00')"))
            conn.execute(text("INSERT INTO bots (name, game, description, owner_id, retired, created_at) "
                              "SELECT 'b', 'treasure', '', id, false, '2026-01-01 00:00:00' FROM users"))
            for number, filename in ((1, "Main.PY"), (2, "bot.zip")):
                conn.execute(text(
                    "INSERT INTO bot_versions (bot_id, number, filename, sha256, size, status, placement_owed, "
                    "created_at, code) SELECT id, :n, :f, 'x', 1, 'active', 0, '2026-01-01 00:00:00', :c FROM bots"),
                    {"n": number, "f": filename, "c": b"x"})
        upgrade(engine, "0007")
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT filename, runtime, build_key FROM bot_versions ORDER BY number")).all()
        assert [tuple(r) for r in rows] == [("Main.PY", "python", None), ("bot.zip", None, None)]
        assert "build_artifacts" in inspect(engine).get_table_names()
        command.downgrade(alembic_config(engine), "0006")
        assert "build_artifacts" not in inspect(engine).get_table_names()
        assert "runtime" not in {c["name"] for c in inspect(engine).get_columns("bot_versions")}
        upgrade(engine)
    finally:
        engine.dispose()
