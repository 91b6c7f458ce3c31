"""The folder backend: each blob a file under one root, written under a temporary name and renamed
(atomic on one file system), so a reader never sees half a blob. The embedded default (under the
instance directory), and a production choice only where every host mounts the same folder.

A worker runs as root (the strict sandbox) and the web as the ladder's user, and both write here
(builds; an owner's bot data upload): a root process writes as the owner of the store's root
folder, so neither leaves the other a folder it cannot write in."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from ladder.storage.base import Blob, BlobMissing, check_key

TEMP_PREFIX = ".part-"  # a blob being written; never listed


class FolderStore:
    def __init__(self, root: Path):
        self.root = Path(root)

    @property
    def location(self) -> str:
        return f"file://{self.root.resolve()}"

    def _path(self, key: str) -> Path:
        return self.root / check_key(key)

    def _owner(self) -> tuple[int, int] | None:
        """(uid, gid) to write as: the root folder's owner, when this process is root and it is not."""
        if os.geteuid() != 0:
            return None
        st = self.root.stat()
        return (st.st_uid, st.st_gid) if st.st_uid != 0 else None

    def _folders(self, parent: Path, owner: tuple[int, int] | None) -> None:
        missing = []
        folder = parent
        while not folder.exists() and folder != self.root:
            missing.append(folder)
            folder = folder.parent
        parent.mkdir(parents=True, exist_ok=True)
        if owner is not None:
            for made in missing:
                with contextlib.suppress(FileNotFoundError):
                    os.chown(made, *owner)

    def put(self, key: str, data: bytes | BinaryIO) -> int:
        target = self._path(key)
        self.root.mkdir(parents=True, exist_ok=True)
        owner = self._owner()
        self._folders(target.parent, owner)
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                if isinstance(data, bytes | bytearray | memoryview):
                    out.write(data)
                else:
                    shutil.copyfileobj(data, out, 1 << 20)
            os.chmod(tmp, 0o644)
            if owner is not None:
                os.chown(tmp, *owner)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target.stat().st_size

    def put_file(self, key: str, path: Path) -> int:
        with open(path, "rb") as src:
            return self.put(key, src)

    def get(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise BlobMissing(key) from None

    def open(self, key: str) -> BinaryIO:
        try:
            path = self._path(key)
            if not path.is_file():
                raise FileNotFoundError(key)
            return open(path, "rb")
        except (FileNotFoundError, NotADirectoryError):
            raise BlobMissing(key) from None

    def stat(self, key: str) -> Blob | None:
        try:
            st = self._path(key).stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        if not self._path(key).is_file():
            return None
        return Blob(key, st.st_size, datetime.fromtimestamp(st.st_mtime, UTC))

    def exists(self, key: str) -> bool:
        return self.stat(key) is not None

    def delete(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError):
            self._path(key).unlink()

    def list(self, prefix: str = "") -> Iterator[Blob]:
        # walk only the folder the prefix names (its part up to the last "/"), then filter by the rest
        folder = prefix.rpartition("/")[0]
        base = self.root / check_key(folder) if folder else self.root
        if not base.is_dir():
            return
        found = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                if name.startswith("."):
                    continue
                full = Path(dirpath) / name
                key = full.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    found.append(full)
        for full in sorted(found, key=lambda p: p.relative_to(self.root).as_posix()):
            try:
                st = full.stat()
            except FileNotFoundError:  # deleted meanwhile
                continue
            yield Blob(full.relative_to(self.root).as_posix(), st.st_size, datetime.fromtimestamp(st.st_mtime, UTC))
