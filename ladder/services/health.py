"""Is this process fit to serve: the database answers at the schema this code expects, and the
broker answers. `/readyz` (ladder/web/health.py) and `ladder worker --check`'s neighbours read it.

Each check is short and bounded (a 2-second connect), so a load balancer polling every few seconds
costs a connection from the pool and one round trip to each service, never a page's queries.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str

    def as_json(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail}


@functools.cache
def migration_head() -> str:
    """The newest migration this code ships (read once: the files do not change under a process)."""
    from alembic.script import ScriptDirectory

    from ladder.db import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def database_check(engine: Engine, head: str | None = None) -> Check:
    from ladder.db import current_revision

    head = head or migration_head()
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        current = current_revision(engine)
    except Exception as exc:  # any driver error means "not reachable" to a load balancer
        return Check("database", False, f"unreachable: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
    if current != head:
        return Check("database", False, f"schema at {current}, this code needs {head}: run `ladder migrate`")
    return Check("database", True, f"schema at {head}")


def broker_check(broker_url: str) -> Check:
    """Redis answers PING; the embedded SQLite broker's file holds its tables (made by `ladder up`)."""
    try:
        if broker_url.startswith(("redis://", "rediss://", "unix://")):
            import redis

            client = redis.Redis.from_url(broker_url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S)
            try:
                client.ping()
            finally:
                client.close()
            return Check("broker", True, "redis answers")
        url = make_url(broker_url.removeprefix("sqla+"))
        from sqlalchemy import create_engine, inspect

        if url.get_backend_name() == "sqlite" and not (url.database and Path(url.database).exists()):
            return Check("broker", False, f"no broker file at {url.database}")
        engine = create_engine(url)
        try:
            tables = set(inspect(engine).get_table_names())
        finally:
            engine.dispose()
        if "kombu_queue" not in tables:
            return Check("broker", False, "the broker's tables are missing: run `ladder up` or `ladder migrate`")
        return Check("broker", True, "the embedded broker's tables are there")
    except Exception as exc:
        return Check("broker", False, f"unreachable: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")


def readiness(engine: Engine, broker_url: str) -> list[Check]:
    return [database_check(engine), broker_check(broker_url)]
