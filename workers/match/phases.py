"""Where a match's time goes: wall and CPU seconds per phase, summed over matches.

`ladder bench service` passes a `Phases` to the runner to print a per-phase breakdown, so that the
next regression of a match's cost shows where it is (issue: a match's cost doubled in two turns
and nobody could say where). The runner marks phase ends with `lap`; a lap records the time since
the previous one, so marking costs two clock reads and adds no indentation to the runner. With no
`Phases` given the runner uses `NO_PHASES`, whose laps do nothing.

Three clocks per phase: wall time; the CPU of the thread that plays the match (the worker's own
work: staging, the engine, the protocol, forking the sandboxes, the teardown); and the bots'
CPU, read from their sandboxes (cgroup accounting in strict mode, which includes bwrap), sampled
while they are alive.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

ORDER = ("stage", "start", "play", "end", "teardown", "replay")


@dataclass
class Phase:
    wall: float = 0.0
    cpu: float = 0.0  # the playing thread's CPU seconds
    bots: float = 0.0  # the bots' CPU seconds


@dataclass
class Phases:
    totals: dict[str, Phase] = field(default_factory=dict)
    matches: int = 0
    _wall: float = 0.0
    _cpu: float = 0.0
    _bots: float = 0.0

    def begin(self) -> None:
        """A match starts: the next lap counts from here."""
        self.matches += 1
        self._wall, self._cpu, self._bots = time.perf_counter(), time.thread_time(), 0.0

    def lap(self, name: str, seats: Iterable[Any] = ()) -> None:
        """The phase `name` ends now; `seats` are the match's seats, whose bots' CPU is read when
        they still run (a torn-down bot keeps the figure last read)."""
        wall, cpu = time.perf_counter(), time.thread_time()
        bots = _bots_cpu(seats)
        if bots is None:
            bots = self._bots
        phase = self.totals.setdefault(name, Phase())
        phase.wall += wall - self._wall
        phase.cpu += cpu - self._cpu
        phase.bots += max(0.0, bots - self._bots)
        self._wall, self._cpu, self._bots = wall, cpu, bots

    def add(self, name: str, wall: float, cpu: float, bots: float = 0.0) -> None:
        """A phase measured outside the runner (the job's claim and recording)."""
        phase = self.totals.setdefault(name, Phase())
        phase.wall += wall
        phase.cpu += cpu
        phase.bots += bots

    def per_match(self) -> list[tuple[str, Phase]]:
        """Each phase's mean per match, in the runner's order, then any others."""
        n = max(1, self.matches)
        names = [p for p in ORDER if p in self.totals] + [p for p in self.totals if p not in ORDER]
        return [(name, Phase(self.totals[name].wall / n, self.totals[name].cpu / n, self.totals[name].bots / n))
                for name in names]


class _NoPhases(Phases):
    def begin(self) -> None:
        pass

    def lap(self, name: str, seats: Iterable[Any] = ()) -> None:
        pass


NO_PHASES: Phases = _NoPhases()


def _bots_cpu(seats: Iterable[Any]) -> float | None:
    """The seats' bots' CPU seconds so far (a closed bot's from its run record,
    workers/sandbox/record.py); None when none of them can be read any more."""
    total, read = 0.0, False
    for seat in seats:
        run = getattr(seat, "run", None)
        if run is not None:
            total += run.time_s
            read = True
            continue
        proc = getattr(seat, "proc", None)
        reader: Callable[[], float] | None = getattr(proc, "cpu_seconds", None)
        if reader is None:
            continue
        try:
            total += reader()
            read = True
        except (OSError, ValueError, AttributeError):
            continue
    return total if read else None
