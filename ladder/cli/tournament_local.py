"""Run a tournament's matches on this machine: `ladder tournament` (and the tournament bench).

Each match is one `workers.match.runner.run` call, the code `ladder match` and the site's workers
use, in a pool of processes (one per core by default; in the strict sandbox a match's bots share
one core, `runner.TABLE_CPUS`). A pool process runs its task in its main thread, as the sandbox
needs. Entrants are frozen first: each bot file or folder is copied once, so editing a bot while
the event runs changes nothing. A match that cannot run is recorded as failed (see
ladder/tournaments/standings.py for how failures and forfeits count) and the event goes on.

This module starts processes (the pool); bot processes themselves start only in workers/sandbox/process.py.
"""

from __future__ import annotations

import multiprocessing
import shutil
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladder.tournaments.model import MatchSpec
from ladder.tournaments.standings import PlayedMatch, SeatResult


@dataclass(frozen=True, slots=True)
class Job:
    """One match to play: plain data, so it crosses to a pool process."""

    match: MatchSpec
    specs: tuple[str, ...]  # bot spec per seat (a frozen path or builtin:NAME)
    names: tuple[str, ...]
    game: str
    options: dict
    sandbox: str
    replay_path: str | None


def replay_name(match: MatchSpec) -> str:
    return f"match-{match.index:05d}-r{match.round}-t{match.table}-d{match.deal}-o{match.order}.json.gz"


def play_job(job: Job) -> PlayedMatch:
    """Play one match in the sandbox (in a pool process); never raises but for a stop signal. A
    match the ladder's own failures void (workers/match/blame.py) is played again, then failed."""
    from ladder.match import local_plan
    from ladder.replay import write_replay
    from workers.match import blame
    from workers.match.runner import Env, run

    try:
        plan = local_plan(job.game, job.specs, names=job.names, seed=job.match.seed, options=job.options,
                          sandbox=job.sandbox)
        result = blame.retrying(lambda final: run(plan, Env(final_attempt=final)))
        if job.replay_path is not None:
            write_replay(result.replay, job.replay_path)
    except blame.LadderFault as fault:  # void every time: failed, counted for nobody, charged to none
        return PlayedMatch(job.match, failed=f"the ladder failed {blame.ATTEMPTS} times: {fault.reason}"[:500])
    except Exception as exc:  # cannot be played (sandbox, packaging): a failed match, counted for nobody
        return PlayedMatch(job.match, failed=f"{type(exc).__name__}: {exc}"[:500])
    by_seat = {r.seat: r for r in result.replay.results}
    seats = tuple(SeatResult(by_seat[s.seat].rank, by_seat[s.seat].score, s.forfeit) for s in result.replay.seats)
    return PlayedMatch(job.match, seats)


def run_pool(jobs: Sequence[Any], fn: Callable[[Any], PlayedMatch], workers: int,
             on_done: Callable[[PlayedMatch], None] | None = None) -> list[PlayedMatch]:
    """fn(job) for every job on `workers` processes (1: in this process); results in job order."""
    done: list[PlayedMatch] = []
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            done.append(fn(job))
            if on_done:
                on_done(done[-1])
        return done
    # spawn: a fresh interpreter per pool process, inheriting no threads, locks or open files
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending: set[Future] = {pool.submit(fn, job) for job in jobs}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done.append(future.result())
                if on_done:
                    on_done(done[-1])
    return sorted(done, key=lambda p: p.spec.index)


def freeze_entrants(specs: Iterable[str], folder: Path) -> list[str]:
    """Copy each bot (file or folder) into `folder`; builtin:NAME stays as it is. Paths returned."""
    out = []
    for i, spec in enumerate(specs):
        if spec.startswith("builtin:"):
            out.append(spec)
            continue
        source = Path(spec)
        if not source.exists():
            raise FileNotFoundError(f"no bot at {spec}")
        target = folder / str(i) / source.name
        target.parent.mkdir(parents=True)
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True)
        else:
            shutil.copy2(source, target)
        out.append(str(target))
    return out
