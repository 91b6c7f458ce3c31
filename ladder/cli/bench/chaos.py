"""`ladder bench chaos`: a ladder playing real matches on PostgreSQL + Redis, broken on purpose,
must keep its promises (#30).

It starts a scratch database (`ladder_bench_chaos_...`, starter bots and users' copies of them),
a private redis-server, Celery beat and workers (ladder/cli/bench/chaos_procs.py), with the feed on
and matches played by the real runner in the chosen sandbox. Then, all at once until each count
is reached: workers kill themselves between taking a message and claiming its match and inside
the recording transaction (a pool process or the whole worker; ladder/cli/bench/chaos_worker.py),
messages are dropped from a busy broker, Redis is restarted without persistence. When the faults
stop, it checks what the ladder promises:

- every match open at that moment ends within the stale timeout plus the re-send bound plus
  `slack` (its own play and queue wait, a worker's restart);
- every dropped match and every match open at a Redis restart ended;
- every finished ranked match has one rating change per seat, no other match has any, and every
  rating recomputes (what `ladder ratings recompute` checks);
- with `drain`, the drain switch then empties the ladder within the same bound, feed still on.

tests/workers/queue/test_chaos.py runs it small in CI; the verdict is `ChaosResult.problems`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from ladder.games import FLAGSHIP

OPEN = ("queued", "running")


@dataclass(frozen=True)
class ChaosPlan:
    kills: int = 20  # workers and pool processes killed by the faults
    redis_restarts: int = 2
    drops: int = 10  # messages taken out of a busy broker
    sandbox: str = "user"
    games: tuple[str, ...] = (FLAGSHIP,)  # what commands play by default; the CI run names a quicker game
    users: int = 40  # users' copies of the starter bots: enough bots for tables waiting in the broker
    workers: int = 2
    concurrency: int = 2  # pool processes per worker
    stale: int = 60  # LADDER_MATCH_STALE_AFTER: above the longest match on a loaded machine
    resend: int = 15  # LADDER_MATCH_RESEND_AFTER
    slack: float = 60  # a match's own play and queue wait, a worker restarting
    p_claim: float = 0.15  # probability of a kill at each claim / each ratings write, while kills are due
    p_ratings: float = 0.15
    p_group: float = 0.5  # share of those kills that take the whole worker (the first one always, above 0)
    max_fault_seconds: float = 900  # give up (and fail) if the faults are not all done by then
    drain: bool = True

    @property
    def bound(self) -> float:
        return self.stale + self.resend + self.slack


@dataclass
class ChaosResult:
    plan: ChaosPlan
    pool_kills: int = 0
    worker_kills: int = 0
    drops: int = 0
    redis_restarts: int = 0
    fault_seconds: float = 0.0
    worker_restarts: int = 0
    ready_seconds: list[float] = field(default_factory=list)  # a replacement's go to ready
    cold_seconds: list[float] = field(default_factory=list)  # a first worker's start (imports too) to ready
    broker_busy: float = 0.0  # share of samples with a message waiting
    at_restarts: list[tuple[int, float | None]] = field(default_factory=list)  # (open, seconds until all ended)
    open_at_stop: int = 0
    ended_after: float | None = None
    late: list[int] = field(default_factory=list)  # open at the stop, still open after the bound
    dropped_open: list[int] = field(default_factory=list)
    finished: int = 0
    rated: int = 0
    failed: int = 0
    unrated: list[int] = field(default_factory=list)  # finished ranked matches without a change per seat
    rating_differences: int = 0
    rated_elsewhere: int = 0  # changes of matches not finished and ranked
    drained_after: float | None = None
    queued_after_drain: int = 0

    @property
    def kills(self) -> int:
        return self.pool_kills + self.worker_kills

    @property
    def problems(self) -> list[str]:
        plan, found = self.plan, []
        for name, got, wanted in (("kills", self.kills, plan.kills), ("dropped messages", self.drops, plan.drops),
                                  ("Redis restarts", self.redis_restarts, plan.redis_restarts)):
            if got < wanted:
                found.append(f"only {got} of {wanted} {name} in {self.fault_seconds:.0f} s")
        if self.late:
            found.append(f"{len(self.late)} matches open when the faults stopped were still open after "
                         f"{plan.bound:.0f} s: {self.late[:20]}")
        if any(took is None for _, took in self.at_restarts):
            found.append("matches open at a Redis restart were still open at the end")
        if self.dropped_open:
            found.append(f"dropped matches still open: {self.dropped_open}")
        if self.unrated:
            found.append(f"{len(self.unrated)} finished ranked matches lack a rating change: {self.unrated[:20]}")
        if self.rating_differences:
            found.append(f"{self.rating_differences} stored rating numbers do not recompute")
        if self.rated_elsewhere:
            found.append(f"{self.rated_elsewhere} rating changes belong to matches not finished and ranked")
        if plan.drain and self.drained_after is None:
            found.append(f"the drained ladder still had open matches after {plan.bound:.0f} s")
        if self.queued_after_drain:
            found.append(f"{self.queued_after_drain} matches were queued after the drain switch")
        return found

    def summary(self) -> list[str]:
        def spread(values: list[float]) -> str:
            return f"median {statistics.median(values):.1f} s, max {max(values):.1f} s" if values else "none"

        lines = [
            f"faults in {self.fault_seconds:.0f} s: {self.kills} kills ({self.pool_kills} pool processes, "
            f"{self.worker_kills} whole workers), {self.drops} messages dropped (broker busy in "
            f"{self.broker_busy:.0%} of samples), {self.redis_restarts} Redis restarts",
            f"workers replaced: {self.worker_restarts}, from go to ready {spread(self.ready_seconds)} (warm spares); "
            f"a cold start took {spread(self.cold_seconds)}",
            "open at each Redis restart, seconds until all ended: "
            + (", ".join(f"{n} in {'-' if s is None else f'{s:.1f}'}" for n, s in self.at_restarts) or "none"),
            f"open when the faults stopped: {self.open_at_stop}, all ended after "
            + (f"{self.ended_after:.1f} s" if self.ended_after is not None else f"more than {self.plan.bound:.0f} s")
            + f" (bound: stale {self.plan.stale} + re-send {self.plan.resend} + slack {self.plan.slack:.0f} s)",
            f"matches: {self.finished} finished, {self.rated} rated, {self.failed} failed; "
            f"{len(self.unrated)} finished ranked matches lack a rating change, "
            f"{self.rating_differences} ratings differ on recompute",
        ]
        if self.plan.drain:
            lines.append("drained: " + (f"0 open after {self.drained_after:.1f} s" if self.drained_after is not None
                                        else "matches still open") + f", {self.queued_after_drain} queued after")
        return lines


class Database:
    """The scratch database's questions, each in a short session of its own."""

    def __init__(self, url: str):
        from ladder.db import make_engine, session_factory

        self.engine = make_engine(url)
        self.sessions = session_factory(self.engine)

    def statuses(self, ids=None) -> dict[int, str]:
        from sqlmodel import select

        from ladder.models import Match

        with self.sessions() as session:
            query = select(Match.id, Match.status)
            if ids is not None:
                query = query.where(Match.id.in_(list(ids)))
            return dict(session.exec(query).all())

    def open_ids(self, ids=None) -> set[int]:
        return {i for i, s in self.statuses(ids).items() if s in OPEN}

    def count(self, status: str) -> int:
        return sum(s == status for s in self.statuses().values())

    def created_after(self, moment) -> int:
        from sqlalchemy import func
        from sqlmodel import select

        from ladder.models import Match

        with self.sessions() as session:
            return session.exec(select(func.count()).select_from(Match).where(Match.created_at > moment)).one()

    def check_ratings(self, result: ChaosResult) -> None:
        from sqlalchemy import func
        from sqlmodel import select

        from ladder.models import Match, RatingChange
        from ladder.services.ratings import missing_rating_changes, recompute_ratings

        with self.sessions() as session:
            result.unrated = [m.match_id for m in missing_rating_changes(session=session)]
            result.rating_differences = len(recompute_ratings(session=session))
            result.rated = session.exec(select(func.count(func.distinct(RatingChange.match_id)))).one()
            result.rated_elsewhere = session.exec(
                select(func.count()).select_from(RatingChange).join(Match)
                .where((Match.status != "finished") | (Match.ranked == False))).one()  # noqa: E712
        result.finished, result.failed = self.count("finished"), self.count("failed")

    def set_draining(self, on: bool) -> None:
        from ladder.services.queue_control import set_draining

        with self.sessions() as session:
            set_draining(session=session, on=on)


def ladder_env(plan: ChaosPlan, *, database_url: str, redis_url: str, instance: Path, chaos_file: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LADDER_") and k not in ("DATABASE_URL",)}
    env.update(
        LADDER_ENV="development", LADDER_INSTANCE_DIR=str(instance), LADDER_SANDBOX_MODE=plan.sandbox,
        PYTHONUNBUFFERED="1", DATABASE_URL=database_url, REDIS_URL=redis_url,
        LADDER_MATCH_STALE_AFTER=str(plan.stale), LADDER_MATCH_RESEND_AFTER=str(plan.resend),
        LADDER_SCHEDULER_INTERVAL="1", LADDER_QUEUE_TARGET="6", LADDER_TABLES_PER_TICK="4", LADDER_EVENT_SLOTS="0",
        LADDER_CHAOS_FILE=str(chaos_file), LADDER_CHAOS_CLAIM=str(plan.p_claim),
        LADDER_CHAOS_RATINGS=str(plan.p_ratings), LADDER_CHAOS_GROUP=str(plan.p_group),
    )
    return env


def wait(predicate: Callable[[], object], timeout: float, tick: Callable[[], None]) -> float | None:
    """Seconds until `predicate` held (calling `tick` meanwhile), None after `timeout`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            return None
        tick()
        time.sleep(0.25)
    return time.monotonic() - start


def run_chaos(plan: ChaosPlan, *, admin_url: str, echo: Callable[[str], None] = print, keep: bool = False,
              every: float = 10.0) -> ChaosResult:
    """Run the plan on a scratch database of the server of `admin_url`; the facts (see `problems`)."""
    from ladder.cli.bench.chaos_procs import Ladder, PrivateRedis
    from ladder.cli.bench.service import _prepare_worker_db, scratch_database

    result = ChaosResult(plan)
    workdir = Path(tempfile.mkdtemp(prefix="ladder-chaos-"))
    redis = PrivateRedis(workdir)
    try:
        with scratch_database(admin_url, "chaos", keep) as url:
            _prepare_worker_db(url, plan.users, games=plan.games)
            db = Database(url)
            chaos_file = workdir / "chaos-on"
            chaos_file.touch()
            env = ladder_env(plan, database_url=url, redis_url=redis.url, instance=workdir, chaos_file=chaos_file)
            ladder = Ladder(workdir, env, workers=plan.workers, concurrency=plan.concurrency)
            echo(f"chaos: {plan.workers} workers x {plan.concurrency} processes, sandbox {plan.sandbox}, games "
                 f"{','.join(plan.games)}, stale {plan.stale} s, re-send {plan.resend} s; database "
                 f"{url.rsplit('/', 1)[1]}, redis {redis.url}, logs {workdir}")
            try:
                if wait(lambda: db.count("finished") >= 3, 120 + plan.bound, ladder.tick) is None:
                    raise RuntimeError(f"the ladder played no match\n{ladder.tails()}")
                echo(f"playing: {db.count('finished')} matches finished; faults start")
                dropped, restarts = _faults(plan, result, ladder, redis, db, chaos_file, echo, every)
                _settle(plan, result, ladder, db, dropped, restarts, echo)
                if plan.drain:
                    _drain(plan, result, ladder, db)
                db.check_ratings(result)
            finally:
                ladder.close()
                db.engine.dispose()
            if result.problems:
                echo(ladder.tails(1500))
    finally:
        redis.close()
    if result.problems or keep:
        echo(f"the processes' logs are kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def _faults(plan: ChaosPlan, result: ChaosResult, ladder, redis, db: Database, chaos_file: Path,
            echo: Callable[[str], None], every: float) -> tuple[dict[int, float], list[Restart]]:
    """Inject faults until every count is reached (or max_fault_seconds); the dropped match ids
    and the Redis restarts."""
    dropped: dict[int, float] = {}
    samples: list[int] = []
    restarts: list[Restart] = []
    start = last_echo = time.monotonic()
    while True:
        now = time.monotonic()
        ladder.tick()
        result.pool_kills, result.worker_kills = ladder.kills()
        if result.kills >= plan.kills:
            chaos_file.unlink(missing_ok=True)  # no more kills: the workers check it at each point
        try:
            client = redis.client()
            messages = client.lrange("ladder.matches", 0, -1)
            samples.append(len(messages))
            if len(dropped) < plan.drops and len(messages) >= 2 and random.random() < 0.5:
                body = random.choice(messages)  # only ever from a busy broker: others wait behind it
                if client.lrem("ladder.matches", 1, body):
                    match_id = int(json.loads(json.loads(body)["headers"]["argsrepr"].strip("(,)")))
                    dropped.setdefault(match_id, now)
        except Exception as exc:
            echo(f"broker unreachable for a moment: {type(exc).__name__}")
        progress = min(result.kills / max(1, plan.kills), len(dropped) / max(1, plan.drops))
        if len(restarts) < plan.redis_restarts and progress >= (len(restarts) + 1) / (plan.redis_restarts + 1):
            at = db.open_ids()
            redis.restart()
            restarts.append(Restart(at, time.monotonic()))
            echo(f"Redis restarted with {len(at)} matches open")
        _note_ended(restarts, db)
        result.drops, result.redis_restarts = len(dropped), len(restarts)
        result.fault_seconds = now - start
        if now - last_echo >= every:
            last_echo = now
            echo(f"{result.fault_seconds:4.0f} s: kills {result.kills}/{plan.kills} ({result.pool_kills} pool, "
                 f"{result.worker_kills} worker), drops {result.drops}/{plan.drops}, Redis restarts "
                 f"{result.redis_restarts}/{plan.redis_restarts}, worker restarts {ladder.restarts}; "
                 f"{db.count('finished')} finished, {len(db.open_ids())} open")
        done = all(got >= wanted for got, wanted in ((result.kills, plan.kills), (result.drops, plan.drops),
                                                     (result.redis_restarts, plan.redis_restarts)))
        if done or result.fault_seconds > plan.max_fault_seconds:
            break
        time.sleep(0.3)
    chaos_file.unlink(missing_ok=True)
    result.broker_busy = sum(n > 0 for n in samples) / max(1, len(samples))
    return dropped, restarts


@dataclass
class Restart:
    """A Redis restart: the matches open then, and when they had all ended."""

    open: set[int]
    at: float
    took: float | None = None


def _note_ended(restarts: list[Restart], db: Database) -> None:
    for restart in restarts:
        if restart.took is None and not db.open_ids(restart.open):
            restart.took = time.monotonic() - restart.at


def _settle(plan: ChaosPlan, result: ChaosResult, ladder, db: Database, dropped: dict[int, float],
            restarts: list[Restart], echo: Callable[[str], None]) -> None:
    """The faults have stopped: every match open now must end within the bound."""
    ladder.tick()
    existing = db.open_ids()
    result.open_at_stop = len(existing)
    echo(f"faults stopped with {len(existing)} matches open; waiting up to {plan.bound:.0f} s for them to end")

    def tick() -> None:
        ladder.tick()
        _note_ended(restarts, db)

    result.ended_after = wait(lambda: not db.open_ids(existing), plan.bound, tick)
    _note_ended(restarts, db)
    result.at_restarts = [(len(r.open), r.took) for r in restarts]
    result.late = sorted(db.open_ids(existing)) if result.ended_after is None else []
    result.dropped_open = sorted(db.open_ids(dropped)) if dropped else []
    result.worker_restarts = ladder.restarts
    result.ready_seconds, result.cold_seconds = list(ladder.ready_seconds), list(ladder.cold_seconds)


def _drain(plan: ChaosPlan, result: ChaosResult, ladder, db: Database) -> None:
    """Drain: 0 open matches within the bound, feed on in the workers' settings; nothing new after."""
    from ladder.models import utcnow

    db.set_draining(True)
    drained_at = utcnow()
    result.drained_after = wait(lambda: not db.open_ids(), plan.bound, ladder.tick)
    wait(lambda: False, 3, ladder.tick)  # three more ticks of the feed: still nothing queued
    # a tick already past its check may queue one more round; nothing after that
    result.queued_after_drain = db.created_after(drained_at + timedelta(seconds=3))
    db.set_draining(False)
