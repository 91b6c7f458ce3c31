"""`ladder bench soak`: thousands of strict matches in one long-lived process, optionally beside a CPU
hog on every core, counting what the ladder charged to bots and what it left behind (#23).

A long-lived worker is exactly such a process: a teardown that leaves one frozen bot or one cgroup
in a thousand matches shows here. Counted at the end: processes of the slot uids below this
process (every orphan of its sandboxes comes back to it, a subreaper), bot and table cgroups named
after it, teardowns still unfinished; during the run, seats charged with the ladder's own failure
(any seat of the random house bot not "ok") and matches every attempt of which the ladder
voided. The hog (one spinning process per core) is the one process this module starts besides
the matches' sandboxes.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SLOT_UIDS = range(62000, 63000)  # workers.sandbox.slots: UID_BASE, MAX_SLOTS


@dataclass
class SoakResult:
    matches: int = 0
    seconds: float = 0.0
    voided: int = 0  # attempts the ladder's own failures voided (played again)
    failed: int = 0  # matches the ladder failed every time
    charged: int = 0  # seats a ladder failure was charged to (any seat not ok): must be 0
    leftover_processes: list[int] = field(default_factory=list)
    leftover_cgroups: list[str] = field(default_factory=list)
    unfinished: int = 0

    @property
    def clean(self) -> bool:
        return not (self.charged or self.leftover_processes or self.leftover_cgroups or self.unfinished)


def _spin(until: float) -> None:
    while time.time() < until:
        pass


def start_hog(seconds: float, cores: int | None = None) -> list[multiprocessing.Process]:
    """One process spinning on each core for `seconds` (a loaded machine)."""
    ctx = multiprocessing.get_context("spawn")
    until = time.time() + seconds
    hogs = [ctx.Process(target=_spin, args=(until,), daemon=True) for _ in range(cores or os.cpu_count() or 1)]
    for hog in hogs:
        hog.start()
    return hogs


def _uid(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def leftovers() -> tuple[list[int], list[str]]:
    """Slot-uid processes below this process, and bot/table cgroups named after it."""
    from workers.sandbox import cgroup as sandbox_cgroup

    pids = sorted(p for p in _descendants(os.getpid()) if _uid(p) in SLOT_UIDS)
    groups = sandbox_cgroup.owned_groups(os.getpid())
    return pids, groups


def run_soak(*, matches: int, hog: bool, game: str | None = None, players: int = 4,
             echo: Callable[[str], None] = print, every: int = 100, minutes: float | None = None) -> SoakResult:
    """`matches` strict matches one after another, or as many as start within `minutes` (a loaded
    machine may not get through them all in the time there is: the leftovers are counted all the
    same, at the end, as after a full run)."""
    from ladder.games import FLAGSHIP
    from ladder.match import local_plan
    from workers.match import blame
    from workers.match.runner import Env, run
    from workers.sandbox import process as sandbox

    game = game or FLAGSHIP
    result = SoakResult()
    hogs = start_hog(seconds=24 * 3600) if hog else []
    started = time.monotonic()
    budget_end = started + minutes * 60 if minutes is not None else None
    try:
        for i in range(matches):
            if budget_end is not None and time.monotonic() >= budget_end:
                echo(f"time budget of {minutes:g} min used up after {i} matches")
                break
            def attempt(final: bool, seed: int = i):
                return run(local_plan(game, ["builtin:random"] * players, seed=seed, sandbox="strict"),
                           Env(final_attempt=final))

            def voided(_n: int, _fault: blame.LadderFault) -> None:
                result.voided += 1

            try:
                played = blame.retrying(attempt, on_void=voided)
            except blame.LadderFault:
                result.failed += 1
            else:
                # builtin:random never faults on its own: any seat not ok is the ladder's failure charged
                # to it, "error" or a forfeit such as #23's "killed by SIGKILL during start-up" (a crash)
                result.charged += sum(1 for r in played.results if r["status"] != "ok")
            result.matches += 1
            if (i + 1) % every == 0 or i + 1 == matches:
                pids, groups = leftovers()
                echo(f"{i + 1}/{matches} matches, {time.monotonic() - started:.0f} s: {result.voided} voided, "
                     f"{result.failed} failed, {result.charged} seats charged, {len(pids)} processes and "
                     f"{len(groups)} cgroups left now")
    finally:
        for process in hogs:
            process.kill()
            process.join()
    result.seconds = time.monotonic() - started
    result.unfinished = sandbox.finish_teardowns()
    result.leftover_processes, result.leftover_cgroups = leftovers()
    return result
