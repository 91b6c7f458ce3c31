"""`ladder bench service --breakdown`: where a match's time goes (ladder/cli/bench/service.py, part 3).

Plays queued matches one by one through the real job (workers/queue/jobs.py, claim to recorded
result) in the bench's own process, timing the runner's phases (workers/match/phases.py): wall,
the worker's CPU and the bots' CPU per phase, what the whole machine spent beyond them (the kernel,
bwrap, the database server), and the SQL statements per match.
"""

from __future__ import annotations

import gc
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from sqlalchemy import event

from ladder.cli.bench.service import _queue, busy_seconds
from ladder.cli.bench.service_seed import GAME
from ladder.cli.progress import Progress
from ladder.config import Settings


def measure_breakdown(url: str, versions: list[int], *, count: int, sandbox: str,
                      console: Console) -> tuple[Any, float, float]:
    """Play `count` queued matches one by one through the real job in this process, timing the
    runner's phases and the job around them; the phases, the whole machine's busy CPU seconds
    per match meanwhile, and the SQL statements per match (which no load on the machine changes)."""
    from ladder.db import make_engine, session_factory
    from workers.match.phases import Phases
    from workers.match.runner import run
    from workers.queue import heap
    from workers.queue.jobs import play_match

    phases = Phases()

    def runner(plan: Any, env: Any) -> Any:
        return run(plan, replace(env, phases=phases))

    engine = make_engine(url)
    sessions = session_factory(engine)
    settings = Settings(env="development", database_url=url, instance_dir=Path(tempfile.gettempdir()))
    ids = _queue(url, versions, count + 1, seed=3000, sandbox=sandbox)
    play_match(ids[0], sessions=sessions, settings=settings, worker_id="bench-warmup", runner=run)  # warm caches
    heap.freeze_for_matches()  # as each pool process of a worker does at its start
    statements = [0]

    def counted(*_args: Any) -> None:  # an executemany counts once: it is one round trip with psycopg
        statements[0] += 1

    event.listen(engine, "before_cursor_execute", counted)
    busy = wall = cpu = 0.0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("matches timed per phase", total=count)
        for match_id in ids[1:]:
            machine0, wall0, cpu0 = busy_seconds()[0], time.perf_counter(), time.thread_time()
            runner_wall0 = sum(p.wall for p in phases.totals.values())
            runner_cpu0 = sum(p.cpu for p in phases.totals.values())
            result = play_match(match_id, sessions=sessions, settings=settings, worker_id="bench", runner=runner)
            if result.status != "finished":
                raise RuntimeError(f"match {match_id}: {result.status} {result.detail}")
            job_wall, job_cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
            # the job's own part: the claim, loading the bots' code, splitting logs, recording the result
            phases.add("claim and record", job_wall - (sum(p.wall for p in phases.totals.values()) - runner_wall0),
                       job_cpu - (sum(p.cpu for p in phases.totals.values()) - runner_cpu0))
            busy += busy_seconds()[0] - machine0
            wall += job_wall
            cpu += job_cpu
            progress.advance(task)
    event.remove(engine, "before_cursor_execute", counted)
    engine.dispose()
    gc.unfreeze()
    return phases, busy / count, statements[0] / count


def report_breakdown(phases: Any, machine: float, statements: float, *, count: int, sandbox: str,
                     console: Console) -> None:
    rows = phases.per_match()
    table = Table(title=f"Where a match's time goes: {count} matches of 4 {GAME} seats, sandbox {sandbox}, "
                        "one at a time in this process (mean per match, ms)", title_justify="left")
    for column in ("phase", "wall", "worker CPU", "bots' CPU", "share of CPU"):
        table.add_column(column, justify="left" if column == "phase" else "right")
    accounted = sum(p.cpu + p.bots for _, p in rows)
    for name, p in rows:
        table.add_row(name, f"{p.wall * 1000:.1f}", f"{p.cpu * 1000:.1f}", f"{p.bots * 1000:.1f}",
                      f"{(p.cpu + p.bots) / (accounted or 1.0):.0%}", end_section=name == rows[-1][0])
    table.add_row("total", f"{sum(p.wall for _, p in rows) * 1000:.1f}", f"{sum(p.cpu for _, p in rows) * 1000:.1f}",
                  f"{sum(p.bots for _, p in rows) * 1000:.1f}", "")
    console.print(table)
    console.print(f"Core-seconds per match: {accounted:.3f} in the worker and the bots; {machine:.3f} on the whole "
                  f"machine meanwhile ({60 / machine if machine else 0:.0f} matches per busy core-minute), the rest "
                  "being the kernel, bwrap, the database server and anything else running: measure on an idle "
                  "machine.")
    console.print(f"SQL statements per match (claim, staging, recording): {statements:.1f}")
