"""A match's folder on the worker (its staged bots, the SDK, each seat's bot data), named for the
process that made it, and the sweep of the ones whose maker is gone.

Why: a worker killed mid-match (SIGKILL, the OOM killer, a chaos test) removes neither its match's
folder nor, as root, the tmpfs each seat's bot data folder is (workers/build/bot_data.py): they
stayed until the machine restarted (seen: 18 folders and 29 tmpfs mounts under /tmp after two CI
runs). So the folder's name carries its maker's pid, start time and pid namespace, and the sweep
(run by the sandbox's warden once its worker is gone: warden.py) detaches every mount inside a
folder whose maker has exited and removes the folder. A folder of a live process is never touched,
nor anything not named so, nor a folder made in another pid namespace: its pid means another
process here (a worker in a pid namespace of its own, sharing this /tmp, had its live matches'
folders taken so in a test run).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import tempfile
from pathlib import Path

from workers.sandbox.cgroup_base import _owner_gone
from workers.sandbox.reap import start_time

PREFIX = "ladder-match-"
_NAME_RE = re.compile(r"^ladder-match-p(\d+)-(\d+)-n(\d+)-")
_MNT_DETACH = 2
_libc = ctypes.CDLL(None, use_errno=True)


def _pid_namespace() -> int:
    return os.stat("/proc/self/ns/pid").st_ino


def make(label: str = "", where: str | Path | None = None) -> Path:
    """A new match folder (mode 755: the bots' uids read their staged files through it)."""
    pid = os.getpid()
    prefix = f"{PREFIX}p{pid}-{start_time(pid)}-n{_pid_namespace()}-{label}"
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=where))
    folder.chmod(0o755)
    return folder


def _mounts_inside(folder: Path) -> list[str]:
    """Mount points under `folder`, deepest first (mountinfo's fifth field, octal escapes undone)."""
    inside = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            point = line.split()[4].encode().decode("unicode_escape")
            if point.startswith(f"{folder}/"):
                inside.append(point)
    return sorted(inside, key=len, reverse=True)


def sweep_stale(where: str | Path | None = None) -> int:
    """Remove every match folder in `where` (the temporary folder) whose maker has exited, its mounts
    detached first; returns how many were removed."""
    removed = 0
    try:
        entries = list(os.scandir(where or tempfile.gettempdir()))
        here = str(_pid_namespace())
    except OSError:
        return 0
    for entry in entries:
        m = _NAME_RE.match(entry.name)
        if m is None or m.group(3) != here or entry.is_symlink() or not entry.is_dir():
            continue
        if not _owner_gone(m.group(1), m.group(2)):
            continue
        folder = Path(entry.path)
        for point in _mounts_inside(folder):
            _libc.umount2(point.encode(), _MNT_DETACH)  # a mount that will not go keeps its folder
        if not _mounts_inside(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed += not folder.exists()
    return removed
