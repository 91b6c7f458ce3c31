"""Per-bot cgroups on the unified hierarchy (cgroup v2): the other backend of workers/sandbox/cgroup.py.

The same guarantees as v1 (sandbox_cgroup_v1.py), from one group per bot: memory.max with
memory.swap.max 0, pids.max, the table's cpu.max, cgroup.freeze between turns, cgroup.kill at
teardown, and the counters of memory.events, pids.events and cpu.stat.

Everything happens inside the worker's own group (`0::/path` in /proc/self/cgroup), so a worker in a
container with its own cgroup namespace, or under a systemd unit with Delegate=yes, needs nothing
from the host but cgroup2 with the memory, pids and cpu controllers delegated to it:

    <own>/                          controllers enabled for its children
    <own>/ladder-worker/            the worker's own processes (a leaf)
    <own>/ladder-sandbox/           controllers enabled for its children
        bot-<pid>-<start>-s<slot>-<hex>/              a bot outside any table
        table-<pid>-<start>-<hex>/bot-.../            a match's bots under the table's cpu.max

v2 lets a group hand controllers to its children only while it has no processes of its own (except
the real root), so the first set-up moves every process of <own> into <own>/ladder-worker; a
process that starts there later (a forked pool process) sees `.../ladder-worker` as its group and
works under its parent. Names carry the owner's pid and start time, as in v1, for the stale sweep.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from pathlib import Path

from workers.sandbox.cgroup_base import (
    CFS_PERIOD_US,
    PARENT_NAME,
    BotCgroupBase,
    CgroupError,
    TableCpuGroupBase,
    _stale_kind,
    _write,
)

MOUNT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu")
WORKER_LEAF = "ladder-worker"
_ENABLE = " ".join(f"+{c}" for c in CONTROLLERS)


def _mount_point() -> Path | None:
    """Where cgroup2 is mounted (the first cgroup2 mount, /sys/fs/cgroup on a v2-only host)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            if right.split(" ", 1)[0] == "cgroup2":
                return Path(left.split()[4])
    return None


def _own_path() -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return line[3:]
    return "/"


def own_dir() -> Path:
    """The worker's delegated group: its group, or the parent of its `ladder-worker` leaf."""
    return _own_dir(os.getpid())


@functools.cache
def _own_dir(pid: int) -> Path:  # per pid: a forked worker looks again
    mount = _mount_point() or MOUNT
    path = mount / _own_path().lstrip("/")
    return path.parent if path.name == WORKER_LEAF else path


def parent_dir() -> Path:
    return own_dir() / PARENT_NAME


def mounted() -> str | None:
    """None when cgroup2 is mounted with memory, pids and cpu available to this process's group."""
    mount = _mount_point()
    if mount is None:
        return "cgroup2 is not mounted"
    try:
        available = set((own_dir() / "cgroup.controllers").read_text().split())
    except OSError as exc:
        return f"cannot read the worker's cgroup2 group: {exc}"
    missing = [c for c in CONTROLLERS if c not in available]
    if missing:
        return (f"cgroup2 controller(s) {', '.join(missing)} not delegated to {own_dir()} "
                "(in a container: its own cgroup namespace; under systemd: Delegate=yes)")
    return None


def _enable_children(path: Path) -> None:
    present = set((path / "cgroup.subtree_control").read_text().split())
    if not set(CONTROLLERS) <= present:
        _write(path / "cgroup.subtree_control", _ENABLE)


def _is_real_root(path: Path) -> bool:
    return not (path / "cgroup.type").exists()  # the root has none; a namespace's root has one


def _vacate(own: Path, timeout: float = 5.0) -> None:
    """Move every process of `own` into its worker leaf: until then no child may get controllers.

    A process forking while we move may add one behind us, hence the loop. A process of another pid
    namespace reads as pid 0 here (say the `unshare` that started this worker's namespace): it
    cannot be named to move it, and writing "0" would move ourselves, so that is an error at once.
    """
    leaf = own / WORKER_LEAF
    leaf.mkdir(exist_ok=True)
    end = time.monotonic() + timeout
    while pids := (own / "cgroup.procs").read_text().split():
        if "0" in pids:
            raise CgroupError(f"{own} holds processes outside this worker's pid namespace: start the "
                              f"worker in a group of its own, or in {own / WORKER_LEAF}")
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, OSError):
                _write(leaf / "cgroup.procs", pid)
        if time.monotonic() > end:
            raise CgroupError(f"processes keep appearing in {own}")


def prepare() -> None:
    """Set up this worker's subtree (idempotent; every pool process may call it)."""
    own = own_dir()
    for attempt in range(20):
        try:
            if not _is_real_root(own):
                _vacate(own)
            _enable_children(own)
            break
        except OSError as exc:  # EBUSY: a process arrived between the move and the write
            if attempt == 19:
                raise CgroupError(f"cannot enable controllers in {own}: {exc}") from exc
            time.sleep(0.01)
    parent = parent_dir()
    parent.mkdir(exist_ok=True)
    _enable_children(parent)


def unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "not root: per-bot cgroups need root"
    missing = mounted()
    if missing:
        return missing
    try:
        prepare()
    except (OSError, CgroupError) as exc:
        return f"cannot create cgroups: {exc}"
    return None


def _set_cpu_quota(path: Path, cpus: float) -> None:
    _write(path / "cpu.max", f"{max(1000, int(cpus * CFS_PERIOD_US))} {CFS_PERIOD_US}")


def hold_freezer_on() -> None:
    """Nothing to hold: the v2 freezer has no global switch to keep on (v1's static key)."""
    return None


class TableCpuGroup(TableCpuGroupBase):
    """A CPU quota shared by every bot of one match (why: sandbox_cgroup_v1.TableCpuGroup)."""

    @classmethod
    def _parent(cls) -> Path:
        return parent_dir()

    def _limit(self) -> None:
        self.path.mkdir()
        _set_cpu_quota(self.path, self.cpus)
        _enable_children(self.path)


def _read_keyed(path: Path) -> dict[str, int]:
    out = {}
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            key, value = line.split()
            out[key] = int(value)
    return out


class BotCgroup(BotCgroupBase):
    """One group for every controller, inside the match's table group when there is one."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    @property
    def paths(self) -> dict[str, Path]:  # the v1 shape: one group for every controller
        return {"group": self.path}

    def _file(self, name: str) -> Path:
        return self.path / name

    @classmethod
    def _at(cls, name: str, table: TableCpuGroupBase | None) -> BotCgroup:
        return cls((table.path if table is not None else parent_dir()) / name)

    def _limit(self, memory_bytes: int, pids: int, cpus: float) -> None:
        self.path.mkdir()
        _write(self.path / "memory.max", str(memory_bytes))
        if (self.path / "memory.swap.max").exists():  # no swapping around the limit
            _write(self.path / "memory.swap.max", "0")
        _write(self.path / "pids.max", str(pids))
        _set_cpu_quota(self.path, cpus)

    def join_files(self) -> list[str]:
        """The one file a new process writes "0" (itself) to before running anything else."""
        return [str(self.path / "cgroup.procs")]

    def pids(self) -> list[int]:
        try:
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def frozen(self) -> bool:
        return _read_keyed(self.path / "cgroup.events").get("frozen") == 1

    def freeze(self, timeout: float = 1.0, wait: bool = True) -> bool:
        """Freeze the group; with wait=False only ask (a later thaw cancels a freeze in progress)."""
        os.pwrite(self._fd("cgroup.freeze", os.O_WRONLY), b"1", 0)
        if not wait:
            return True
        end = time.monotonic() + timeout
        pause = 0.00005
        while not self.frozen():
            if time.monotonic() > end:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        return True

    def thaw(self) -> None:
        os.pwrite(self._fd("cgroup.freeze", os.O_WRONLY), b"0", 0)

    def cpu_seconds(self) -> float:
        text = os.pread(self._fd("cpu.stat", os.O_RDONLY), 4096, 0)
        return int(text.split(b"\n", 1)[0].split()[1]) / 1e6  # first line: usage_usec N

    def events(self) -> dict[str, int]:
        """The same keys as v1: OOM kills, memory limit hits, peak, refused forks."""
        memory = _read_keyed(self.path / "memory.events")
        out = {
            "oom_kills": memory.get("oom_kill", 0),
            "memory_failcnt": memory.get("max", 0),
            "pids_refused": _read_keyed(self.path / "pids.events").get("max", 0),
        }
        if memory.get("oom"):
            out["ooms"] = memory["oom"]
        with contextlib.suppress(OSError, ValueError):
            out["memory_peak_bytes"] = int((self.path / "memory.peak").read_text())
        return out

    def kill_all(self, timeout: float = 5.0) -> bool:
        """SIGKILL every member at once (cgroup.kill, frozen ones too), wait until empty."""
        end = time.monotonic() + timeout
        while True:
            if not self.pids():
                return True
            if time.monotonic() > end:
                return False
            try:
                _write(self.path / "cgroup.kill", "1")
            except FileNotFoundError:  # before Linux 5.14: kill what we see, then look again
                for pid in self.pids():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, 9)
            except OSError:
                return not self.path.exists()
            time.sleep(0.002)

def sweep_stale() -> int:
    """Kill and remove groups left by workers that died; returns how many were removed."""
    parent = parent_dir()
    if not parent.is_dir():
        return 0
    removed = 0
    tables, bots = [], []
    for child in parent.iterdir():
        kind = _stale_kind(child.name)
        if kind == "table":  # its bots are the same dead owner's
            tables.append(child)
            with contextlib.suppress(FileNotFoundError):  # another sweep (a warden's) took it
                bots += [c for c in child.iterdir() if c.is_dir() and _stale_kind(c.name) == "bot"]
        elif kind == "bot":
            bots.append(child)
        elif kind == "hold":
            with contextlib.suppress(OSError):
                child.rmdir()
    for path in bots:
        group = BotCgroup(path)
        group.kill_all()
        removed += group.remove()
    for table in tables:
        TableCpuGroup(table).remove()
    return removed
