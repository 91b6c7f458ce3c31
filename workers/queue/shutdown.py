"""`ladder worker` stopping: running matches finish within the grace, or are torn down and given
back to the queue, and nothing of a sandbox outlives the worker.

On SIGTERM or SIGINT Celery stops taking tasks and waits for the running ones (a warm shutdown),
for as long as they take. After `grace` seconds this module sends SIGTERM to each pool process:
the runner tears its match down whole (workers/sandbox/interrupts.py) and workers/queue/jobs.py puts the match
back in the queue before the pool process exits. When the worker's main process leaves, it kills
and removes the cgroups of its dead pool processes' bots and reaps what they orphaned to it, so
neither a frozen bot nor its cgroup survives it (`ladder up` does the same for its worker).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time

from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import reap as sandbox_reap

log = logging.getLogger(__name__)


def pool_processes() -> list[int]:
    """This process's children that are not adopted sandbox processes: Celery's pool."""
    return [pid for pid in sandbox_reap.children() if (sandbox_reap.process_state(pid) or ("bwrap",))[0] != "bwrap"]


def install_grace(grace: float) -> None:
    """When Celery starts its shutdown, give running matches `grace` seconds, then stop them."""
    from celery.signals import worker_shutting_down

    started = threading.Event()

    def stop_pool_later() -> None:
        time.sleep(grace)
        pool = pool_processes()
        if pool:
            log.warning("grace of %.0f s over: tearing down the running matches of %d pool processes", grace, len(pool))
        for pid in pool:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def on_shutdown(**_kw) -> None:
        if not started.is_set():
            started.set()
            threading.Thread(target=stop_pool_later, name="shutdown-grace", daemon=True).start()

    worker_shutting_down.connect(on_shutdown, weak=False)


def leave_nothing_behind(timeout: float = 10.0) -> int:
    """Kill and remove the sandbox cgroups of dead owners (this worker's pool processes), and reap
    the sandbox processes they orphaned to us and their wardens (once those have swept); returns
    how many were still alive at the end."""
    if sandbox_cgroup.unavailable_reason() is None:
        with contextlib.suppress(OSError):
            sandbox_cgroup.sweep_stale()
    deadline = time.monotonic() + timeout
    while True:
        left = sandbox_reap.reap_orphans(wait_any=True, wardens=True, deadline=deadline)
        if left == 0 or time.monotonic() >= deadline:
            return left
