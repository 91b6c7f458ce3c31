"""Per-bot cgroups for the strict sandbox: picks this host's backend once and speaks for it.

Two backends with one interface (`BotCgroup`, `TableCpuGroup`, `sweep_stale`, `hold_freezer_on`,
`unavailable_reason`): sandbox_cgroup_v1.py, a group per controller on the v1 hierarchies, and
sandbox_cgroup_v2.py, one group per bot on the unified hierarchy. A host with the v1 controllers
mounted uses v1 (a hybrid host's cgroup2 holds no controllers then); otherwise cgroup2 with the
memory, pids and cpu controllers delegated to the worker's own group. Files and directories only;
the process that joins a group is started by workers/sandbox/process.py.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from types import ModuleType
from typing import Any

from workers.sandbox import cgroup_v1 as sandbox_cgroup_v1
from workers.sandbox import cgroup_v2 as sandbox_cgroup_v2
from workers.sandbox.cgroup_base import CgroupError

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
    teardown must leave none of; the freezer's hold group is not one). Only the parents and `pid`'s
    own tables are listed: other workers' groups come and go meanwhile (a walk into one of their
    tables could find it gone)."""
    parents = (list(sandbox_cgroup_v1.parent_dirs().values()) if backend() == "v1"
               else [sandbox_cgroup_v2.parent_dir()])
    found: list[str] = []
    for parent in parents:
        tables = _named(parent, f"table-{pid}-")
        found += [*tables, *_named(parent, f"bot-{pid}-")]
        for table in tables:
            found += _named(Path(table), f"bot-{pid}-")
    return found


def _named(folder: Path, prefix: str) -> list[str]:
    try:
        return [entry.path for entry in os.scandir(folder) if entry.name.startswith(prefix) and entry.is_dir()]
    except (FileNotFoundError, NotADirectoryError):
        return []


def __getattr__(name: str) -> Any:
    """BotCgroup, TableCpuGroup, sweep_stale, hold_freezer_on, ...: the chosen backend's."""
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(backend_module(), name)
