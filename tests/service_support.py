"""Helpers for the tests of the ladder service's processes (workers, `ladder up`, the bench).

Redis: each test takes a Redis database of its own (1..14 on LADDER_TEST_REDIS, default
redis://127.0.0.1:6379/0) by a lock key, so parallel test processes never consume each other's
messages. PostgreSQL: the root conftest's `postgres_database`, wiped per test. Unreachable services
skip, except with LADDER_REQUIRE_SERVICES=1, where they fail with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from needs import sandbox_mode, unavailable
from sqlalchemy import create_engine, func, text
from sqlmodel import Session, select

from ladder.cli.bench.chaos_procs import kill_group, stop  # noqa: F401 (the tests' helpers too)
from ladder.models import Bot, BotCreate, BotVersion, Match, RatingChange, User
from ladder.services import bots as bot_services

REDIS_BASE = os.environ.get("LADDER_TEST_REDIS", "redis://127.0.0.1:6379/0")
LADDER = [sys.executable, "-m", "ladder.cli"]
UID_BASE_RANGE = range(62000, 63000)  # the sandbox's slot uids (workers/sandbox/slots.py)

# A Treasure bot that plays like the random starter bot, slowly: a match lasts seconds, so a test
# can kill its worker in the middle of it.
SLOW_BOT = b'''"""Random Treasure play, DELAY seconds per decision."""
import time

from bots.sdk import Bot, run

DELAY = 0.08


class SlowBot(Bot):
    def flip(self, observation):
        time.sleep(DELAY)
        request = observation["request"]
        if request["can_stop"] and self.rng.random() < 0.3:
            return {"stop": True}
        return {"square": self.rng.choice(request["squares"])}

    def move_spider(self, observation):
        time.sleep(DELAY)
        return {"square": self.rng.choice([*observation["request"]["squares"], None])}


if __name__ == "__main__":
    run(SlowBot)
'''


@pytest.fixture
def redis_url():
    """A Redis database (by URL) that only this test uses, empty at the start and at the end."""
    import redis

    admin = redis.Redis.from_url(REDIS_BASE, socket_timeout=3)
    try:
        admin.ping()
    except redis.RedisError as exc:
        unavailable(f"Redis unreachable at {REDIS_BASE}: {exc}")
    token = uuid.uuid4().hex
    for number in range(1, 15):
        if admin.set(f"ladder-test-db-lock:{number}", token, nx=True, ex=3600):
            break
    else:
        pytest.fail("no free Redis database (1..14) for this test")
    url = REDIS_BASE.rsplit("/", 1)[0] + f"/{number}"
    redis.Redis.from_url(url).flushdb()
    try:
        yield url
    finally:
        redis.Redis.from_url(url).flushdb()
        if admin.get(f"ladder-test-db-lock:{number}") == token.encode():
            admin.delete(f"ladder-test-db-lock:{number}")


@pytest.fixture
def pg_url(request) -> str:
    """An empty PostgreSQL database (the root conftest's, wiped) for processes started by the test."""
    url = request.getfixturevalue("postgres_database")
    if url.startswith("unreachable: "):
        unavailable(f"PostgreSQL {url}")
    wipe = create_engine(url)
    with wipe.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    wipe.dispose()
    return url


def add_user_bot(session: Session, *, username: str, code: bytes, filename: str = "main.py",
                 game: str = "treasure", name: str = "slow", active: bool = True) -> BotVersion:
    """A user's bot with one version, active (validation skipped) or left pending."""
    user = User(username=username, password_hash="!")
    session.add(user)
    session.commit()
    bot = bot_services.create_bot(session=session, owner_id=user.id, data=BotCreate(name=name, game=game))
    version = bot_services.add_version(session=session, bot_id=bot.id, code=code, filename=filename,
                                       placement_games=0)
    if active:
        bot_services.activate_version(session=session, version_id=version.id)
    return version


def house_versions(session: Session, game: str, names: Sequence[str] | None = None) -> list[int]:
    """The active versions of the game's starter bots (only those `names` when given), by bot name."""
    query = (select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
             .where(Bot.game == game, Bot.builtin.is_not(None), BotVersion.status == "active"))
    if names is not None:
        query = query.where(Bot.name.in_(list(names)))
    return list(session.exec(query.order_by(Bot.name)).all())


def record_played(session: Session, game: str, versions: Sequence[int], bots: Sequence[str], when,
                  *, ranked: bool = True, seed: int = 7) -> tuple[Match, dict]:
    """A match between bot `versions`, played in-process by the house bots `bots` (one per seat)
    and recorded as finished at `when`: (the match, its replay)."""
    from ladder.play import play_builtin
    from ladder.services import matches, results

    match = matches.queue_match(session=session, game=game, seats=list(versions), seed=seed, ranked=ranked)
    matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    game_play = play_builtin(game, list(bots), seed=match.seed, options=match.options)
    results.record_result(session=session, match_id=match.id, worker_id="w1", now=when,
                          outcome=results.outcome_from_replay(game_play.replay))
    return match, game_play.replay.to_json()


def service_env(*, database_url: str | None, redis_url: str | None, instance: Path, sandbox: str,
                **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(LADDER_ENV="test", LADDER_INSTANCE_DIR=str(instance), LADDER_SANDBOX_MODE=sandbox,
               PYTHONUNBUFFERED="1")
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


def start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """A `ladder` subcommand in its own process group (so the test can kill all of it), output to `log`."""
    with open(log, "ab") as out:
        return subprocess.Popen([*LADDER, *argv], env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def wait_until(predicate: Callable[[], object], timeout: float, what: str, logs: list[Path] = (),
               interval: float = 0.1):
    """Poll `predicate` until it returns something truthy; fail naming `what` and showing the logs."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-4000:]}" for p in logs if p.exists())
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{tails}")
        time.sleep(interval)


def rating_changes_per_match(session: Session) -> dict[int, int]:
    session.rollback()  # a fresh snapshot, and no lock kept on SQLite afterwards
    rows = session.exec(select(RatingChange.match_id, func.count()).group_by(RatingChange.match_id)).all()
    session.rollback()
    return dict(rows)


def match_row(session: Session, match_id: int) -> Match:
    session.rollback()
    row = session.exec(select(Match).where(Match.id == match_id).execution_options(populate_existing=True)).one()
    session.expunge(row)  # a detached snapshot: the rollback below must not expire it
    session.rollback()
    return row


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (from /proc), to check that none survives a shutdown."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def strict_mode() -> str:
    """"strict" when this machine can run the strict sandbox (root, bubblewrap, cgroups)."""
    return sandbox_mode("strict")


Proc = tuple[int, int]  # (pid, start time in clock ticks since boot): a pid alone may be reused meanwhile


def proc_of(pid: int) -> Proc | None:
    try:
        return pid, int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def procs_of(pids) -> set[Proc]:
    return {p for p in map(proc_of, pids) if p is not None}


def still_running(proc: Proc) -> bool:
    """The very process `proc` names is alive (a zombie has finished; a reused pid is another)."""
    return proc_of(proc[0]) == proc and alive(proc[0])


def uid_of(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return -1
    return int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])


def sandbox_groups_of(pids) -> list[str]:
    """Bot and table cgroups owned by one of `pids` (names carry the owner's pid). Looked up by
    owner, never by walking every worker's groups: those of other processes on the machine come
    and go meanwhile (a walk into a vanishing table raised FileNotFoundError)."""
    from workers.sandbox import cgroup as sandbox_cgroup

    return [group for pid in sorted(pids) for group in sandbox_cgroup.owned_groups(pid)]
