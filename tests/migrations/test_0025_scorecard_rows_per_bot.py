"""Migration 0025: a replay row says whether its match's seats are in the scorecard sums. The
backfill marks exactly the matches that have scorecard rows; a downgrade drops the column."""

from __future__ import annotations

from alembic import command
from migration_support import played, versions
from sqlalchemy import text
from sqlmodel import Session

from ladder.db import alembic_config, make_engine, upgrade


def test_the_backfill_marks_the_matches_with_scorecard_rows(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        with Session(engine) as session:
            seated = versions(session, ["a", "b"])
            measured = played(session, seated, ["careful", "random"], 1)
            unmeasured = played(session, seated, ["careful", "random"], 2)
        command.downgrade(alembic_config(engine), "0024_lean_scorecard_rows")
        with engine.begin() as conn:  # a match whose measuring failed has no rows
            conn.execute(text("DELETE FROM scorecard_tallies WHERE match_id = :m"), {"m": unmeasured})
        upgrade(engine)
        with engine.connect() as conn:
            flags = dict(conn.execute(text("SELECT match_id, measured FROM replays")).all())
        assert flags == {measured: True, unmeasured: False}
    finally:
        engine.dispose()
