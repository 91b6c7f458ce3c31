"""What a bot package may be: the one set of rules and messages, for every path a bot comes in by.

A bot is one `.py` file, or a `.zip` (or, for `ladder match`, a directory) with one entry point at
its root (main.py, main.js, main.c, main.cpp, Cargo.toml, go.mod, Main.java or bot: the runtime
table in ladder/bot/runtimes.py) and any other files beside it. The web form and the API check an
upload here (ladder/services/uploads.py) without unpacking it; the workers' staging
(workers/build/packaging.py) applies the same rules while it unpacks. Every refusal is a
`PackagingError` whose message tells the author what to fix. Pure: it reads bytes, never runs them.
"""

from __future__ import annotations

import hashlib
import io
import stat
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from ladder.bot.runtimes import BY_ENTRY, RUNTIMES, available

# THE upload limit, for a .py file and a .zip alike: the site and the API (ladder.config's
# max_upload_bytes defaults to it and may only lower it), the workers' staging, `ladder match` and
# docs/bots.md (a test checks) all use this one number. 10 MiB leaves room for a .zip with data files.
MAX_UPLOAD_BYTES = 10 << 20
MAX_MEMBER_BYTES = 20 << 20  # one file once unpacked
MAX_TOTAL_BYTES = 50 << 20  # everything once unpacked
MAX_MEMBERS = 1000
MAX_RATIO = 100  # unpacked / packed size of one member: more is an archive bomb
RATIO_FLOOR = 1 << 20  # members smaller than this may compress as well as they like
MAX_DEPTH = 16
MAX_NAME_BYTES = 255
# A build's own output beside its entry point: cargo's target/ holds another machine's artifacts
# and a lock file the read-only sandbox copy cannot open ("failed to open target/release/.cargo-lock:
# Permission denied"). A local directory (the author's working tree) is staged without it; a zip,
# a package the author made on purpose, is refused with the fix, rather than silently stored with
# megabytes nobody runs.
BUILD_OUTPUT = {"Cargo.toml": "target"}
ENTRY_POINTS = {r.entry: list(r.run) for r in RUNTIMES}
ENTRY_LIST = ", ".join(r.entry for r in RUNTIMES)


class PackagingError(ValueError):
    """A bot package the ladder refuses; the message says why and what to do."""


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


def too_big(where: str, limit: int) -> str:
    """The one message for a bot over the limit (the web app's 413 page says it too)."""
    return f"{where} is too big: a bot may have at most {limit} bytes"


def check_size(size: int, where: str, limit: int | None = None) -> None:
    """The one size rule, with the one message: a bot (its .py file, or its .zip as sent) has
    1 to `limit` bytes (None: MAX_UPLOAD_BYTES; a deployment may set a lower limit, never a higher
    one). `where` names it as its author knows it: the upload's file name, a path."""
    limit = MAX_UPLOAD_BYTES if limit is None else limit
    if size <= 0:
        raise PackagingError(f"{where} is empty")
    if size > limit:
        raise PackagingError(too_big(where, limit))


def check_envelope(size: int, filename: object, limit: int | None = None) -> str:
    """What is refused before a package is even looked at (nothing is stored for it): the file
    name, then the size. Returns the suffix (".py" or ".zip")."""
    suffix = check_filename(filename)
    check_size(size, str(filename), limit)
    return suffix


def check_member_name(raw: bytes | str, where: str) -> PurePosixPath:
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


def entry_point(names: set[str], where: str) -> str:
    found = [e for e in ENTRY_POINTS if e in names]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise PackagingError(f"{where}: has both {found[0]} and {found[1]} at its root, so its runtime is "
                             "ambiguous; keep only the entry point of the language to run")
    nested = sorted(n for n in names if PurePosixPath(n).name in ENTRY_POINTS)
    hint = f" (found {nested[0]}: pack the folder's contents, not the folder)" if nested else ""
    raise PackagingError(f"{where}: no entry point at the root: one of {ENTRY_LIST}{hint}")


def check_bytes(code: bytes, filename: str, limit: int | None = None) -> str:
    """Check an uploaded bot without unpacking it: the same rules as the workers' staging, for the
    web app, which stores uploads and never runs them. Returns the entry point; raises PackagingError."""
    return _entry_of(code, filename, check_envelope(len(code), filename, limit))


@dataclass(frozen=True, slots=True)
class CheckedPackage:
    """An upload checked once (`check_package`), handed on as it is: its bytes and name, its entry
    point and runtime when it has one, and `refusal`: None for a package this ladder runs, else why
    not (a further version is stored rejected with it)."""

    code: bytes
    filename: str
    entry: str | None
    runtime: str | None
    refusal: str | None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code).hexdigest()


def check_package(code: bytes, filename: object, limit: int | None = None,
                  accepted: tuple[str, ...] | None = None) -> CheckedPackage:
    """The one check of an upload: the envelope (name, size: PackagingError, nothing is stored),
    then the contents (a zip is opened once) and the runtime (`accepted`: the operator's list)."""
    suffix = check_envelope(len(code), filename, limit)
    name = str(filename)
    try:
        entry = _entry_of(code, name, suffix)
    except PackagingError as exc:
        return CheckedPackage(code, name, None, None, str(exc))
    try:
        check_runtime(entry, accepted)
    except PackagingError as exc:
        return CheckedPackage(code, name, entry, BY_ENTRY[entry].name, str(exc))
    return CheckedPackage(code, name, entry, BY_ENTRY[entry].name, None)


def _entry_of(code: bytes, filename: str, suffix: str) -> str:
    """The entry point of a package whose envelope was checked (`suffix` from check_envelope)."""
    if suffix == ".py":
        try:
            code.decode("utf-8")
        except UnicodeDecodeError:
            raise PackagingError(f"{filename}: a .py bot must be UTF-8 text") from None
        return "main.py"
    try:
        with zipfile.ZipFile(io.BytesIO(code)) as zf:
            members = check_zip(zf, filename)
            return entry_point({p.as_posix() for _, p in members}, filename)
    except zipfile.BadZipFile:
        raise PackagingError(f"{filename}: not a valid zip archive") from None


def check_runtime(entry: str, accepted: tuple[str, ...] | None = None) -> str:
    """The runtime `entry` picks, if this ladder runs it (`accepted`: the operator's list, None
    for all); raises PackagingError saying which runtimes it does run."""
    runtime = BY_ENTRY[entry]
    if accepted is not None and runtime.name not in accepted:
        titles = ", ".join(r.title for r in RUNTIMES if r.name in accepted)
        raise PackagingError(f"this ladder does not run {runtime.title} bots ({entry}); it runs: {titles}")
    ok, why = available(runtime)
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


def _raw_name(info: zipfile.ZipInfo) -> bytes:
    """The name's bytes as stored: zipfile decodes names without the UTF-8 flag as cp437."""
    if info.flag_bits & 0x800:
        return info.filename.encode("utf-8")
    return info.orig_filename.encode("cp437")


def check_zip(zf: zipfile.ZipFile, where: str) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise PackagingError(f"{where}: {len(infos)} entries; a bot may have {MAX_MEMBERS}")
    members, seen, total = [], set(), 0
    for info in infos:
        path = check_member_name(_raw_name(info), where)
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
