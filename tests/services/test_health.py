"""The readiness checks: a database at the code's schema, a broker that answers; each failure named."""

from __future__ import annotations

from service_support import redis_url  # noqa: F401 (fixture)
from sqlalchemy import create_engine

from ladder.db import make_engine
from ladder.services.health import broker_check, database_check, migration_head, readiness


def test_a_migrated_database_is_ready_and_an_old_schema_is_named(engine):
    assert database_check(engine) == database_check(engine, migration_head())
    assert database_check(engine).ok
    behind = database_check(engine, head="9999_future")
    assert not behind.ok and "this code needs 9999_future: run `ladder migrate`" in behind.detail


def test_an_unmigrated_or_unreachable_database_is_not_ready(tmp_path):
    empty = make_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert "schema at None" in database_check(empty).detail
    gone = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2})
    check = database_check(gone)
    assert not check.ok and check.detail.startswith("unreachable: OperationalError")


def test_the_broker_check_sees_redis_and_the_embedded_file(redis_url, tmp_path):  # noqa: F811
    assert broker_check(redis_url).ok
    dead = broker_check("redis://127.0.0.1:1/0")
    assert not dead.ok and dead.detail.startswith("unreachable: ConnectionError")
    missing = broker_check(f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}")
    assert not missing.ok and "no broker file" in missing.detail
    empty = tmp_path / "empty.sqlite3"
    create_engine(f"sqlite:///{empty}").connect().close()
    assert "tables are missing" in broker_check(f"sqla+sqlite:///{empty}").detail


def test_readiness_checks_both(engine, redis_url):  # noqa: F811
    assert [c.name for c in readiness(engine, redis_url)] == ["database", "broker"]
    assert all(c.ok for c in readiness(engine, redis_url))
