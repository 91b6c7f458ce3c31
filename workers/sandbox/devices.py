"""The sandbox's /dev as one read-only folder made once per machine and bound into each strict
bot's sandbox, instead of the /dev bwrap's --dev builds for every bot.

Why: --dev mounts a tmpfs and binds six device nodes one by one (each bind makes bwrap read the
mount table again), then mounts a devpts: about 0.5 ms of every start on the baseline machine
(issue #29). One bind of a folder holding the same nodes costs one mount.

What a bot sees is what --dev gives it: the nodes null, zero, full, random, urandom and tty (the
kernel's own devices, by their numbers, with --dev's modes), the links fd, stdin, stdout, stderr,
core and ptmx, and the folders shm (its own sized tmpfs, mounted on it as before) and pts; all of
it read-only. One thing less: no devpts is mounted on pts, so a bot cannot open a pseudo-terminal
(it talks over pipes and has no terminal to drive).

Read-only as before, by the mount: the folder is bound onto itself read-only (not nodev, or its
nodes would be dead) once per boot, and bwrap's bind of it keeps that flag, locked in the bot's
user namespace. bwrap's --remount-ro would add nodev, so the bind is not remounted (bwrap.py).
Besides, the folder and all in it belong to root, and nothing in it may be written by others.
Before a process's first use it checks the nodes' numbers and modes, the links, the owner, the
read-only mount, a file system that allows devices, and the null and zero devices opened and used.
Where the folder cannot be made or fails a check, starts keep bwrap's --dev: slower, never less
isolated. The read-only mount stays until the machine restarts (`findmnt | grep sandbox-dev`);
it holds nothing but the nodes.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from workers.cache import cache_root
from workers.sandbox.bwrap import SandboxConfigError, check_readable_by_others

# The nodes and links bubblewrap's --dev makes (its setup_newroot, SETUP_MAKE_DEV), same modes.
NODES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9), "tty": (5, 0)}
LINKS = {
    "fd": "/proc/self/fd",
    "stdin": "/proc/self/fd/0",
    "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2",
    "core": "/proc/kcore",
    "ptmx": "pts/ptmx",
}
FOLDERS = ("shm", "pts")
VERSION = 1  # a new layout gets a new folder name: a worker of the old code keeps its own
MS_RDONLY, MS_NOSUID, MS_REMOUNT, MS_BIND = 1, 2, 32, 4096
# Where the folder goes when the worker's cache is read-only (the VM stage shares this machine's
# files read-only): one fixed place, so that every process of the machine uses one mount, not a
# mount per process. A name another user made first fails the owner check, and starts keep --dev.
FALLBACK = Path(tempfile.gettempdir()) / "ladder-sandbox-dev"
_libc = ctypes.CDLL(None, use_errno=True)


def _make(target: Path) -> None:
    """Build the folder beside `target` and move it into place whole (two workers: either one wins)."""
    build = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-dev-"))
    try:
        for name, (major, minor) in NODES.items():
            os.mknod(build / name, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            os.chmod(build / name, 0o666)  # past the umask
        for name, points_to in LINKS.items():
            os.symlink(points_to, build / name)
        for name in FOLDERS:
            (build / name).mkdir(mode=0o755)
            os.chmod(build / name, 0o755)
        os.chmod(build, 0o755)
        try:
            os.rename(build, target)
        except OSError:
            if not target.is_dir():  # not another worker's, finished first
                raise
    finally:
        shutil.rmtree(build, ignore_errors=True)


def _mount(source: str | None, target: Path, flags: int) -> None:
    if _libc.mount(None if source is None else source.encode(), str(target).encode(), None, flags, None) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"mount of {target}: {os.strerror(code)}")


def _read_only(folder: Path) -> None:
    """Bind `folder` onto itself read-only (and nosuid, but not nodev), unless it is already so;
    under a lock, so that two workers starting at once make one mount."""
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return
        _mount(str(folder), folder, MS_BIND)
        _mount(None, folder, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID)


def problem(folder: Path) -> str | None:
    """What is wrong with `folder` as the sandbox's /dev, or None."""
    uid = os.geteuid()
    try:
        for path in (folder, *(folder / n for n in FOLDERS)):
            st = path.lstat()
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or stat.S_IMODE(st.st_mode) != 0o755:
                return f"{path} is not a folder of ours with mode 755"
        parent = folder.parent.lstat()
        if parent.st_uid != uid or parent.st_mode & 0o022:
            return f"{folder.parent} may be written by others"
        for name, numbers in NODES.items():
            st = (folder / name).lstat()
            if (
                not stat.S_ISCHR(st.st_mode)
                or (os.major(st.st_rdev), os.minor(st.st_rdev)) != numbers
                or stat.S_IMODE(st.st_mode) != 0o666
                or st.st_uid != uid
            ):
                return f"{folder / name} is not the {name} device"
        for name, points_to in LINKS.items():
            if not (folder / name).is_symlink() or os.readlink(folder / name) != points_to:
                return f"{folder / name} is not a link to {points_to}"
        names = sorted(p.name for p in folder.iterdir())
        if names != sorted([*NODES, *LINKS, *FOLDERS]):
            return f"{folder} holds other files: {names}"
        for name in FOLDERS:
            if any((folder / name).iterdir()):
                return f"{folder / name} is not empty"
        check_readable_by_others(folder)  # bwrap binds it after the uid drop
        flags = os.statvfs(folder).f_flag
        if flags & os.ST_NODEV:
            return f"{folder} is on a file system mounted nodev"
        if not flags & os.ST_RDONLY:
            return f"{folder} is not a read-only mount"
        with open(folder / "null", "wb", buffering=0) as null:
            null.write(b"x")
        with open(folder / "zero", "rb", buffering=0) as zero:
            if zero.read(4) != b"\0" * 4:
                return f"{folder / 'zero'} read other than zeros"
    except (OSError, SandboxConfigError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@functools.cache
def folder() -> str | None:
    """The sandbox's /dev folder (made on first use), or None where there can be none: the caller
    then has bwrap build /dev (--dev). Root only: only root may make device nodes."""
    if os.geteuid() != 0:
        return None
    why = "not tried"
    for parent in (cache_root(), FALLBACK):
        try:
            parent.mkdir(parents=True, exist_ok=True, mode=0o755)  # bwrap, past the uid drop, must reach it
            target = parent / f"sandbox-dev-{VERSION}"
            if not target.exists():
                _make(target)
            why = problem(target)
            if why is not None and why.endswith("is not a read-only mount"):
                _read_only(target)
                why = problem(target)
        except OSError as exc:
            why = f"{type(exc).__name__}: {exc}"
        if why is None:
            return str(target)
    sys.stderr.write(
        f"ladder: sandbox starts have bubblewrap build /dev for each bot (slower): the "
        f"sandbox's /dev folder could not be made or used ({why})\n"
    )
    return None
