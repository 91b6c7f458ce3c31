"""Reaping the sandbox inits bubblewrap orphans, so that none is ever reparented outside this process.

Why there are orphans at all: with --unshare-pid bwrap is two processes on the host, the one we start
(the monitor, our Popen) and its child, pid 1 of the new pid namespace (bwrap's init: it starts the
bot and reaps everything inside). When the bot exits on its own, the init reports the status through
an eventfd and the monitor exits as soon as it reads it, without waiting for the init
(bubblewrap's monitor_child). The parentless init gets its --die-with-parent SIGKILL and is
reparented to the nearest child subreaper, else to the machine's PID 1, and stays a zombie of the
slot uid until that reaps it. Zombies count against the uid's RLIMIT_NPROC: under an init that never
reaps they pile up, four per 4-bot match, and after ~70 matches bots can no longer start.

Why not arrange for nothing to be orphaned: `--as-pid-1` (no bwrap init, the bot is pid 1) removes
the orphan, but then nothing reaps inside the sandbox (a bot's own orphans pile up against its pids
limit) and the bot gets pid-1 signal semantics (default-action signals such as SIGPIPE and SIGXCPU
ignored); a wrapper process that waits for both would cost one more exec per bot, and a dead worker
would still orphan the wrapper. So every process that starts sandboxes makes itself a child
subreaper (PR_SET_CHILD_SUBREAPER): the orphaned inits come to it, and it reaps them here.

Never stealing an exit status: a blanket waitpid(-1) would race subprocess.Popen.wait() on the bwrap
monitors and on any other Popen of the process. We reap only children that run bwrap (per
/proc/<pid>/stat) and are not a monitor a BotProcess still holds (`spawning`/`release`). Only the
sandbox starts bwrap, and a sandbox init becomes our child only once its monitor is gone, so those
are exactly the orphaned inits; anything else reparented to us is left alone. `_lock` keeps a scan
from seeing a monitor between its exec and its `hold`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
WARDEN_COMM = "sandbox-warden"  # a dead worker's warden's name (workers/sandbox/warden.py), adopted like its inits
_libc = ctypes.CDLL(None, use_errno=True)
_lock = threading.Lock()


class _Held(dict):
    """Pids of the bwrap monitors a BotProcess still waits on (their Popen does), each with its start
    time: a pid names a process only until it is reaped, and a monitor can be reaped behind our back
    (a BotProcess dropped without close(): subprocess reaps its Popen's child when it next starts
    one). Its pid, once reused by another child of ours, must not stay exempt from reaping."""

    def add(self, pid: int) -> None:
        self[pid] = start_time(pid)

    def exempts(self, pid: int) -> bool:
        if pid not in self:
            return False
        if self[pid] is not None and start_time(pid) != self[pid]:
            del self[pid]  # another process now: the monitor itself is long gone
            return False
        return True


_held = _Held()
_subreaper = False


def _after_fork_in_child() -> None:
    # A fork while another thread held the lock (e.g. Celery forking a pool process while the main
    # process's reaper thread scans) would leave the child's copy locked forever.
    global _lock, _subreaper
    _lock = threading.Lock()
    _held.clear()  # the parent's monitors are not the child's children
    _subreaper = False  # not inherited over fork


os.register_at_fork(after_in_child=_after_fork_in_child)


def become_subreaper() -> bool:
    """Orphaned descendants of this process come to it, not to PID 1. Once per process; idempotent."""
    global _subreaper
    if not _subreaper:
        _subreaper = _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _subreaper


@contextlib.contextmanager
def spawning() -> Iterator[_Held]:
    """Hold the lock while starting a monitor; add its pid to the yielded set before leaving."""
    with _lock:
        yield _held


def release(pid: int) -> None:
    """The monitor `pid` has been waited for by its Popen: its pid means nothing to us any more."""
    with _lock:
        _held.pop(pid, None)


def children() -> list[int]:
    """Pids of this process's children (zombies included), whichever of its threads is the parent."""
    pids: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.scandir("/proc/self/task"):
            with contextlib.suppress(OSError, ValueError):
                pids += [int(p) for p in Path(task.path, "children").read_text().split()]
    return pids


def start_time(pid: int) -> int | None:
    """When `pid` started (clock ticks since boot): with the pid, what names one process."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def process_state(pid: int) -> tuple[str, str, int] | None:
    """(comm, state, real uid) of `pid`, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    comm = stat[stat.index("(") + 1:stat.rindex(")")]
    state = stat[stat.rindex(")") + 2:].split(" ", 1)[0]
    uid = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("Uid:")), -1)
    return comm, state, uid


def _any_zombie() -> bool:
    """Whether any child of this process (of any of its threads) has exited and is unwaited, asked
    without reaping it (WNOWAIT). Each bot's start asks to reap zombies, and Celery's main process
    asks every second; walking /proc for that reads two files per child and one per thread, 0.1 to
    0.2 ms a start, when there is nearly always nothing to reap."""
    try:
        return os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # no children at all
        return False


def reap_orphans(*, wait_uid: int | None = None, wait_any: bool = False, deadline: float = 0.0,
                 wardens: bool = False) -> int:
    """Reap the orphaned sandbox inits among our children; returns how many of those waited for
    were still alive at `deadline` (0: none left).

    Zombies are reaped at once. Live orphaned inits are dying (their monitor is gone, so their
    parent-death SIGKILL is on its way); with `wait_uid` (one bot's slot uid) or `wait_any`, they are
    killed outright and waited for until `deadline` (time.monotonic()), so that a caller about to
    release the uid or to exit leaves nothing behind. A frozen init could not die: wait only for
    inits that cannot be frozen (the caller's own bot, thawed, or user mode without a freezer).

    The wardens of dead children (workers/sandbox/warden.py) are adopted too: reaped once they
    exit, never killed (they are thawing and killing what their owner left); with `wardens`, waited
    for until `deadline` as well (a worker about to exit leaves none of them running).
    """
    if wait_uid is None and not wait_any and not wardens and not _any_zombie():
        return 0  # nothing to reap, and nothing to wait for: no walk of /proc
    while True:
        waiting = []
        with _lock:
            for pid in children():
                if _held.exempts(pid):
                    continue
                info = process_state(pid)
                if info is not None and info[0] == WARDEN_COMM and info[1] != "Z":
                    if wardens:
                        waiting.append(pid)
                    continue
                if info is None or info[0] not in ("bwrap", WARDEN_COMM):
                    continue
                if info[1] != "Z":
                    if wait_any or info[2] == wait_uid:
                        with contextlib.suppress(ProcessLookupError, PermissionError):
                            os.kill(pid, signal.SIGKILL)
                        waiting.append(pid)
                    continue
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
        if not waiting or time.monotonic() >= deadline:
            return len(waiting)
        time.sleep(0.002)


def reap_zombies(*, keep: set[int]) -> int:
    """Reap every zombie child except the pids in `keep`: for a process that knows all its own
    children (`ladder up`'s supervisor: its Popens), any other child is an orphan it adopted."""
    reaped = 0
    for pid in children():
        if pid not in keep and (process_state(pid) or ("", ""))[1] == "Z":
            with contextlib.suppress(ChildProcessError):
                reaped += os.waitpid(pid, os.WNOHANG)[0] == pid
    return reaped


def start_reaper_thread(interval: float = 1.0) -> threading.Thread:
    """For a process that does not start bots itself but whose children do (Celery's main process):
    become a subreaper and reap, every `interval` seconds, the inits a dead pool process orphaned."""
    become_subreaper()

    def loop() -> None:
        while True:
            time.sleep(interval)
            reap_orphans()

    thread = threading.Thread(target=loop, name="sandbox-reaper", daemon=True)
    thread.start()
    return thread
