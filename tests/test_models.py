"""The schema: migrations match the models on both databases; constraints hold; guards fire."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from ladder import models
from ladder.db import alembic_config, current_revision, make_engine, session_factory, upgrade
from ladder.models import Bot, BotVersion, Match, RatingClock, Seat, User, UserPublic


def test_upgrade_head_on_empty_database_matches_the_models(db_url):
    engine = make_engine(db_url)
    try:
        assert inspect(engine).get_table_names() == []
        upgrade(engine)
        assert current_revision(engine) is not None
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), models.metadata)
        assert diff == []
        assert set(inspect(engine).get_table_names()) >= set(models.metadata.tables)
        with engine.connect() as conn:  # the row every rating update locks is created by the migration
            assert conn.execute(text("SELECT id, applied FROM rating_clock")).all() == [(1, 0)]
        command.downgrade(alembic_config(engine), "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()


def test_a_model_change_without_migration_shows_as_a_diff(engine):
    """The comparison above can fail: a column missing from the database is reported."""
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_seats_bot_match"))
        diff = compare_metadata(MigrationContext.configure(conn), models.metadata)
    assert [d[0] for d in diff] == ["add_index"]


def _user(session, name="alice") -> User:
    user = User(username=name, password_hash="x")
    session.add(user)
    session.commit()
    return user


def test_bot_names_are_unique_per_owner_and_game(session):
    alice, bob = _user(session), _user(session, "bob")
    session.add_all([Bot(owner_id=alice.id, game="treasure", name="b"), Bot(owner_id=alice.id, game="drachengold",
                     name="b"), Bot(owner_id=bob.id, game="treasure", name="b")])
    session.commit()
    session.add(Bot(owner_id=alice.id, game="treasure", name="b"))
    with pytest.raises(IntegrityError):
        session.commit()


def test_status_check_constraints_refuse_unknown_values(session):
    session.add(Match(game="treasure", seed=1, status="lost"))
    with pytest.raises(IntegrityError):
        session.commit()


def test_foreign_keys_are_enforced(session):
    """On SQLite too: PRAGMA foreign_keys is on for every connection."""
    session.add(Seat(match_id=999, seat=0, bot_id=999, bot_version_id=999))
    with pytest.raises(IntegrityError):
        session.commit()


def test_bot_versions_are_immutable(session):
    alice = _user(session)
    bot = Bot(owner_id=alice.id, game="treasure", name="b")
    session.add(bot)
    session.commit()
    version = BotVersion(bot_id=bot.id, number=1, filename="bot.py", code=b"x", sha256="0" * 64, size=1)
    session.add(version)
    session.commit()
    version.status = "active"  # status may change
    session.commit()
    version.code = b"y"
    with pytest.raises(ValueError, match="immutable"):
        session.commit()


def test_timestamps_come_back_aware_utc(sessions):
    with sessions() as s:
        here = datetime(2030, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2)))
        s.add(Match(game="treasure", seed=2**63 - 1, claimed_at=here))
        s.commit()
    with sessions() as s:
        match = s.exec(select(Match)).one()
        assert match.claimed_at == here and match.claimed_at.tzinfo == UTC
        assert match.claimed_at.hour == 1
        assert match.seed == 2**63 - 1  # BIGINT: full 63-bit seeds survive
        assert match.created_at.tzinfo == UTC


def test_naive_datetimes_are_refused(session):
    session.add(Match(game="treasure", seed=1, claimed_at=datetime(2030, 1, 1)))
    with pytest.raises(Exception, match="naive datetime"):
        session.commit()


def test_public_models_leave_secrets_out():
    assert "password_hash" not in UserPublic.model_fields and "token_hash" not in UserPublic.model_fields
    assert "code" not in models.BotVersionPublic.model_fields
    assert "claimed_by" not in models.MatchPublic.model_fields
    assert "owner_id" not in models.BotCreate.model_fields  # the service sets it, never the form


def test_rating_clock_row_is_created_when_missing(tmp_path):
    """A database made by create_all (no migration) still gets its clock row on first use."""
    from ladder.services.ratings import take_rating_clock

    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    models.metadata.create_all(engine)
    with session_factory(engine)() as s:
        assert take_rating_clock(s) == 1
        s.commit()
        assert take_rating_clock(s) == 2
        s.commit()
        assert s.get(RatingClock, 1).applied == 2
    engine.dispose()


def test_rating_history_index_covers_the_bot_page_columns(engine):
    """On PostgreSQL the bot page's history is served from the index alone (migration 0002)."""
    from sqlalchemy import inspect

    index = next(i for i in inspect(engine).get_indexes("rating_changes")
                 if i["name"] == "ix_rating_changes_bot_sequence")
    assert index["column_names"] == ["bot_id", "sequence"]
    if engine.dialect.name == "postgresql":
        covered = set(index["dialect_options"]["postgresql_include"])
        assert covered == {"match_id", "before", "after"}  # the chart's columns: 40 B a row (migration 0027)
