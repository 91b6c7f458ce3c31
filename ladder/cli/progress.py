"""The commands' progress bars, also where nobody is watching a terminal.

rich draws its bar only on a terminal: written to a file or a pipe (a CI log, `ladder gauntlet ... >
run.log`, a bench left running) it shows nothing until the command ends, so an hour-long run
cannot be told from a stalled one. `Progress` is rich's, and there it also prints a plain line per
task every `every` seconds and when the task completes: done of total, the share, the time taken
and rich's estimate of the time left.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from rich import progress as rich_progress

EVERY = 60.0  # seconds between a task's plain lines: a log a few lines an hour long, not a flood


class Progress(rich_progress.Progress):
    def __init__(self, *columns: Any, every: float = EVERY, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self._plain = not self.console.is_terminal and not kwargs.get("disable", False)
        self._every = every
        self._told: dict[rich_progress.TaskID, float] = {}

    def add_task(self, description: str, *args: Any, **kwargs: Any) -> rich_progress.TaskID:
        task_id = super().add_task(description, *args, **kwargs)
        self._told[task_id] = time.monotonic()
        return task_id

    def update(self, task_id: rich_progress.TaskID, **kwargs: Any) -> None:
        super().update(task_id, **kwargs)
        self._tell(task_id)

    def advance(self, task_id: rich_progress.TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._tell(task_id)

    def _tell(self, task_id: rich_progress.TaskID) -> None:
        if not self._plain:
            return
        with self._lock:  # run_pool's callbacks advance from several threads
            task = self._tasks[task_id]
            now = time.monotonic()
            done = task.finished
            if task_id not in self._told or (not done and now - self._told[task_id] < self._every):
                return
            if done:
                del self._told[task_id]  # said once at the end, however often it is updated after
            else:
                self._told[task_id] = now
            line = plain_line(task.description, task.completed, task.total, task.elapsed or 0.0,
                              None if done else task.time_remaining)
        self.console.print(line, highlight=False, markup=False, soft_wrap=True)


def plain_line(description: str, completed: float, total: float | None, elapsed: float,
               remaining: float | None) -> str:
    """"matches: 120/432 (28%), 0:14:02 taken, about 0:36:10 left"."""
    count = f"{completed:g}" if total is None else f"{completed:g}/{total:g} ({completed / total:.0%})" if total else \
        f"{completed:g}/0"
    left = "" if remaining is None else f", about {timedelta(seconds=round(remaining))} left"
    return f"{description or 'progress'}: {count}, {timedelta(seconds=round(elapsed))} taken{left}"
