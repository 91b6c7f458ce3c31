"""A match's bot data folders on the worker: staged before the bots start, read back after.

Each seat gets its own folder on the host, shown writable at /botdata in the sandbox (a bind,
workers/sandbox/bwrap.py) and announced as LADDER_BOT_DATA and LADDER_BOT_DATA_VERSION. Where this
process may mount (root), the folder is a tmpfs sized to the cap, so a bot cannot write past it
at all (ENOSPC); elsewhere (user mode without root) it is a plain folder and the cap is checked
when it is read back. Either way, a folder over the cap keeps nothing (ladder/bot/data.py's rules).

Reading back is done once every process of the seat's bot is gone, and only for a bot that exited
on its own after `end` (one the ladder had to stop may be halfway through a write); it trusts
nothing in the folder: links, devices and sockets refuse the whole folder,
nothing is followed, and no more than the cap is ever read.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import logging
import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ladder.bot.data import MAX_DEPTH, BotDataError, Cap, Collected, Snapshot, check_path, diff

if TYPE_CHECKING:
    from workers.sandbox.record import RunRecord

MOUNT = "/botdata"  # where a bot sees its folder (docs/bots.md, "Bot data")
ENV_PATH = "LADDER_BOT_DATA"
ENV_VERSION = "LADDER_BOT_DATA_VERSION"
STILL_RUNNING = ("the bot was still running when its match ended (it was stopped after `end` and its grace, "
                 "maybe halfway through a write): write the folder before then")
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 2, 4, 8
_MNT_DETACH = 2
log = logging.getLogger(__name__)


@functools.cache  # find_library runs `ldconfig -p` in a subprocess: a fork of the worker at every (un)mount
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def entry_limit(cap: Cap) -> int:
    """Files and folders together, as the tmpfs counts inodes."""
    return 2 * cap.max_files + 16


def mount_tmpfs(path: Path, cap: Cap) -> bool:
    """A tmpfs on `path` sized to the cap; False where this process may not mount. Its size has
    room for the page each small file takes beyond its bytes, and its inodes for folders: the
    exact cap is checked when it is read back."""
    if os.geteuid() != 0:
        return False
    size = cap.max_bytes + cap.max_files * 4096
    options = f"size={size},nr_inodes={entry_limit(cap)},mode=0777".encode()
    flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    if _libc().mount(b"tmpfs", os.fsencode(path), b"tmpfs", flags, options) != 0:
        code = ctypes.get_errno()
        log.warning("bot data: no tmpfs at %s (%s); the cap is checked after the match", path, os.strerror(code))
        return False
    return True


def unmount(path: Path) -> None:
    if _libc().umount2(os.fsencode(path), _MNT_DETACH) != 0 and ctypes.get_errno() not in (errno.EINVAL, errno.ENOENT):
        log.warning("bot data: could not unmount %s: %s", path, os.strerror(ctypes.get_errno()))


def write_folder(folder: Path, files: dict[str, bytes]) -> None:
    """The files, writable by whichever uid the sandbox runs the bot as (the folder is reachable
    from its sandbox only)."""
    for name, data in sorted(files.items()):
        path = folder / name
        for parent in reversed(path.relative_to(folder).parents):
            sub = folder / parent
            if not sub.exists():
                sub.mkdir()
                sub.chmod(0o777)
        path.write_bytes(data)
        path.chmod(0o666)


def read_folder(folder: Path, cap: Cap) -> dict[str, bytes]:
    """The files under `folder`, never following a link, never reading past the cap; BotDataError
    (in the owner's terms) for anything that is not a file or a folder, or a folder over the cap."""
    files: dict[str, bytes] = {}
    budget = [cap.max_bytes]
    entries_left = [entry_limit(cap)]  # folders too: a plain folder has no inode limit of its own

    def walk(path: Path, prefix: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise BotDataError(f"{prefix.rstrip('/')!r} is more than {MAX_DEPTH} folders deep")
        with os.scandir(path) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                entries_left[0] -= 1
                if entries_left[0] < 0:
                    raise BotDataError(f"more than {entry_limit(cap):,} files and folders, over the cap")
                name = prefix + entry.name
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    walk(Path(entry.path), name + "/", depth + 1)
                    continue
                if not stat.S_ISREG(mode):
                    raise BotDataError(f"{name[:60]!r} is not a regular file (links, pipes and sockets are refused)")
                check_path(name)
                if len(files) >= cap.max_files:
                    raise BotDataError(f"more than {cap.max_files:,} files, over the cap")
                files[name] = _read(entry.path, name, budget, cap)

    walk(folder, "", 0)
    return files


def _read(path: str, name: str, budget: list[int], cap: Cap) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the scan
            raise BotDataError(f"{name[:60]!r} is not a regular file")
        chunks, left = [], budget[0] + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    budget[0] -= len(data)
    if budget[0] < 0:
        raise BotDataError(f"the files are over the cap of {cap.describe()}")
    return data


class SeatFolders:
    """The data folders of one match, one per seat (None: that seat has no data staged)."""

    def __init__(self, root: Path, snapshots: Sequence[Snapshot | None], cap: Cap, mode: str):
        self.cap, self.snapshots = cap, list(snapshots)
        self.folders: list[Path | None] = []
        self.mounted: list[Path] = []
        try:
            for i, snap in enumerate(self.snapshots):
                if snap is None:
                    self.folders.append(None)
                    continue
                folder = root / f"data-{i}"
                folder.mkdir()
                folder.chmod(0o777)
                self.folders.append(folder)
                if mode != "none" and mount_tmpfs(folder, cap):
                    self.mounted.append(folder)
                write_folder(folder, snap.files)
        except BaseException:  # no tmpfs left mounted behind a match that never started
            self.remove()
            raise

    def binds(self, seat: int) -> dict[str, Path]:
        """The writable mounts of a seat's sandbox."""
        folder = self.folders[seat] if seat < len(self.folders) else None
        return {MOUNT: folder} if folder is not None else {}

    def env(self, seat: int) -> dict[str, str]:
        if seat >= len(self.folders) or self.folders[seat] is None:
            return {}
        return {ENV_PATH: MOUNT, ENV_VERSION: str(self.snapshots[seat].version)}

    def collect(self, runs: Sequence[RunRecord | None]) -> list[Collected | None]:
        """Each seat's changes (None: nothing staged, or pinned), read by its bot's run record
        (workers/sandbox/record.py): a bot that did not end cleanly (the ladder stopped it, maybe
        halfway through a write, or it left something running), or had no process, keeps nothing."""
        out: list[Collected | None] = []
        for i, (snap, folder) in enumerate(zip(self.snapshots, self.folders, strict=True)):
            if snap is None or folder is None or not snap.keep:
                out.append(None)
            elif i < len(runs) and (runs[i] is None or not runs[i].ended_cleanly):
                out.append(Collected(refused=STILL_RUNNING))
            else:
                try:
                    out.append(Collected(changes=diff(snap.files, read_folder(folder, self.cap))))
                except BotDataError as exc:
                    out.append(Collected(refused=str(exc)))
                except OSError as exc:  # something in the folder the ladder cannot read: nothing kept
                    out.append(Collected(refused=f"the folder could not be read back ({exc.strerror})"))
                except Exception as exc:  # never out of the runner's teardown: this seat keeps nothing
                    log.warning("bot data: seat %d not read back: %r", i, exc)
                    out.append(Collected(refused="the folder could not be read back"))
        return out

    def remove(self) -> None:
        for folder in self.mounted:
            unmount(folder)
        self.mounted = []
        for folder in self.folders:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
