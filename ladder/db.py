"""Engine, sessions and migrations. Nothing connects at import time.

SQLite (the embedded default) runs in WAL mode with foreign keys on. A transaction that will write
must start with `BEGIN IMMEDIATE` (see `begin_write`): a deferred transaction that reads and then
writes can fail at once with "database is locked" when another connection committed in between
(the busy timeout does not cover that case), whereas an immediate one takes the write lock up front
and waits its turn. Reads stay deferred, so pages never wait for a worker and never block one.
PostgreSQL uses psycopg 3 with its default READ COMMITTED; the services guard every status change
with a conditional UPDATE and serialise rating updates on one row lock (see services/ratings.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from ladder.config import Settings

MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_BUSY_TIMEOUT_MS = 30_000


def make_engine(settings: Settings | str, *, echo: bool | None = None, **kwargs: object) -> Engine:
    """An engine for the settings' database (or a URL); creates the SQLite file's directory."""
    url = make_url(settings if isinstance(settings, str) else settings.sqlalchemy_url)
    if echo is None:
        echo = False if isinstance(settings, str) else settings.sql_echo
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, echo=echo, **kwargs)
        _configure_sqlite(engine)
        return engine
    kwargs.setdefault("pool_pre_ping", True)  # a restarted PostgreSQL must not break a worker
    # psycopg's codec for JSON columns: orjson, not the standard library's (the scorecard sums a
    # result reads and writes are two dozen JSON documents a match; issue #45). Same values back;
    # its text is compact, an integer key becomes a string as json.dumps makes it, NaN null.
    kwargs.setdefault("json_serializer", _json_dumps)
    kwargs.setdefault("json_deserializer", orjson.loads)
    return create_engine(url, echo=echo, **kwargs)


def _json_dumps(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # the driver must not BEGIN on its own; we do below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; FULL costs an fsync per commit
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        immediate = connection.get_execution_options().get("sqlite_begin") == "IMMEDIATE"
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def begin_write(session: Session) -> None:
    """Start the session's next transaction as a writer (SQLite: BEGIN IMMEDIATE; no-op elsewhere).

    An open transaction is committed first: its snapshot may be stale, and a stale SQLite reader
    cannot become a writer. Services call this on entry, so each of them is one transaction.
    """
    if session.in_transaction():
        session.commit()
    session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit (views render after the commit)."""
    return sessionmaker(bind=engine, class_=Session, expire_on_commit=False)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One session for a unit of work: rolled back on error, always closed."""
    session = factory()
    try:
        yield session
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def alembic_config(engine: Engine | None = None):
    """Alembic's config for the migrations shipped in ladder/migrations (lazy import: CLI speed)."""
    from alembic.config import Config

    cfg = Config(str(MIGRATIONS / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema to `revision` (creates every table on an empty database)."""
    from alembic import command

    command.upgrade(alembic_config(engine), revision)


def crossed(before: str | None, after: str | None, revision: str) -> bool:
    """Whether an upgrade from `before` to `after` applied `revision`: `revision` lies on the chain
    from `after` down, and not on the one from `before` down (None: an empty database)."""
    from alembic.script import ScriptDirectory

    if after is None:
        return False
    script = ScriptDirectory.from_config(alembic_config())
    applied = {r.revision for r in script.iterate_revisions(after, "base")}
    had = {r.revision for r in script.iterate_revisions(before, "base")} if before is not None else set()
    return revision in applied and revision not in had


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
