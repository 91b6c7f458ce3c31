"""Bot packages: check them, then stage them into a fresh read-only directory for the sandbox.

A bot is one `.py` file, or a `.zip` or a directory with one entry point at its root (main.py,
main.js, main.c, main.cpp, Cargo.toml, go.mod, Main.java or bot: the runtime table in
workers/build/runtimes.py) and any other files beside it. Nothing is written until every member has been
checked, and extraction counts the bytes it really writes (a zip's declared sizes can lie). Every refusal is a
`PackagingError` whose message tells the author what to fix.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import tempfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from workers.build import runtimes
from workers.build.runtimes import BY_ENTRY, RUNTIMES

# THE upload limit: the site and the API (ladder.config's max_upload_bytes defaults to it and may
# only lower it), `ladder match` (here) and docs/bots.md (a test checks) all use this one number.
# 10 MiB leaves room for a .zip with data files; a single file has the same limit, not a second one.
MAX_UPLOAD_BYTES = 10 << 20
MAX_FILE_BYTES = MAX_UPLOAD_BYTES  # a single-file bot
MAX_ARCHIVE_BYTES = MAX_UPLOAD_BYTES  # the .zip as uploaded
MAX_MEMBER_BYTES = 20 << 20  # one file once unpacked
MAX_TOTAL_BYTES = 50 << 20  # everything once unpacked
MAX_MEMBERS = 1000
MAX_RATIO = 100  # unpacked / packed size of one member: more is an archive bomb
RATIO_FLOOR = 1 << 20  # members smaller than this may compress as well as they like
MAX_DEPTH = 16
MAX_NAME_BYTES = 255
SKIPPED_DIRS = {"__pycache__", ".git"}  # a local bot directory's clutter: not copied
# A build's own output beside its entry point: cargo's target/ holds another machine's artifacts
# and a lock file the read-only sandbox copy cannot open ("failed to open target/release/.cargo-lock:
# Permission denied"). A local directory (the author's working tree) is staged without it; a zip,
# a package the author made on purpose, is refused with the fix, rather than silently stored with
# megabytes nobody runs.
BUILD_OUTPUT = {"Cargo.toml": "target"}
# Also left out of a local directory: the `bot` a kit README's local build writes beside its source
# (`gcc -o bot main.c`, `go build -o bot .`), which would otherwise make the runtime ambiguous with
# the static one. In a zip the two are refused as ambiguous, with that message.
LOCAL_BUILD_OUTPUT = {**{e: (d,) for e, d in BUILD_OUTPUT.items()}, "main.c": ("bot",), "main.cpp": ("bot",),
                      "go.mod": ("bot",)}

# The runtime is chosen by the entry point's name (workers/build/runtimes.py); paths as seen in the sandbox.
PYTHON = "/usr/bin/python3"
NODE = "/usr/bin/node"
ENTRY_POINTS = {r.entry: list(r.run) for r in RUNTIMES}
ENTRY_LIST = ", ".join(r.entry for r in RUNTIMES)


class PackagingError(ValueError):
    """A bot package the ladder refuses; the message says why and what to do."""


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


BOT_SUFFIXES = (".py", ".zip")


def check_filename(filename: object) -> str:
    """The one rule for an uploaded bot's file name (web form, API, `ladder match` through `stage`):
    a plain name, no path parts, at most MAX_NAME_BYTES bytes of UTF-8, no control or invisible
    format characters, not hidden, ending in .py or .zip (any case). Returns the suffix (".py" or
    ".zip"); raises PackagingError saying what to change. Workers write the file under this name,
    so a name the file system refuses must never be stored."""
    if not isinstance(filename, str) or not filename:
        raise PackagingError("the upload has no file name; send a .py file or a .zip")
    shown = repr(filename[:60] + ("…" if len(filename) > 60 else ""))
    try:
        size = len(filename.encode("utf-8"))
    except UnicodeError:
        raise PackagingError(f"the file name {shown} is not valid UTF-8") from None
    if size > MAX_NAME_BYTES:
        raise PackagingError(f"the file name {shown} has {size} bytes; a file name may have {MAX_NAME_BYTES}")
    if any(unicodedata.category(c)[0] == "C" or c in "\u2028\u2029" for c in filename):
        raise PackagingError(f"the file name {shown} has control or invisible characters; rename the file")
    if "/" in filename or "\\" in filename:
        raise PackagingError(f"the file name {shown} has path parts; send the file's own name, e.g. main.py")
    if filename != filename.strip():
        raise PackagingError(f"the file name {shown} starts or ends with a space; rename the file")
    if filename.startswith("."):
        raise PackagingError(f"the file name {shown} starts with a dot; name it e.g. main.py or bot.zip")
    suffix = next((s for s in BOT_SUFFIXES if filename.lower().endswith(s)), None)
    if suffix is None:
        raise PackagingError(f"{shown}: a bot is one .py file, or a .zip with its entry point at the root "
                             f"({ENTRY_LIST})")
    return suffix


def _check_name(raw: bytes | str, where: str) -> PurePosixPath:
    """A member path: valid UTF-8, relative, no `..`, no odd characters, not too deep."""
    try:
        name = raw.decode("utf-8") if isinstance(raw, bytes) else raw.encode("utf-8").decode("utf-8")
    except UnicodeError:
        raise PackagingError(f"{where}: a file name is not valid UTF-8 ({raw!r})") from None
    if any(ord(c) < 32 or c == "\x7f" for c in name) or "\\" in name:
        raise PackagingError(f"{where}: file name {name!r} has control characters or a backslash")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise PackagingError(f"{where}: {name!r} is an absolute path; use paths relative to the bot's root")
    path = PurePosixPath(name)
    if not path.parts or path.parts == (".",):
        raise PackagingError(f"{where}: an entry has an empty name")
    if ".." in path.parts:
        raise PackagingError(f"{where}: {name!r} climbs out of the bot's directory with '..'")
    if len(path.parts) > MAX_DEPTH or any(len(p.encode()) > MAX_NAME_BYTES for p in path.parts):
        raise PackagingError(f"{where}: {name!r} is nested too deep or has a name over {MAX_NAME_BYTES} bytes")
    return path


def _entry(names: set[str], where: str) -> str:
    found = [e for e in ENTRY_POINTS if e in names]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise PackagingError(f"{where}: has both {found[0]} and {found[1]} at its root, so its runtime is "
                             "ambiguous; keep only the entry point of the language to run")
    nested = sorted(n for n in names if PurePosixPath(n).name in ENTRY_POINTS)
    hint = f" (found {nested[0]}: pack the folder's contents, not the folder)" if nested else ""
    raise PackagingError(f"{where}: no entry point at the root: one of {ENTRY_LIST}{hint}")


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
    elif not src.name.lower().endswith(BOT_SUFFIXES):
        raise PackagingError(f"{source}: a bot is a .py file, a .zip, or a directory with its entry point "
                              f"({ENTRY_LIST})")
    elif check_filename(os.fsdecode(src.name)) == ".zip":
        plan = None
    else:
        size = src.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PackagingError(f"{source}: {size} bytes; a single-file bot may have {MAX_FILE_BYTES}")
        plan = {"main.py": src}
    dest = _fresh_dir(parent)
    try:
        if plan is None:
            entry = _extract_zip(src, dest)
        else:
            entry = _entry(set(plan), str(source))
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


def check_bytes(code: bytes, filename: str) -> str:
    """Check an uploaded bot without unpacking it: the same rules as `stage`, for the web app,
    which stores uploads and never runs them. Returns the entry point; raises PackagingError."""
    if check_filename(filename) == ".py":
        if len(code) > MAX_FILE_BYTES:
            raise PackagingError(f"{filename}: {len(code)} bytes; a single-file bot may have {MAX_FILE_BYTES}")
        try:
            code.decode("utf-8")
        except UnicodeDecodeError:
            raise PackagingError(f"{filename}: a .py bot must be UTF-8 text") from None
        return "main.py"
    if len(code) > MAX_ARCHIVE_BYTES:
        raise PackagingError(f"{filename}: {len(code)} bytes; an uploaded bot may have {MAX_ARCHIVE_BYTES}")
    try:
        with zipfile.ZipFile(io.BytesIO(code)) as zf:
            members = _check_zip(zf, filename)
            return _entry({p.as_posix() for _, p in members}, filename)
    except zipfile.BadZipFile:
        raise PackagingError(f"{filename}: not a valid zip archive") from None


def check_runtime(entry: str, accepted: tuple[str, ...] | None = None) -> str:
    """The runtime `entry` picks, if this ladder runs it (`accepted`: the operator's list, None
    for all); raises PackagingError saying which runtimes it does run."""
    runtime = BY_ENTRY[entry]
    if accepted is not None and runtime.name not in accepted:
        titles = ", ".join(r.title for r in RUNTIMES if r.name in accepted)
        raise PackagingError(f"this ladder does not run {runtime.title} bots ({entry}); it runs: {titles}")
    ok, why = runtimes.available(runtime)
    if not ok:
        raise PackagingError(f"this ladder cannot run {runtime.title} bots ({entry}): its machine lacks the "
                             f"runtime ({why})")
    return runtime.name


def runtime_of(code: bytes, filename: str) -> str | None:
    """The runtime an upload's entry point picks, or None when it is not a bot package."""
    try:
        return BY_ENTRY[check_bytes(code, filename)].name
    except PackagingError:
        return None


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
            _check_name(os.fsencode(rel), str(root))
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                raise PackagingError(f"{root}: {rel} is a symbolic link; bots may only hold regular files")
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise PackagingError(f"{root}: {rel} is not a regular file")
            size = path.lstat().st_size
            if size > MAX_MEMBER_BYTES:
                raise PackagingError(f"{root}: {rel} has {size} bytes; one file may have {MAX_MEMBER_BYTES}")
            total += size
            plan[rel] = path
            if len(plan) > MAX_MEMBERS or total > MAX_TOTAL_BYTES:
                raise PackagingError(
                    f"{root}: more than {MAX_MEMBERS} files or {MAX_TOTAL_BYTES} bytes; ship only what the bot needs"
                )
    return plan


def _raw_name(info: zipfile.ZipInfo) -> bytes:
    """The name's bytes as stored: zipfile decodes names without the UTF-8 flag as cp437."""
    if info.flag_bits & 0x800:
        return info.filename.encode("utf-8")
    return info.orig_filename.encode("cp437")


def _check_zip(zf: zipfile.ZipFile, where: str) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise PackagingError(f"{where}: {len(infos)} entries; a bot may have {MAX_MEMBERS}")
    members, seen, total = [], set(), 0
    for info in infos:
        path = _check_name(_raw_name(info), where)
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            raise PackagingError(f"{where}: {path} is a symbolic link; bots may only hold regular files")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise PackagingError(f"{where}: {path} is not a regular file")
        if info.flag_bits & 0x1:
            raise PackagingError(f"{where}: {path} is encrypted; upload an unencrypted zip")
        key = path.as_posix()
        if key in seen:
            raise PackagingError(f"{where}: {key} appears twice")
        seen.add(key)
        if info.is_dir():
            continue
        if info.file_size > MAX_MEMBER_BYTES:
            raise PackagingError(f"{where}: {key} unpacks to {info.file_size} bytes; one file may have "
                                 f"{MAX_MEMBER_BYTES}")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise PackagingError(f"{where}: {key} expands more than {MAX_RATIO}x (an archive bomb?)")
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise PackagingError(f"{where}: unpacks to more than {MAX_TOTAL_BYTES} bytes")
        members.append((info, path))
    _refuse_build_output(seen, where)
    packed = sum(i.compress_size for i, _ in members)
    if total > RATIO_FLOOR and total > MAX_RATIO * max(packed, 1):
        raise PackagingError(f"{where}: expands more than {MAX_RATIO}x (an archive bomb?)")
    return members


def _refuse_build_output(names: set[str], where: str) -> None:
    for entry, folder in BUILD_OUTPUT.items():
        if entry in names and any(n == folder or n.startswith(folder + "/") for n in names):
            raise PackagingError(
                f"{where}: holds {folder}/, the build output of your machine; the ladder builds the bot "
                f"itself, and a copied {folder}/ breaks that build. Zip the sources only, e.g. "
                f"zip -r bot.zip Cargo.toml Cargo.lock src")


def _extract_zip(src: Path, dest: Path) -> str:
    where = str(src)
    size = src.stat().st_size
    if size > MAX_ARCHIVE_BYTES:
        raise PackagingError(f"{where}: {size} bytes; an uploaded bot may have {MAX_ARCHIVE_BYTES}")
    try:
        with zipfile.ZipFile(src) as zf:
            members = _check_zip(zf, where)
            entry = _entry({p.as_posix() for _, p in members}, where)
            written = 0
            for info, path in members:
                target = dest.joinpath(*path.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as fin, open(target, "xb") as fout:
                    left = info.file_size  # never trust it: stop at the declared size plus one byte
                    while chunk := fin.read(min(1 << 16, left + 1)):
                        left -= len(chunk)
                        written += len(chunk)
                        if left < 0 or written > MAX_TOTAL_BYTES:
                            raise PackagingError(f"{where}: {path} unpacks to more than it declares")
                        fout.write(chunk)
    except zipfile.BadZipFile as exc:
        raise PackagingError(f"{where}: not a valid zip archive ({exc})") from None
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, OSError, zlib.error) as exc:
        raise PackagingError(f"{where}: cannot unpack ({exc})") from None
    return entry
