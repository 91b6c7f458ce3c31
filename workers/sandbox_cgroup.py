"""Per-bot cgroups for the strict sandbox: picks this host's backend once and speaks for it.

Two backends with one interface (`BotCgroup`, `TableCpuGroup`, `sweep_stale`, `hold_freezer_on`,
`unavailable_reason`): sandbox_cgroup_v1.py, a group per controller on the v1 hierarchies, and
sandbox_cgroup_v2.py, one group per bot on the unified hierarchy. A host with the v1 controllers
mounted uses v1 (a hybrid host's cgroup2 holds no controllers then); otherwise cgroup2 with the
memory, pids and cpu controllers delegated to the worker's own group. Files and directories only;
the process that joins a group is started by workers/sandbox.py.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from workers import sandbox_cgroup_v1, sandbox_cgroup_v2
from workers.sandbox_cgroup_base import CgroupError

__all__ = ["CgroupError", "backend", "backend_module", "owned_groups", "unavailable_reason"]


@functools.cache
def backend() -> str | None:
    """"v1" or "v2": the hierarchy this host's strict sandbox uses (None: neither is usable)."""
    if sandbox_cgroup_v1.mounted() is None:
        return "v1"
    if sandbox_cgroup_v2.mounted() is None:
        return "v2"
    return None


def backend_module() -> ModuleType:
    return sandbox_cgroup_v2 if backend() == "v2" else sandbox_cgroup_v1


def unavailable_reason() -> str | None:
    """None when per-bot cgroups work here (and this worker's groups are set up), else why not."""
    if backend() is None:
        return (f"no usable cgroups: {sandbox_cgroup_v1.mounted()}, and {sandbox_cgroup_v2.mounted()}")
    return backend_module().unavailable_reason()


def owned_groups(pid: int) -> list[str]:
    """The bot and table groups process `pid` made that still exist, on either backend (what a
    teardown must leave none of; the freezer's hold group is not one)."""
    parents = (list(sandbox_cgroup_v1.parent_dirs().values()) if backend() == "v1"
               else [sandbox_cgroup_v2.parent_dir()])
    return [str(p) for parent in parents if parent.is_dir()
            for prefix in ("bot", "table") for p in parent.rglob(f"{prefix}-{pid}-*")]


def __getattr__(name: str) -> Any:
    """BotCgroup, TableCpuGroup, sweep_stale, hold_freezer_on, ...: the chosen backend's."""
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(backend_module(), name)
