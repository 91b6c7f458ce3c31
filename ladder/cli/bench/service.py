"""`ladder bench service`: does the ladder stay fast as history grows, and do workers scale?

1. Pages. Two PostgreSQL databases with the same `bots` bots, one with `matches` rated matches
   (default 1,000,000) and one with `small_matches` (default 1,000), bulk-seeded
   (ladder/cli/bench/service_seed.py). For each, the median and 95th percentile latency of the
   leaderboard's first page and of bot pages (a different random bot per request), served by the
   real Flask app in-process (the WSGI test client: no network, no gunicorn), after a warm-up.
   The ratio big/small should stay under 1.5: a page must not slow down as history grows.
   Like for like: in the small history only as many bots play as leave each of them as many
   matches as a bot of the big one has (10 of 10,000 bots at 1,000 against 1,000,000 matches), and
   its bot pages are theirs: the same chart, scorecard and opponents' rows to draw at both sizes,
   so the ratio measures the history's size and not a page with less on it. Every bot keeps its
   rating row in both, so the leaderboard is the same page.
2. Workers. A third database with the starter bots and a dozen users' copies of them, `n`
   queued rated matches among a fixed pool: by default (`--pool light`) only the starters whose
   own thinking costs next to nothing (LIGHT_POOL), so that the figures measure the ladder and a
   stronger, slower starter does not read as a ladder regression; `--pool house` seats all of
   them. A real `ladder worker` process with 1, then 2 pool processes on Redis; matches completed
   per minute from the first dispatch to the last result, after a warm-up batch.
   The ratio should be at least 1.8 on two cores.
3. Where a match's time goes: `breakdown` more matches of the same kind, played one by one by the
   real job (workers/queue/jobs.py, claim to recorded result) in the bench's own process, with
   the runner's phases (workers/match/phases.py): wall, the worker's CPU and the bots' CPU per
   phase, and what the whole machine spent beyond them (the kernel, bwrap, the database server).

Prints numbers, asserts nothing. The databases are created and dropped on the given server.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ladder.cli.bench.service_seed import GAME, SEATS, seed_bots, seed_matches
from ladder.cli.progress import Progress
from ladder.config import Settings

PAGE_TARGET = 1.5
# The starters the throughput and breakdown matches seat unless `--pool house`: the ones whose own
# thinking costs next to nothing (measured 2026-11-28 on the seats' recorded input, per 4-seat
# match: random 0.4 ms, greedy 6.5, modeler 9.8, conceder under 1; against strong's 281, hardhead's
# 93, bargainer's 56 and trader's 45), so the figures measure the ladder, not how strong a bot is.
LIGHT_POOL = ("conceder", "greedy", "modeler", "random")
POOLS = ("light", "house")
SCALE_TARGET = 1.8
WARMUP_REQUESTS = 10


def _sqlalchemy(url: str) -> str:
    return Settings(database_url=url).sqlalchemy_url


@contextmanager
def scratch_database(admin_url: str, label: str, keep: bool, name: str | None = None) -> Iterator[str]:
    """A new, migrated database on the server of `admin_url`; its SQLAlchemy URL. Dropped unless `keep`.
    `name`: this one, made afresh (a kept one of an earlier run is dropped first)."""
    from ladder.db import make_engine, upgrade

    admin = create_engine(_sqlalchemy(admin_url), isolation_level="AUTOCOMMIT")
    fresh = name is None
    name = name or f"ladder_bench_{label}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with admin.connect() as conn:
        if not fresh:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(_sqlalchemy(admin_url)).set(database=name).render_as_string(hide_password=False)
    try:
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
        yield url
    finally:
        if not keep:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _conninfo(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def seed(url: str, bots: int, matches: int, console: Console, players: int | None = None) -> float:
    """Seed one database with rich progress (`players`: see seed_matches); seconds taken."""
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"seeding {bots:,} bots", total=None)
        seed_bots(_conninfo(url), bots)
        progress.update(task, description=f"seeding {matches:,} matches", total=matches, completed=0)
        seed_matches(_conninfo(url), bots, matches, advance=lambda n: progress.advance(task, n), players=players)
        progress.update(task, description="retention's scorecard trim")
        trimmed, _ = trim(url)  # the pages read the scorecard rows a live ladder keeps
    console.print(f"seeded; retention's scorecard trim deleted {trimmed:,} rows past each bot's chart")
    return time.perf_counter() - started


def trim(url: str) -> tuple[int, float]:
    """Retention's trim of the scorecard rows (services/retention.py), as the scheduler's prune
    leaves a live ladder, then the table rewritten: a live ladder's new rows reuse the pages a trim
    frees, so its steady size is that of the rows kept (VACUUM FULL here, once, to read it)."""
    from ladder.db import make_engine, session_factory
    from ladder.services.retention import trim_scorecard_rows

    engine = make_engine(url)
    started = time.perf_counter()
    with session_factory(engine)() as session:
        done = trim_scorecard_rows(session, dry_run=False, batch=5_000)
    took = time.perf_counter() - started
    engine.dispose()
    with psycopg.connect(_conninfo(url), autocommit=True) as conn:
        conn.execute("VACUUM (FULL, ANALYZE) scorecard_tallies")
    return done.count, took


def make_client(url: str):
    """The real app on `url`, in-process (the WSGI test client), and its engine to dispose of."""
    from ladder import create_app

    app = create_app({"settings": Settings(env="development", database_url=url,
                                           instance_dir=Path(tempfile.gettempdir())), "TESTING": True})
    return app.test_client(), app.extensions["ladder"].engine


def timed_get(client, path: str) -> float:
    """Milliseconds for one request; anything but a 200 stops the bench."""
    started = time.perf_counter()
    response = client.get(path)
    took = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"GET {path}: {response.status_code}")
    return took


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def measure_pages(admin_url: str, *, bots: int, matches: int, small_matches: int, requests: int, keep: bool,
                  console: Console) -> list[tuple[str, list[float], list[float]]]:
    """Seed both databases, then time each request on the small and the big one in turn, so that
    whatever else the machine does at that moment weighs on both alike."""
    rng = random.Random(7)
    # the small history's players: as many matches each as a bot of the big one (module doc)
    players = min(bots, max(2 * SEATS, round(bots * small_matches / matches)))
    small_bots = [rng.randint(1, players) for _ in range(requests)]
    big_bots = [rng.randint(1, bots) for _ in range(requests)]
    paths = {"leaderboard": ([f"/leaderboard/{GAME}"] * requests,) * 2,
             "bot page": ([f"/bots/{b}" for b in small_bots], [f"/bots/{b}" for b in big_bots])}
    with scratch_database(admin_url, "small", keep) as small_url, scratch_database(admin_url, "big", keep) as big_url:
        clients = []
        for url, count, seated in ((small_url, small_matches, players), (big_url, matches, bots)):
            took = seed(url, bots, count, console, players=seated)
            console.print(f"seeded {bots:,} bots and {count:,} matches among {seated:,} of them in {took:.0f} s "
                          f"(about {SEATS * count / seated:,.0f} matches a playing bot)"
                          + (f" ({url})" if keep else ""))
            clients.append(make_client(url))
        results = []
        for name, both in paths.items():
            timings: tuple[list[float], list[float]] = ([], [])
            runs = [[*page_paths[:WARMUP_REQUESTS], *page_paths] for page_paths in both]
            warmup = len(runs[0]) - requests
            for index, in_turn in enumerate(zip(*runs, strict=True)):
                for (client, _), path, out in zip(clients, in_turn, timings, strict=True):
                    took = timed_get(client, path)
                    if index >= warmup:
                        out.append(took)
            results.append((name, *timings))
        for _, engine in clients:
            engine.dispose()
    return results


# --- workers ---------------------------------------------------------------------------------


def _prepare_worker_db(url: str, users: int, games: Sequence[str] | None = None,
                       names: Sequence[str] | None = None) -> list[int]:
    """Starter bots (of `games`; default: every game's) plus `users` users' copies of starter bots
    (of `games` in turn; default: the flagship's); the version ids of the first game's pool.
    `names`: only these starters of the flagship are copied and in the pool returned (LIGHT_POOL)."""
    from bots import builtin_names
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.models import BotCreate, User
    from ladder.services.bots import activate_version, active_version, add_version, create_bot, seed_house_bots
    from ladder.services.matches import matchmaking_pool
    from workers.match.runner import builtin_source

    engine = make_engine(url)
    with session_scope(session_factory(engine)) as session:
        house = seed_house_bots(session=session, games=list(games) if games else None)
        starters = [(game, name) for game in (games or [GAME]) for name in builtin_names(game)
                    if names is None or name in names]
        chosen = {active_version(session=session, bot_id=bot.id).id for bot in house
                  if names is None or bot.name in names}
        for u in range(users):
            user = User(username=f"bench{u}", password_hash="!")
            session.add(user)
            session.commit()
            game, name = starters[u % len(starters)]
            bot = create_bot(session=session, owner_id=user.id, data=BotCreate(name=f"{name}{u}", game=game))
            version = add_version(session=session, bot_id=bot.id, code=builtin_source(game, name).read_bytes(),
                                  filename="main.py", placement_games=0)
            activate_version(session=session, version_id=version.id)
            chosen.add(version.id)
        ids = [c.bot for c in matchmaking_pool(session=session, game=(games or [GAME])[0]).candidates
               if names is None or c.bot in chosen]
    engine.dispose()
    return ids


def _queue(url: str, versions: list[int], count: int, seed: int, sandbox: str) -> list[int]:
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.services.matches import queue_match

    rng = random.Random(seed)
    engine = make_engine(url)
    with session_scope(session_factory(engine)) as session:
        ids = [queue_match(session=session, game=GAME, seats=rng.sample(versions, 4), seed=rng.randrange(1 << 31),
                           sandbox=sandbox).id for _ in range(count)]
    engine.dispose()
    return ids


def busy_seconds() -> tuple[float, float]:
    """CPU seconds the whole machine has spent busy since boot, and those stolen by the hypervisor
    (/proc/stat; zeros where unknown). Steal is time our CPUs wanted and the host ran someone else:
    on a shared VM it comes and goes, and a run with much of it measures the neighbours."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    fields += [0] * (8 - len(fields))
    tick = os.sysconf("SC_CLK_TCK")
    return sum(fields[:3] + fields[5:7]) / tick, fields[7] / tick  # user nice system irq softirq; steal


def _wait_done(url: str, ids: list[int], timeout: float) -> None:
    engine = create_engine(url)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                left = conn.execute(text("SELECT count(*) FROM matches WHERE id = ANY(:ids) AND status IN "
                                         "('queued', 'running')"), {"ids": ids}).scalar_one()
            if left == 0:
                return
            time.sleep(0.1)
        raise RuntimeError(f"{left} of {len(ids)} matches unfinished after {timeout:.0f} s")
    finally:
        engine.dispose()


@dataclass(frozen=True)
class Throughput:
    per_minute: float
    cores: float  # busy, the whole machine
    stolen: float  # cores the hypervisor gave to someone else meanwhile

    @property
    def per_core_minute(self) -> float:
        """Matches per minute of CPU actually run: what steal does not move."""
        return self.per_minute / self.cores if self.cores else 0.0


def matches_per_minute(url: str, redis_url: str, versions: list[int], *, processes: int, count: int, sandbox: str,
                       console: Console) -> Throughput:
    import redis

    from workers.queue import celery_app, tasks

    redis.Redis.from_url(redis_url).flushdb()
    instance = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_url, "LADDER_ENV": "development",
           "LADDER_SANDBOX_MODE": sandbox, "LADDER_INSTANCE_DIR": str(instance)}
    celery_app.configure(Settings(env="development", database_url=url, redis_url=redis_url, instance_dir=instance))
    log = open(instance / "worker.log", "wb")  # noqa: SIM115 (closed in finally)
    worker = subprocess.Popen([sys.executable, "-m", "ladder.cli", "worker", "-c", str(processes), "-l", "WARNING",
                               "-n", f"bench{processes}@%h"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not celery_app.app.control.ping(timeout=0.5):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start; see {instance / 'worker.log'}")
        warmup = _queue(url, versions, 2 * processes, seed=processes, sandbox=sandbox)
        tasks.dispatch_matches(warmup, celery_app.MATCH_QUEUE)
        _wait_done(url, warmup, 300)
        batch = _queue(url, versions, count, seed=1000, sandbox=sandbox)
        started, (busy, stolen) = time.perf_counter(), busy_seconds()
        tasks.dispatch_matches(batch, celery_app.MATCH_QUEUE)
        _wait_done(url, batch, 60 + 30 * count)
        elapsed = time.perf_counter() - started
        busy_now, stolen_now = busy_seconds()
        cores, steal = (busy_now - busy) / elapsed, (stolen_now - stolen) / elapsed
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()
    console.print(f"{processes} worker process{'es' if processes > 1 else ''}: {count} matches in {elapsed:.1f} s")
    return Throughput(count / elapsed * 60, cores, steal)


def run_service_bench(*, bots: int, matches: int, small_matches: int, requests: int, celery_matches: int,
                      database_url: str, redis_url: str, sandbox: str | None, keep: bool, pages: bool = True,
                      breakdown: int = 0, pool: str = "light") -> None:
    console = Console()
    if pages:
        report_pages(database_url, bots=bots, matches=matches, small_matches=small_matches, requests=requests,
                     keep=keep, console=console)
    if celery_matches > 0 or breakdown > 0:
        report_workers(database_url, redis_url, celery_matches=celery_matches, sandbox=sandbox, keep=keep,
                       console=console, breakdown=breakdown, pool=pool)


def report_pages(database_url: str, *, bots: int, matches: int, small_matches: int, requests: int, keep: bool,
                 console: Console) -> None:
    pages = measure_pages(database_url, bots=bots, matches=matches, small_matches=small_matches, requests=requests,
                          keep=keep, console=console)
    table = Table(title=f"Page latency: {bots:,} bots, {requests} requests per page and seed", title_justify="left")
    for column in ("page", "matches", "median ms", "p95 ms", "ratio median", "ratio p95"):
        table.add_column(column, justify="left" if column == "page" else "right")
    for name, small, big in pages:
        ratio = statistics.median(big) / statistics.median(small)
        table.add_row(name, f"{small_matches:,}", f"{statistics.median(small):.2f}", f"{p95(small):.2f}", "", "")
        table.add_row("", f"{matches:,}", f"{statistics.median(big):.2f}", f"{p95(big):.2f}",
                      f"[{'green' if ratio < PAGE_TARGET else 'red'}]{ratio:.2f}", f"{p95(big) / p95(small):.2f}",
                      end_section=True)
    console.print(table)
    console.print(f"Target: ratio under {PAGE_TARGET} (pages must not slow down as history grows).")


def report_workers(database_url: str, redis_url: str, *, celery_matches: int, sandbox: str | None, keep: bool,
                   console: Console, breakdown: int = 0, pool: str = "light") -> None:
    if sandbox is None:
        from ladder.cli.serve import strongest_sandbox

        sandbox = strongest_sandbox()[0]
    with scratch_database(database_url, "workers", keep) as url:
        names = LIGHT_POOL if pool == "light" else None
        versions = _prepare_worker_db(url, users=12, names=names)
        console.print(f"Bots seated: {pool_text(pool)}")
        rates = [matches_per_minute(url, redis_url, versions, processes=n, count=celery_matches, sandbox=sandbox,
                                    console=console) for n in (1, 2)] if celery_matches > 0 else []
        from ladder.cli.bench.service_breakdown import measure_breakdown, report_breakdown

        measured = measure_breakdown(url, versions, count=breakdown, sandbox=sandbox, console=console) \
            if breakdown > 0 else None
    if rates:
        report_throughput(rates, sandbox, console)
    if measured is not None:
        report_breakdown(*measured, count=breakdown, sandbox=sandbox, console=console)


def pool_text(pool: str) -> str:
    if pool == "light":
        return (f"pool light: house and users' copies of the starters {', '.join(LIGHT_POOL)}, whose own "
                "thinking is next to nothing (--pool house seats every starter, strong ones included)")
    return "pool house: house and users' copies of every starter of the game, strong ones included"


def report_throughput(rates: list[Throughput], sandbox: str, console: Console) -> None:
    ratio = rates[1].per_minute / rates[0].per_minute
    console.print(f"Matches through Celery: 4 seats of {GAME}, sandbox {sandbox}, {os.cpu_count()} cores")
    table = Table(title_justify="left")
    for column in ("", "1 process", "2 processes", "ratio"):
        table.add_column(column, justify="right")
    table.add_row("matches per minute", f"{rates[0].per_minute:.1f}", f"{rates[1].per_minute:.1f}",
                  f"[{'green' if ratio >= SCALE_TARGET else 'red'}]{ratio:.2f}")
    table.add_row("cores busy (whole machine)", f"{rates[0].cores:.2f}", f"{rates[1].cores:.2f}", "")
    table.add_row("cores stolen by the hypervisor", f"{rates[0].stolen:.2f}", f"{rates[1].stolen:.2f}", "")
    table.add_row("matches per busy core-minute", f"{rates[0].per_core_minute:.1f}", f"{rates[1].per_core_minute:.1f}",
                  f"{rates[1].per_core_minute / rates[0].per_core_minute:.2f}" if rates[0].per_core_minute else "")
    console.print(table)
    console.print(f"Target: ratio at least {SCALE_TARGET} on two cores. With steal, compare per busy core-minute: "
                  "1.0 there means two processes do as much with each core as one.")
