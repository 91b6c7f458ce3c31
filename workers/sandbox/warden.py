"""A process's sandbox warden: when the process that started strict bots dies, even by SIGKILL, its
bots' cgroups are thawed, killed and removed.

Why a process of its own: a bot is frozen whenever another seat decides (and its hold group is
frozen for good: sandbox_cgroup_v1.hold_freezer_on). bwrap's --die-with-parent sends the monitor a
SIGKILL when its worker dies, and the init one when the monitor dies, but on cgroup v1 a frozen task
does not act on SIGKILL until it is thawed (seen: a killed `ladder worker` left three frozen bots,
their bwrap monitors and inits, and seven frozen groups until some later worker's start-up sweep,
which a test run or a machine that starts no other worker never has). Nothing of the dead worker
can thaw them, and nothing inside a frozen group can either. So the first strict start of each
process starts this small process: its own session (a SIGKILL to the worker's process group does
not reach it) and no pipe of the worker's (a caller reading the worker's output to its end is not
held up). It waits for its owner's exit through a pidfd and then runs the sweep
(sandbox_cgroup.sweep_stale: every group whose owner is gone is frozen, its tasks SIGKILLed,
thawed, and removed; the hold group too), then removes the match folders of dead owners and their
bot data mounts (sandbox_scratch.sweep_stale), and exits. A process that exits normally (its bots
closed) removes its hold group and ends its warden itself, at exit (`_at_exit`).

Its parent is the worker; once the worker is gone it is reparented to the nearest subreaper (the
Celery main process, `ladder up`), whose reaping waits for it and reaps it (reap.reap_orphans
knows it by its name, WARDEN_COMM), else to PID 1.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import select
import subprocess
import sys
import time

from workers.sandbox import reap as sandbox_reap
from workers.sandbox import scratch as sandbox_scratch
from workers.sandbox.reap import WARDEN_COMM, start_time

_PR_SET_NAME = 15
_started_for: int | None = None  # the pid whose warden runs (a forked child needs one of its own)
_proc: subprocess.Popen | None = None


def ensure() -> None:
    """Start this process's warden unless it has one. Once per process, from the thread that starts
    bots (the main thread); cheap after the first call."""
    global _started_for, _proc
    pid = os.getpid()
    if _started_for == pid:
        return
    with sandbox_reap.spawning() as held:  # our own warden is never reaped nor waited for as an orphan
        _proc = subprocess.Popen(
            [sys.executable, "-m", "workers.sandbox.warden", str(pid), str(start_time(pid))],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=True, start_new_session=True,
        )
        held.add(_proc.pid)
    if _started_for is None:
        atexit.register(_at_exit)
    _started_for = pid


def _at_exit() -> None:
    """A normal exit (every bot closed) leaves nothing for the warden: remove our empty hold group
    ourselves and end the warden, so that neither outlives us (under a PID 1 that never reaps, the
    warden would stay a zombie). Any group of ours still there: the warden sweeps it after us."""
    from workers.sandbox import cgroup as sandbox_cgroup

    pid = os.getpid()
    if _started_for != pid or _proc is None or _proc.poll() is not None:
        return
    with contextlib.suppress(OSError):
        if sandbox_cgroup.owned_groups(pid):
            return
        if sandbox_cgroup.backend() == "v1":
            freezer = sandbox_cgroup.sandbox_cgroup_v1.parent_dirs()["freezer"]
            for entry in os.scandir(freezer):
                if entry.name.startswith(f"hold-{pid}-"):
                    os.rmdir(entry.path)  # empty: a frozen group without tasks goes like any other
    _proc.kill()  # idle on its pidfd: nothing of it is cut short
    with contextlib.suppress(subprocess.TimeoutExpired):
        _proc.wait(timeout=5)
    sandbox_reap.release(_proc.pid)


def _wait_for_exit(owner: int, started: int | None) -> None:
    """Return once process `owner` (started at `started`, clock ticks) has exited."""
    try:
        fd = os.pidfd_open(owner)
    except (OSError, AttributeError):
        fd = None
    if start_time(owner) != started:  # gone already, or its pid is another process's by now
        return
    if fd is not None:
        select.select([fd], [], [])  # a pidfd is readable once its process has exited
        os.close(fd)
        return
    while start_time(owner) == started:  # no pidfds (kernel < 5.3): look twice a second
        time.sleep(0.5)


def watch(owner: int, started: int | None) -> int:
    """The warden's whole life: wait for `owner`, then sweep; returns the groups removed."""
    from workers.sandbox import cgroup as sandbox_cgroup

    _wait_for_exit(owner, started)
    removed = 0
    for _ in range(5):  # the dead pool processes of one killed worker sweep at the same moment:
        with contextlib.suppress(OSError):  # a group another warden took can cut a sweep short
            removed += sandbox_cgroup.sweep_stale()
        if not sandbox_cgroup.owned_groups(owner):
            break
        time.sleep(0.1)
    # and the match folders it left, with their bot data mounts (sandbox_scratch says why)
    with contextlib.suppress(OSError):
        sandbox_scratch.sweep_stale()
    return removed


def main(argv: list[str]) -> int:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_NAME, WARDEN_COMM.encode(), 0, 0, 0)
    owner, started = int(argv[0]), (int(argv[1]) if argv[1] != "None" else None)
    watch(owner, started)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
