"""A bot's data folder as values: its files, the zip it is stored as, the cap, and a match's changes.

Pure (no database, no file system): the service (ladder/services/botdata.py) stores what this
module builds, the worker (workers/build/bot_data.py) stages and collects the folder on disk.

A folder is a mapping of relative POSIX paths ("models/a.json") to bytes. Only regular files are
kept; folders exist through the files in them. A match's changes are the files it created or
changed and the paths it deleted, applied file by file onto whatever version is the latest when
the match is recorded, so concurrent matches of one bot each keep their own writes.
"""

from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_PATH_CHARS = 255  # per path inside the folder; a longer one is refused, never shortened
MAX_DEPTH = 16
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed: the same files always make the same zip bytes


class BotDataError(ValueError):
    """Input that is not a bot data folder (a bad zip, a path outside, over the cap): the message
    says which, in the owner's terms."""


@dataclass(frozen=True, slots=True)
class Cap:
    """What one bot's folder may hold (settings.bot_data_max_bytes / _max_files)."""

    max_bytes: int = 20 << 20
    max_files: int = 1000

    def describe(self) -> str:
        return f"{_mib(self.max_bytes)} and {self.max_files:,} files"

    def check(self, files: Mapping[str, bytes]) -> None:
        """Raise BotDataError when `files` is over the cap."""
        total = sum(len(data) for data in files.values())
        if len(files) > self.max_files:
            raise BotDataError(f"{len(files):,} files, over the cap of {self.max_files:,}")
        if total > self.max_bytes:
            raise BotDataError(f"{_mib(total)} of files, over the cap of {_mib(self.max_bytes)}")


@dataclass(frozen=True, slots=True)
class Changes:
    """What one match did to the folder it was given."""

    written: dict[str, bytes] = field(default_factory=dict)  # created or changed, whole files
    deleted: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.written or self.deleted)

    def describe(self) -> str:
        return f"{len(self.written)} written, {len(self.deleted)} deleted"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What one seat starts from: a version's files, and whether its changes are kept after
    (False: pinned, for an event or a validation game)."""

    version: int
    files: dict[str, bytes]
    keep: bool = True


@dataclass(frozen=True, slots=True)
class Collected:
    """A seat's folder after its match: its changes, or why none are kept (`refused`, for the owner)."""

    changes: Changes | None = None
    refused: str | None = None


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB" if n >= 1 << 20 else f"{n:,} bytes"


def check_path(name: str) -> str:
    """`name` as a folder path, or BotDataError: relative, no '..', no empty or hidden-dot parts."""
    if not name or len(name) > MAX_PATH_CHARS:
        raise BotDataError(f"a file name must be 1 to {MAX_PATH_CHARS} characters: {name[:60]!r}")
    if "\x00" in name or "\\" in name or name.startswith("/"):
        raise BotDataError(f"{name[:60]!r} is not a relative path with '/' between folders")
    parts = name.split("/")
    if len(parts) > MAX_DEPTH:
        raise BotDataError(f"{name[:60]!r} is more than {MAX_DEPTH} folders deep")
    if any(part in ("", ".", "..") for part in parts):
        raise BotDataError(f"{name[:60]!r} has an empty, '.' or '..' part")
    if any(ord(c) < 32 for c in name):
        raise BotDataError(f"{name[:60]!r} has a control character")
    return name


def read_zip(data: bytes, cap: Cap) -> dict[str, bytes]:
    """The files of an uploaded or stored zip, checked against `cap` before anything is unpacked
    beyond it (the sizes the zip declares are checked first, then what is actually read)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise BotDataError(f"not a zip file ({exc})") from None
    with archive:
        infos = [info for info in archive.infolist() if not info.is_dir()]
        if len(infos) > cap.max_files:
            raise BotDataError(f"{len(infos):,} files, over the cap of {cap.max_files:,}")
        if sum(info.file_size for info in infos) > cap.max_bytes:
            raise BotDataError(f"the zip unpacks to more than the cap of {_mib(cap.max_bytes)}")
        files: dict[str, bytes] = {}
        total = 0
        for info in infos:
            name = check_path(info.filename)
            mode = info.external_attr >> 16
            if mode and not (stat.S_ISREG(mode) or stat.S_IFMT(mode) == 0):
                raise BotDataError(f"{name!r} is not a regular file (links and devices are refused)")
            if name in files:
                raise BotDataError(f"{name!r} is in the zip twice")
            try:
                with archive.open(info) as member:
                    content = member.read(cap.max_bytes - total + 1)  # never more than the cap, whatever it says
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError, ValueError) as exc:
                raise BotDataError(f"{name!r} cannot be read ({exc})") from None
            total += len(content)
            if total > cap.max_bytes:
                raise BotDataError(f"the zip unpacks to more than the cap of {_mib(cap.max_bytes)}")
            files[name] = content
    _check_no_file_is_a_folder(files)
    return files


def _check_no_file_is_a_folder(files: Mapping[str, bytes]) -> None:
    folders = {name.rsplit("/", 1)[0] for name in files if "/" in name}
    parents = {"/".join(f.split("/")[:i]) for f in folders for i in range(1, f.count("/") + 2)}
    clash = sorted(parents & set(files))
    if clash:
        raise BotDataError(f"{clash[0]!r} is both a file and a folder")


def write_zip(files: Mapping[str, bytes]) -> bytes:
    """The stored form: deflated, sorted, fixed dates, so equal folders are equal bytes. The fastest
    level: a match's result is recorded (with its data) while the rating clock is held."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, files[name], compresslevel=1)
    return out.getvalue()


def diff(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> Changes:
    """What turned `before` into `after`."""
    written = {name: data for name, data in after.items() if before.get(name) != data}
    return Changes(written, frozenset(set(before) - set(after)))


def apply(base: Mapping[str, bytes], changes: Changes) -> dict[str, bytes]:
    """`changes` applied file by file onto `base` (the latest version, maybe newer than the one the
    match started from): its written files replace theirs, its deletions remove theirs, and every
    other file of `base` stays. A written file whose path is now a folder in `base` (or the other
    way round) replaces what was there, so the result is always a folder."""
    out = {name: data for name, data in base.items() if name not in changes.deleted}
    for name, data in changes.written.items():
        prefix = name + "/"
        for other in [o for o in out if o.startswith(prefix)]:
            del out[other]
        parts = name.split("/")
        for i in range(1, len(parts)):
            out.pop("/".join(parts[:i]), None)
        out[name] = data
    return out
