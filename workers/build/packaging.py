"""Staging a bot: check it and copy it into a fresh read-only directory for the sandbox.

The rules and their messages are ladder/bot/packages.py's, the same the site applies to an upload;
this module applies them to a file, a .zip or a local directory while it copies. Nothing is written
until every member has been checked, and extraction counts the bytes it really writes (a zip's
declared sizes can lie).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from ladder.bot import packages as rules
from ladder.bot.packages import ENTRY_LIST, ENTRY_POINTS, PackagingError, check_filename, check_size
from ladder.bot.runtimes import BY_ENTRY

SKIPPED_DIRS = {"__pycache__", ".git"}  # a local bot directory's clutter: not copied
# Also left out of a local directory: the `bot` a kit README's local build writes beside its source
# (`gcc -o bot main.c`, `go build -o bot .`), which would otherwise make the runtime ambiguous with
# the static one. In a zip the two are refused as ambiguous, with that message.
LOCAL_BUILD_OUTPUT = {**{e: (d,) for e, d in rules.BUILD_OUTPUT.items()}, "main.c": ("bot",), "main.cpp": ("bot",),
                      "go.mod": ("bot",)}

# The runtime is chosen by the entry point's name (ladder/bot/runtimes.py); paths as seen in the sandbox.
PYTHON = "/usr/bin/python3"
NODE = "/usr/bin/node"
__all__ = ["PackagingError", "StagedBot", "remove_staged", "stage"]  # PackagingError: what stage raises


@dataclass(frozen=True)
class StagedBot:
    path: Path  # a read-only directory holding the bot's files (for a compiled runtime: its source)
    entry: str  # the entry point that chose the runtime (main.py, Cargo.toml, ...)
    command: list[str]
    built: bool = False  # a compiled runtime's artifact (workers.build.builds), ready to run
    build_key: str | None = None  # the artifact's key, when built

    @property
    def runtime(self) -> str:
        return BY_ENTRY[self.entry].name

    @property
    def needs_build(self) -> bool:
        return BY_ENTRY[self.entry].compiled and not self.built


def _fresh_dir(parent: str | Path | None) -> Path:
    dest = Path(tempfile.mkdtemp(prefix="ladder-bot-", dir=parent))
    dest.chmod(0o755)
    return dest


def seal(root: Path, executables: tuple[str, ...] = ()) -> None:
    """Make the staged tree read-only for everyone (files 0444, directories 0555); the runtime's
    executables at the root (a static `bot`, a built binary) 0555."""
    for dirpath, dirnames, filenames in os.walk(root, topdown=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            os.chmod(path, 0o555 if dirpath == str(root) and name in executables else 0o444)
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o555)
    root.chmod(0o555)


def remove_staged(path: str | Path) -> None:
    """Delete a staged directory (it is read-only, so open it up first)."""
    path = Path(path)
    if not path.exists():
        return
    for dirpath, _dirs, _files in os.walk(path):
        os.chmod(dirpath, 0o755)
    shutil.rmtree(path, ignore_errors=True)


def stage(source: str | Path, parent: str | Path | None = None) -> StagedBot:
    """Check the bot at `source` and copy it into a fresh read-only directory under `parent`."""
    src = Path(source)
    if not src.exists():
        raise PackagingError(f"{source}: no such file or directory")
    if src.is_dir():
        plan = _plan_directory(src)
    elif not src.is_file():
        raise PackagingError(f"{source}: not a regular file")
    elif not src.name.lower().endswith(rules.BOT_SUFFIXES):
        raise PackagingError(f"{source}: a bot is a .py file, a .zip, or a directory with its entry point "
                              f"({ENTRY_LIST})")
    elif check_filename(os.fsdecode(src.name)) == ".zip":
        check_size(src.stat().st_size, str(source))
        plan = None
    else:
        check_size(src.stat().st_size, str(source))
        plan = {"main.py": src}
    dest = _fresh_dir(parent)
    try:
        if plan is None:
            entry = _extract_zip(src, dest)
        else:
            entry = rules.entry_point(set(plan), str(source))
            for name, path in plan.items():
                _copy(path, dest / name)
        runtime = BY_ENTRY[entry]
        if runtime.name == "static":
            check_static_executable(dest / entry, str(source))
        seal(dest, runtime.executables)
    except BaseException:
        remove_staged(dest)
        raise
    return StagedBot(dest, entry, list(ENTRY_POINTS[entry]))


def check_static_executable(path: Path, where: str) -> None:
    """A prebuilt bot must be a Linux x86-64 ELF executable that needs no shared library: its
    sandbox holds no system files at all."""
    with open(path, "rb") as fh:
        head = fh.read(64)
        if len(head) < 64 or head[:4] != b"\x7fELF":
            raise PackagingError(f"{where}: bot is not an ELF executable; the static runtime runs a Linux "
                                 "x86-64 executable (build it with e.g. gcc -static)")
        if head[4] != 2 or head[5] != 1 or int.from_bytes(head[18:20], "little") != 62:
            raise PackagingError(f"{where}: bot is not a 64-bit little-endian x86-64 executable")
        phoff = int.from_bytes(head[32:40], "little")
        phentsize, phnum = int.from_bytes(head[54:56], "little"), int.from_bytes(head[56:58], "little")
        for i in range(min(phnum, 256)):
            fh.seek(phoff + i * phentsize)
            if int.from_bytes(fh.read(4), "little") == 3:  # PT_INTERP: it asks for a dynamic loader
                raise PackagingError(f"{where}: bot is dynamically linked; link it statically "
                                     "(gcc -static, or CGO_ENABLED=0 for Go) or upload the source")


def _copy(src: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(src, "rb") as fin, open(target, "xb") as fout:
        shutil.copyfileobj(fin, fout)


def _plan_directory(root: Path) -> dict[str, Path]:
    """relative name -> file, after checking every entry (no symlinks or special files, caps)."""
    plan: dict[str, Path] = {}
    total = 0
    skipped = {n for e, names in LOCAL_BUILD_OUTPUT.items() if (root / e).is_file() for n in names}  # root only
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        top = Path(dirpath) == root
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not (top and d in skipped))
        for name in sorted(f for f in filenames if not (top and f in skipped)) + dirnames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            rules.check_member_name(os.fsencode(rel), str(root))
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                raise PackagingError(f"{root}: {rel} is a symbolic link; bots may only hold regular files")
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise PackagingError(f"{root}: {rel} is not a regular file")
            size = path.lstat().st_size
            if size > rules.MAX_MEMBER_BYTES:
                raise PackagingError(f"{root}: {rel} has {size} bytes; one file may have {rules.MAX_MEMBER_BYTES}")
            total += size
            plan[rel] = path
            if len(plan) > rules.MAX_MEMBERS or total > rules.MAX_TOTAL_BYTES:
                raise PackagingError(f"{root}: more than {rules.MAX_MEMBERS} files or {rules.MAX_TOTAL_BYTES} bytes; "
                                     "ship only what the bot needs")
    return plan


def _extract_zip(src: Path, dest: Path) -> str:
    where = str(src)
    try:
        with zipfile.ZipFile(src) as zf:
            members = rules.check_zip(zf, where)
            entry = rules.entry_point({p.as_posix() for _, p in members}, where)
            written = 0
            for info, path in members:
                target = dest.joinpath(*path.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as fin, open(target, "xb") as fout:
                    left = info.file_size  # never trust it: stop at the declared size plus one byte
                    while chunk := fin.read(min(1 << 16, left + 1)):
                        left -= len(chunk)
                        written += len(chunk)
                        if left < 0 or written > rules.MAX_TOTAL_BYTES:
                            raise PackagingError(f"{where}: {path} unpacks to more than it declares")
                        fout.write(chunk)
    except zipfile.BadZipFile as exc:
        raise PackagingError(f"{where}: not a valid zip archive ({exc})") from None
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, OSError, zlib.error) as exc:
        raise PackagingError(f"{where}: cannot unpack ({exc})") from None
    return entry
