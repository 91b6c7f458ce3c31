"""Per-bot cgroups on the v1 hierarchies (memory, pids, cpu, cpuacct, freezer): one backend of
workers/sandbox/cgroup.py (the other is sandbox_cgroup_v2.py, the unified hierarchy).

Each bot gets one group per controller, created under the worker's own group in that hierarchy (so a
worker's own limits still cover its bots) inside a `ladder-sandbox` directory. Group names carry
the owner's pid and start time: a worker sweeping at start-up removes only groups whose owner is
gone, never those of another worker running beside it (so workers sharing these directories must
share a pid namespace). Files and directories only; the process that joins a group is started by
workers/sandbox/process.py.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import time
from pathlib import Path

from workers.sandbox.cgroup_base import (
    CFS_PERIOD_US,
    PARENT_NAME,
    BotCgroupBase,
    CgroupError,
    TableCpuGroupBase,
    _owned_name,
    _stale_kind,
    _write,
)

__all__ = ["PARENT_NAME", "CgroupError"]  # re-exported: older imports name them here

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu", "cpuacct", "freezer")


def _own_paths() -> dict[str, str]:
    """This process's group in each v1 hierarchy, from /proc/self/cgroup."""
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        for name in names.split(","):
            paths[name] = path
    return paths


def parent_dirs() -> dict[str, Path]:
    return dict(_parent_dirs(os.getpid()))


@functools.cache
def _parent_dirs(pid: int) -> tuple[tuple[str, Path], ...]:  # per pid: a forked worker looks again
    own = _own_paths()
    return tuple((c, CGROUP_ROOT / c / own.get(c, "/").lstrip("/") / PARENT_NAME) for c in CONTROLLERS)


def mounted() -> str | None:
    """None when every v1 controller is mounted, else the first missing one (as a reason)."""
    for c in CONTROLLERS:
        if not (CGROUP_ROOT / c / "cgroup.procs").exists():
            return f"cgroup v1 controller {c!r} is not mounted under {CGROUP_ROOT}"
    return None


def unavailable_reason() -> str | None:
    """None when every controller is mounted (v1) and writable here, else why not."""
    if os.geteuid() != 0:
        return "not root: per-bot cgroups need root"
    missing = mounted()
    if missing:
        return missing
    try:
        for path in parent_dirs().values():
            path.mkdir(exist_ok=True)
    except OSError as exc:
        return f"cannot create cgroups: {exc}"
    return None


def _set_cpu_quota(path: Path, cpus: float) -> None:
    _write(path / "cpu.cfs_period_us", str(CFS_PERIOD_US))
    _write(path / "cpu.cfs_quota_us", str(max(1000, int(cpus * CFS_PERIOD_US))))


def hold_freezer_on() -> Path:
    """Create a frozen, empty freezer group that lives as long as this process (swept after).

    The kernel switches its freezer code on when the first group freezes and off when the last one
    thaws, by live-patching its text with an interrupt to every CPU: at every match start and end,
    and twice per bot in kill_all. In a VM those interrupts were 8% of a busy worker's samples
    (perf, smp_call_function_many_cond under freezer_write). One group that stays frozen keeps it on.
    """
    path = parent_dirs()["freezer"] / _owned_name("hold")
    path.parent.mkdir(exist_ok=True)
    path.mkdir()
    _write(path / "freezer.state", "FROZEN")
    return path


class TableCpuGroup(TableCpuGroupBase):
    """A CPU quota shared by every bot of one match: their own cpu groups are created inside it.

    Each bot is frozen while another decides, but start-up and the end overlap: without this, one
    table of hostile bots spinning through their start-up window could take a core per bot from
    every other match on the machine. With it a match's bots never take more than `cpus` between
    them, so N pool processes fit N cores.
    """

    @classmethod
    def _parent(cls) -> Path:
        return parent_dirs()["cpu"]

    def _limit(self) -> None:
        self.path.parent.mkdir(exist_ok=True)
        self.path.mkdir()
        _set_cpu_quota(self.path, self.cpus)


class BotCgroup(BotCgroupBase):
    """A group per controller; the cpu one inside the match's table group when there is one."""

    def __init__(self, paths: dict[str, Path]):
        super().__init__()
        self.paths = paths

    def _file(self, name: str) -> Path:  # a v1 file's prefix is its controller: freezer.state
        return self.paths[name.split(".", 1)[0]] / name

    @classmethod
    def _at(cls, name: str, table: TableCpuGroupBase | None) -> BotCgroup:
        group = cls({c: parent / name for c, parent in parent_dirs().items()})
        if table is not None:
            group.paths["cpu"] = table.path / name
        return group

    def _limit(self, memory_bytes: int, pids: int, cpus: float) -> None:
        for path in self.paths.values():
            try:
                path.mkdir()
            except FileNotFoundError:  # the shared parent: made by the first bot, or again after a sweep
                path.parent.mkdir(exist_ok=True)
                path.mkdir()
        mem = self.paths["memory"]
        _write(mem / "memory.limit_in_bytes", str(memory_bytes))
        if (mem / "memory.memsw.limit_in_bytes").exists():  # no swapping around the limit
            _write(mem / "memory.memsw.limit_in_bytes", str(memory_bytes))
        _write(self.paths["pids"] / "pids.max", str(pids))
        _set_cpu_quota(self.paths["cpu"], cpus)

    def join_files(self) -> list[str]:
        """The files a new, still single-threaded process writes "0" to, before running anything else.

        "0" in `tasks` moves the calling thread only, which the kernel does without taking the global
        threadgroup lock; writing a pid to cgroup.procs takes it and waits for an RCU grace period
        (~10 ms here, more than the whole rest of a sandbox start). Right after fork the thread is
        the whole process, and everything it starts later inherits the groups.
        """
        return [str(p / "tasks") for p in self.paths.values()]

    def pids(self) -> list[int]:
        try:
            text = (self.paths["freezer"] / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(x) for x in text.split()]

    def freeze(self, timeout: float = 1.0, wait: bool = True) -> bool:
        """Freeze the group. With wait=False, only ask: the kernel finishes freezing while the
        caller works on (a later THAWED cancels a freeze in progress), which keeps the ~0.3 ms
        wait off every decision of a match; teardown waits."""
        os.pwrite(self._fd("freezer.state", os.O_WRONLY), b"FROZEN", 0)
        if not wait:
            return True
        state = self.paths["freezer"] / "freezer.state"
        end = time.monotonic() + timeout
        pause = 0.00005
        while state.read_text().strip() != "FROZEN":
            if time.monotonic() > end:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        return True

    def thaw(self) -> None:
        os.pwrite(self._fd("freezer.state", os.O_WRONLY), b"THAWED", 0)

    def cpu_seconds(self) -> float:
        return int(os.pread(self._fd("cpuacct.usage", os.O_RDONLY), 32, 0)) / 1e9

    def events(self) -> dict[str, int]:
        """Counters that tell why a bot died: OOM kills, memory limit hits, refused forks."""
        out = {}
        with contextlib.suppress(OSError, ValueError):
            for line in (self.paths["memory"] / "memory.oom_control").read_text().splitlines():
                key, value = line.split()
                if key == "oom_kill":
                    out["oom_kills"] = int(value)
            out["memory_failcnt"] = int((self.paths["memory"] / "memory.failcnt").read_text())
            out["memory_peak_bytes"] = int((self.paths["memory"] / "memory.max_usage_in_bytes").read_text())
            out["pids_refused"] = int((self.paths["pids"] / "pids.events").read_text().split()[1])
        return out

    def kill_all(self, timeout: float = 5.0) -> bool:
        """Freeze, SIGKILL every member, thaw (the kills land on thaw), wait until empty.

        Frozen once per new member, not once per look: a killed task must run to die, and a
        freeze that catches it before it does stops it again (v1 tasks freeze before they act on
        a pending SIGKILL). Freezing on every look, 2 ms apart, could keep killed bots alive on a
        loaded machine, where a thawed task can wait longer than that for a CPU."""
        end = time.monotonic() + timeout
        killed: set[int] = set()
        pause = 0.001
        while True:
            members = self.pids()
            if not members:
                return True
            if time.monotonic() > end:
                return False
            fresh = not set(members) <= killed
            if fresh:
                with contextlib.suppress(OSError):
                    self.freeze(timeout=0.5)  # nothing can fork while we collect the pids
                members = self.pids()
                pause = 0.001
            for pid in members:  # again each look (harmless): a pid is not a process for ever
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            killed.update(members)
            if fresh:
                with contextlib.suppress(OSError):
                    self.thaw()
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def sweep_stale() -> int:
    """Kill and remove groups left by workers that died; returns how many were removed."""
    removed = 0
    stale: dict[str, dict[str, Path]] = {}
    tables: list[Path] = []
    for controller, parent in parent_dirs().items():
        if not parent.is_dir():
            continue
        children = list(parent.iterdir())
        for child in list(children):
            if _stale_kind(child.name) == "table":  # a dead owner's bots' cpu groups sit inside
                tables.append(child)
                with contextlib.suppress(FileNotFoundError):  # another sweep (a warden's) took it
                    children += [c for c in child.iterdir() if c.is_dir()]
        for child in children:
            kind = _stale_kind(child.name)
            if kind == "bot":
                stale.setdefault(child.name, {})[controller] = child
            elif kind == "hold":
                with contextlib.suppress(OSError):
                    child.rmdir()  # empty: a frozen group without tasks goes like any other
    for paths in stale.values():
        group = BotCgroup(paths)
        if "freezer" in paths:
            group.kill_all()
        else:
            for path in paths.values():
                with contextlib.suppress(OSError):
                    for pid in (path / "cgroup.procs").read_text().split():
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(int(pid), signal.SIGKILL)
        removed += group.remove()
    for table in tables:
        TableCpuGroup(table).remove()
    return removed
