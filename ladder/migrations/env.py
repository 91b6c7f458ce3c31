"""Alembic environment: the ladder's models are the target; the engine comes from the caller
(`ladder.db.upgrade(engine)`) or, from the alembic command line, from the environment's settings."""

from __future__ import annotations

import logging.config

import sqlalchemy as sa
from alembic import context
from sqlmodel.sql.sqltypes import AutoString

from ladder import models
from ladder.config import Settings
from ladder.db import make_engine

config = context.config
target_metadata = models.metadata


def render_item(kind, obj, autogen_context):
    """Render the ladder's column types as plain SQLAlchemy types, so a migration never imports
    application code (models change later; a migration must keep meaning what it meant)."""
    if kind == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    if kind == "type" and isinstance(obj, models.UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def configure(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_item=render_item,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
        compare_type=True,
    )


def run_migrations_online() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        if config.config_file_name is not None:
            logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)
        engine = make_engine(Settings.from_env())
    with engine.connect() as connection:
        configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run against a database")
run_migrations_online()
