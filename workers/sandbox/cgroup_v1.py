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
import re
import secrets
import signal
import time
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu", "cpuacct", "freezer")
PARENT_NAME = "ladder-sandbox"
CFS_PERIOD_US = 100_000
_NAME_RE = re.compile(r"^bot-(\d+)-(\d+)-s(\d+)-[0-9a-f]+$")
_TABLE_RE = re.compile(r"^table-(\d+)-(\d+)-[0-9a-f]+$")
_HOLD_RE = re.compile(r"^hold-(\d+)-(\d+)-[0-9a-f]+$")


class CgroupError(RuntimeError):
    pass


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


def _start_time(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])  # field 22: start time in clock ticks


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _owner_gone(pid: str, start: str) -> bool:
    return _start_time(int(pid)) != int(start)


def _owned_name(prefix: str, *parts: object) -> str:
    pid = os.getpid()
    return "-".join(map(str, (prefix, pid, _start_time(pid), *parts, secrets.token_hex(4))))


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


class TableCpuGroup:
    """A CPU quota shared by every bot of one match: their own cpu groups are created inside it.

    Each bot is frozen while another decides, but start-up and the end overlap: without this, one
    table of hostile bots spinning through their start-up window could take a core per bot from
    every other match on the machine. With it a match's bots never take more than `cpus` between
    them, so N pool processes fit N cores.
    """

    def __init__(self, path: Path, cpus: float = 0.0):
        self.path, self.cpus = path, cpus

    @classmethod
    def create(cls, cpus: float) -> TableCpuGroup:
        group = cls(parent_dirs()["cpu"] / _owned_name("table"), cpus)
        try:
            group.path.parent.mkdir(exist_ok=True)
            group.path.mkdir()
            _set_cpu_quota(group.path, cpus)
        except OSError as exc:
            group.remove(timeout=0)
            raise CgroupError(f"cannot set up cgroup {group.path.name}: {exc}") from exc
        return group

    def remove(self, timeout: float = 2.0) -> bool:
        """After the bots' own groups are gone (a group with children cannot be removed)."""
        return _rmdir_all([self.path], timeout)


def _rmdir_all(paths: list[Path], timeout: float) -> bool:
    """Remove every directory; an rmdir can fail briefly while the last task is reaped."""
    end = time.monotonic() + timeout
    left = [p for p in paths if p.exists()]
    while left:
        for path in list(left):
            try:
                path.rmdir()
                left.remove(path)
            except FileNotFoundError:
                left.remove(path)
            except OSError:
                pass
        if left:
            if time.monotonic() > end:
                return False
            time.sleep(0.005)
    return True


class BotCgroup:
    def __init__(self, paths: dict[str, Path]):
        self.paths = paths
        # freezer.state and cpuacct.usage are touched twice per decision: kept open, an open/close
        # pair each time (with its Path building) was most of the runner's own cost per decision.
        self._fds: dict[str, int] | None = {}  # None once closed: nothing reopens them

    def _fd(self, key: str, name: str, flags: int) -> int:
        if self._fds is None:
            raise OSError(f"cgroup files of {self.paths[key].name} are closed")
        fd = self._fds.get(key)
        if fd is None:
            fd = self._fds[key] = os.open(self.paths[key] / name, flags | os.O_CLOEXEC)
        return fd

    def close_files(self) -> None:
        for fd in (self._fds or {}).values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = None

    @classmethod
    def create(cls, slot: int, memory_bytes: int, pids: int, cpus: float,
               table: TableCpuGroup | None = None) -> BotCgroup:
        name = _owned_name("bot", f"s{slot}")
        group = cls({c: parent / name for c, parent in parent_dirs().items()})
        if table is not None:
            group.paths["cpu"] = table.path / name
            cpus = min(cpus, table.cpus)  # the kernel refuses a child quota above its parent's
        try:
            for path in group.paths.values():
                path.parent.mkdir(exist_ok=True)
                path.mkdir()
            mem = group.paths["memory"]
            _write(mem / "memory.limit_in_bytes", str(memory_bytes))
            if (mem / "memory.memsw.limit_in_bytes").exists():  # no swapping around the limit
                _write(mem / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(group.paths["pids"] / "pids.max", str(pids))
            _set_cpu_quota(group.paths["cpu"], cpus)
        except OSError as exc:
            group.remove()
            raise CgroupError(f"cannot set up cgroup {name}: {exc}") from exc
        return group

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
        state = self.paths["freezer"] / "freezer.state"
        os.pwrite(self._fd("freezer", "freezer.state", os.O_WRONLY), b"FROZEN", 0)
        if not wait:
            return True
        end = time.monotonic() + timeout
        pause = 0.00005
        while state.read_text().strip() != "FROZEN":
            if time.monotonic() > end:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        return True

    def thaw(self) -> None:
        os.pwrite(self._fd("freezer", "freezer.state", os.O_WRONLY), b"THAWED", 0)

    def cpu_seconds(self) -> float:
        return int(os.pread(self._fd("cpuacct", "cpuacct.usage", os.O_RDONLY), 32, 0)) / 1e9

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

    def remove(self, timeout: float = 2.0) -> bool:
        """Remove every directory; an rmdir can fail briefly while the last task is reaped."""
        self.close_files()
        return _rmdir_all(list(self.paths.values()), timeout)


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
            m = _TABLE_RE.match(child.name)
            if m and _owner_gone(*m.groups()):  # a dead owner's bots' cpu groups sit inside
                tables.append(child)
                children += [c for c in child.iterdir() if c.is_dir()]
        for child in children:
            m = _NAME_RE.match(child.name)
            if m and _owner_gone(m.group(1), m.group(2)):
                stale.setdefault(child.name, {})[controller] = child
            m = _HOLD_RE.match(child.name)
            if m and _owner_gone(*m.groups()):
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
