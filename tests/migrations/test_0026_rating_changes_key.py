"""Migration 0026: rating changes keyed by (sequence, seat), no surrogate id; a downgrade numbers
the rows again. The rows and the ratings' rewrite come through both ways."""

from __future__ import annotations

from alembic import command
from migration_support import played, versions
from sqlalchemy import inspect, text
from sqlmodel import Session

from ladder.db import alembic_config, make_engine, upgrade
from ladder.services.ratings import recompute_ratings

COLUMNS = "sequence, seat, match_id, bot_id, rank, before, delta, after"


def test_rating_changes_keep_their_rows_up_and_down(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine, "0025_scorecard_rows_per_bot")
        upgrade(engine)
        with Session(engine) as session:
            seated = versions(session, ["a", "b", "c"])
            for seed in (1, 2):
                played(session, seated, ["careful", "random", "memory"], seed)
        pk = inspect(engine).get_pk_constraint("rating_changes")["constrained_columns"]
        assert pk == ["sequence", "seat"]
        with engine.connect() as conn:
            rows = conn.execute(text(f"SELECT {COLUMNS} FROM rating_changes ORDER BY sequence, seat")).all()
        assert len(rows) == 6
        command.downgrade(alembic_config(engine), "0025_scorecard_rows_per_bot")
        with engine.connect() as conn:
            ids = conn.execute(text("SELECT id FROM rating_changes")).scalars().all()
            assert sorted(ids) == sorted(set(ids)) and len(ids) == 6  # numbered again, one each
            assert conn.execute(text(f"SELECT {COLUMNS} FROM rating_changes ORDER BY sequence, seat")).all() == rows
        upgrade(engine)
        with engine.connect() as conn:
            assert conn.execute(text(f"SELECT {COLUMNS} FROM rating_changes ORDER BY sequence, seat")).all() == rows
        with Session(engine) as session:
            assert recompute_ratings(session=session) == []  # the stored numbers replay as they are
    finally:
        engine.dispose()
