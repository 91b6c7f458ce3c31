"""Database fixtures: every database test runs on SQLite and on a real PostgreSQL.

`db_url` is an EMPTY database: a fresh SQLite file, or a PostgreSQL database created once per test
session (per xdist worker) under a unique name, wiped before each test and dropped at the end.
`engine` is that database migrated to head; `session` a session on it.

PostgreSQL is found at LADDER_TEST_POSTGRES (default postgresql://postgres@127.0.0.1:5432/postgres,
trust auth). When it is unreachable the postgresql cases are skipped, unless
LADDER_REQUIRE_SERVICES=1 (CI), where they fail with the reason.
"""

from __future__ import annotations

import os
import uuid

import pytest
from hypothesis import settings as hypothesis_settings
from needs import sandbox_mode, unavailable
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ladder.config import Settings
from ladder.db import make_engine, session_factory, upgrade

# Property tests check behaviour, never speed: hypothesis's 200 ms per-example deadline failed a
# protocol test on a loaded machine (it passes 20,000 examples without one).
hypothesis_settings.register_profile("ladder", deadline=None)
hypothesis_settings.load_profile("ladder")

PG_ADMIN_URL = os.environ.get("LADDER_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def _psycopg(url: str) -> str:
    return Settings(database_url=url).sqlalchemy_url


@pytest.fixture(scope="session")
def postgres_database():
    """A uniquely named PostgreSQL database for this test session, dropped afterwards; None when
    PostgreSQL is unreachable (and that is allowed)."""
    admin = create_engine(_psycopg(PG_ADMIN_URL), isolation_level="AUTOCOMMIT")
    name = f"ladder_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # connection refused, auth, missing role: all mean "no PostgreSQL here"
        admin.dispose()
        yield f"unreachable: {PG_ADMIN_URL}: {type(exc).__name__}: {str(exc).splitlines()[0]}"
        return
    try:
        yield make_url(_psycopg(PG_ADMIN_URL)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """An empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    url = request.getfixturevalue("postgres_database")
    if url.startswith("unreachable: "):
        unavailable(f"PostgreSQL {url}")
    wipe = create_engine(url)
    with wipe.begin() as conn:  # a clean slate for this test, as cheap as a new database
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    wipe.dispose()
    return url


@pytest.fixture
def engine(db_url):
    engine = make_engine(db_url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def sessions(engine):
    """The session factory, for tests that need several sessions (threads, workers)."""
    return session_factory(engine)


@pytest.fixture
def session(sessions):
    with sessions() as session:
        yield session


@pytest.fixture
def strict_sandbox() -> str:
    """The mode name "strict"; skips without bwrap/root/cgroups unless LADDER_REQUIRE_SERVICES=1."""
    return sandbox_mode("strict")


@pytest.fixture
def user_sandbox() -> str:
    return sandbox_mode("user")


@pytest.fixture
def quick_boss(monkeypatch) -> None:
    """Drachengold's boss searching a few samples an attack, not 0.27 s: for in-process ladders that
    seat every house bot (the benches' tests), whose figures are not the boss's strength."""
    from bots.drachengold import boss

    monkeypatch.setattr(boss, "WALL_BUDGET", 0.01)
    monkeypatch.setattr(boss, "CPU_BUDGET", 0.01)


# --- what the run's own processes left behind (tests/leftovers.py says how it is attributed) ----


def pytest_configure(config):
    import leftovers

    leftovers.start_run()


def pytest_sessionfinish(session, exitstatus):
    """Sandbox processes orphaned to this run and still running at its end (a SIGKILLed worker's
    frozen bots) are listed, then cleared away; under LADDER_REQUIRE_SERVICES=1 they fail the run."""
    import leftovers

    found = leftovers.find()
    worker = getattr(session.config, "workerinput", None)
    if worker is not None:  # an xdist worker: the controller reports, after every worker is done
        leftovers.record(found, worker["workerid"])
        return
    found += leftovers.collect()
    if not found:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"{len(found)} sandbox processes were left running by this run's processes (killed now):",
             *(f"  {item}" for item in found)]
    if reporter is not None:
        reporter.write_line("\n".join(lines), red=True)
    if os.environ.get("LADDER_REQUIRE_SERVICES") == "1":
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
