"""What both cgroup backends share (sandbox_cgroup_v1.py, sandbox_cgroup_v2.py): group names that
carry their owner, directory removal, and the base classes of BotCgroup and TableCpuGroup.

A backend's BotCgroup says where its groups go (`_at`) and what a fresh one is given (`_limit`);
this base names them, keeps their hot files open, and undoes a half-made group.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time
from pathlib import Path
from typing import Self

PARENT_NAME = "ladder-sandbox"
CFS_PERIOD_US = 100_000
_NAME_RE = re.compile(r"^bot-(\d+)-(\d+)-s(\d+)-[0-9a-f]+$")
_TABLE_RE = re.compile(r"^table-(\d+)-(\d+)-[0-9a-f]+$")
_HOLD_RE = re.compile(r"^hold-(\d+)-(\d+)-[0-9a-f]+$")


class CgroupError(RuntimeError):
    pass


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
    """Whether the process that made a group has exited. A zombie has: its pid and start time stay
    until its parent reaps it, which a killed worker's parent may do late or never, while its
    warden sweeps at the exit itself (workers/sandbox/warden.py)."""
    try:
        stat = Path(f"/proc/{int(pid)}/stat").read_text()
    except OSError:
        return True
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0] in ("Z", "X") or int(fields[19]) != int(start)


def _owned_name(prefix: str, *parts: object) -> str:
    pid = os.getpid()
    return "-".join(map(str, (prefix, pid, _start_time(pid), *parts, secrets.token_hex(4))))


def _stale_kind(name: str) -> str | None:
    """"bot", "table" or "hold" for such a group whose owner is gone (the sweep's), else None."""
    for kind, pattern in (("bot", _NAME_RE), ("table", _TABLE_RE), ("hold", _HOLD_RE)):
        m = pattern.match(name)
        if m:
            return kind if _owner_gone(m.group(1), m.group(2)) else None
    return None


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


class TableCpuGroupBase:
    """A CPU quota shared by every bot of one match (why: sandbox_cgroup_v1.TableCpuGroup)."""

    def __init__(self, path: Path, cpus: float = 0.0):
        self.path, self.cpus = path, cpus

    @classmethod
    def _parent(cls) -> Path:
        """The directory table groups go in (the cpu hierarchy's on v1)."""
        raise NotImplementedError

    def _limit(self) -> None:
        """Make the directory and write the quota (an OSError undoes the group)."""
        raise NotImplementedError

    @classmethod
    def create(cls, cpus: float) -> Self:
        group = cls(cls._parent() / _owned_name("table"), cpus)
        try:
            group._limit()
        except OSError as exc:
            group.remove(timeout=0)
            raise CgroupError(f"cannot set up cgroup {group.path.name}: {exc}") from exc
        return group

    def remove(self, timeout: float = 2.0) -> bool:
        """After the bots' own groups are gone (a group with children cannot be removed)."""
        return _rmdir_all([self.path], timeout)


class BotCgroupBase:
    """One bot's group(s): `paths` maps a key (a v1 controller, or v2's one "group") to a directory."""

    paths: dict[str, Path]

    def __init__(self) -> None:
        # The freezer and CPU files are touched twice per decision: kept open, an open/close pair
        # each time (with its Path building) was most of the runner's own cost per decision.
        self._fds: dict[str, int] | None = {}  # None once closed: nothing reopens them

    def _file(self, name: str) -> Path:
        """Where the group's control file `name` is."""
        raise NotImplementedError

    def _fd(self, name: str, flags: int) -> int:
        if self._fds is None:
            raise OSError(f"cgroup files of {self._file(name).parent.name} are closed")
        fd = self._fds.get(name)
        if fd is None:
            fd = self._fds[name] = os.open(self._file(name), flags | os.O_CLOEXEC)
        return fd

    def close_files(self) -> None:
        for fd in (self._fds or {}).values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = None

    @classmethod
    def _at(cls, name: str, table: TableCpuGroupBase | None) -> Self:
        """The (not yet made) group called `name`, under `table` for the CPU quota if given."""
        raise NotImplementedError

    def _limit(self, memory_bytes: int, pids: int, cpus: float) -> None:
        """Make the directories and write the limits (an OSError undoes the group)."""
        raise NotImplementedError

    @classmethod
    def create(cls, slot: int, memory_bytes: int, pids: int, cpus: float,
               table: TableCpuGroupBase | None = None) -> Self:
        name = _owned_name("bot", f"s{slot}")
        group = cls._at(name, table)
        if table is not None:
            cpus = min(cpus, table.cpus)  # the kernel refuses a child quota above its parent's
        try:
            group._limit(memory_bytes, pids, cpus)
        except OSError as exc:
            group.remove(timeout=0)
            raise CgroupError(f"cannot set up cgroup {name}: {exc}") from exc
        return group

    def remove(self, timeout: float = 2.0) -> bool:
        """Remove every directory; an rmdir can fail briefly while the last task is reaped."""
        self.close_files()
        return _rmdir_all(list(self.paths.values()), timeout)
