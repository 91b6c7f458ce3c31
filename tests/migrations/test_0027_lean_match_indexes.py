"""Migration 0027: each version's first rated sequence, backfilled from the history, instead of
the seats' index by version; the rating history's index covers only the chart's columns. Down
and up again, the seats, rating changes and the ratings' replay come through."""

from __future__ import annotations

from alembic import command
from migration_support import played, versions
from sqlalchemy import inspect, text
from sqlmodel import Session

from ladder.db import alembic_config, make_engine, upgrade
from ladder.services import bots
from ladder.services.ratings import recompute_ratings


def _indexes(engine, table: str) -> dict[str, dict]:
    return {i["name"]: i for i in inspect(engine).get_indexes(table)}


def test_the_backfill_finds_each_versions_first_rated_match(db_url):
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        with Session(engine) as session:
            a, b, c = versions(session, ["a", "b", "c"])
            played(session, [a, b], ["careful", "random"], 1)
            a2 = bots.add_version(session=session, bot_id=1, code=b"print(2)\n", filename="bot.py",
                                  placement_games=0).id
            bots.activate_version(session=session, version_id=a2)
            played(session, [b, a2], ["careful", "random"], 2)
            played(session, [a2, b], ["careful", "random"], 3)
        with engine.connect() as conn:
            written = dict(conn.execute(text("SELECT id, first_rated_sequence FROM bot_versions")).all())
            seats = conn.execute(text("SELECT match_id, seat, bot_version_id FROM seats ORDER BY 1, 2")).all()
            first, second, _ = conn.execute(text("SELECT DISTINCT sequence FROM rating_changes ORDER BY 1")).scalars()
        assert written == {a: first, b: first, c: None, a2: second}  # as the ratings wrote them, match by match
        command.downgrade(alembic_config(engine), "0026_rating_changes_key")
        assert "ix_seats_version" in _indexes(engine, "seats")
        assert "first_rated_sequence" not in {col["name"] for col in inspect(engine).get_columns("bot_versions")}
        upgrade(engine)
        with engine.connect() as conn:
            assert dict(conn.execute(text("SELECT id, first_rated_sequence FROM bot_versions")).all()) == written
            assert conn.execute(text("SELECT match_id, seat, bot_version_id FROM seats ORDER BY 1, 2")).all() == seats
        assert "ix_seats_version" not in _indexes(engine, "seats")
        history = _indexes(engine, "rating_changes")["ix_rating_changes_bot_sequence"]
        assert history["column_names"] == ["bot_id", "sequence"]
        if engine.dialect.name == "postgresql":
            assert history["dialect_options"]["postgresql_include"] == ["match_id", "before", "after"]
        with Session(engine) as session:
            assert recompute_ratings(session=session) == []
    finally:
        engine.dispose()
