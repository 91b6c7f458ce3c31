"""Migration 0004: each user's single API token becomes a named, scoped token with the same hash, so
the token in people's scripts keeps working; and back again on downgrade. With bots referencing
the users (SQLite copies the users table to drop its columns: that must neither fail nor cascade)."""

from __future__ import annotations

import hashlib

from alembic import command
from sqlalchemy import text

from ladder.db import alembic_config, make_engine, session_factory, upgrade
from ladder.services import tokens


def test_the_single_token_carries_over_and_back(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0003")
        token = tokens.TOKEN_PREFIX + "x" * 43
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO users (username, password_hash, token_hash, token_created_at, is_admin, is_system, "
                "created_at) VALUES ('alice', '!', :h, '2026-01-02 03:04:05', false, false, '2026-01-01 00:00:00'), "
                "('bob', '!', NULL, NULL, false, false, '2026-01-01 00:00:00')"), {"h": tokens.digest(token)})
            conn.execute(text("INSERT INTO bots (name, game, description, owner_id, retired, created_at) "
                              "SELECT 'b', 'treasure', '', id, false, '2026-01-01 00:00:00' FROM users"))
        upgrade(engine, "0004")
        upgrade(engine)  # the ORM below reads head's columns (0015 added some to users)
        with session_factory(engine)() as session:
            found = tokens.authenticate(session=session, token=token)
            assert found is not None and found.user.username == "alice"
            assert found.token.name == "token" and found.token.scope_set == {"read", "upload"}
            assert found.token.created_at.year == 2026 and found.token.created_at.month == 1
            assert len(tokens.list_tokens(session=session, user_id=found.user.id + 1)) == 0  # bob had none
        command.downgrade(alembic_config(engine), "0003")
        with engine.connect() as conn:
            rows = dict(conn.execute(text("SELECT username, token_hash FROM users")).all())
        assert rows == {"alice": hashlib.sha256(token.encode()).hexdigest(), "bob": None}
        upgrade(engine)  # and up again, to head
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM bots")).scalar() == 2
            if engine.dialect.name == "sqlite":  # the connection goes back to the pool: keys enforced again
                assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        engine.dispose()
