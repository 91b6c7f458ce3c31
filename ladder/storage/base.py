"""The one storage interface for the ladder's blobs: build artifacts, bot data versions, daily dumps.

A store holds bytes by key. Keys are relative paths of plain segments (`builds/<hash>.tar`,
`dumps/<game>/<game>-2026-11-21.zip`): letters, digits, `.`, `_` and `-`, joined by `/`, never
`..` or a leading `/`, so a key is a file name in the folder backend and an object name in S3
alike, and no caller's string can reach outside the store. Writes are whole (a reader sees the old
blob or the new one, never half), blobs never change in place, and reads stream (`open`), since a
build artifact or a dump can be many megabytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO, Protocol

CHUNK = 1 << 20  # bytes per read when a blob is streamed
_SEGMENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")


class StoreError(RuntimeError):
    """The store could not do what was asked (unreachable, refused): the ladder's failure, not a user's."""


class BlobMissing(KeyError):
    """No blob under that key."""


@dataclass(frozen=True, slots=True)
class Blob:
    key: str
    size: int
    modified: datetime  # aware UTC: when it was written


def check_key(key: str) -> str:
    """`key` when it is a store key (see the module's doc); ValueError otherwise."""
    parts = key.split("/")
    if not key or any(not _SEGMENT.fullmatch(p) or p in (".", "..") for p in parts):
        raise ValueError(f"{key!r} is not a store key (plain segments of letters, digits, '.', '_', '-')")
    return key


class Store(Protocol):
    """What every backend does; `ladder.storage.open_store(settings)` picks one."""

    @property
    def location(self) -> str:
        """Where it is, for messages and docs (never a secret)."""

    def put(self, key: str, data: bytes | BinaryIO) -> int:
        """Write (or replace) the blob whole from bytes or a readable binary file; returns its size."""

    def put_file(self, key: str, path: Path) -> int:
        """Write the blob from a local file, streamed."""

    def get(self, key: str) -> bytes:
        """The blob's bytes; BlobMissing when there is none."""

    def open(self, key: str) -> BinaryIO:
        """The blob as a readable binary stream (close it); BlobMissing when there is none."""

    def stat(self, key: str) -> Blob | None:
        """The blob's size and time, or None."""

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None:
        """Remove the blob; no error when there is none."""

    def list(self, prefix: str = "") -> Iterator[Blob]:
        """Every blob whose key starts with `prefix`, in key order."""


def chunks(stream: BinaryIO, size: int = CHUNK) -> Iterator[bytes]:
    """A stream's bytes in chunks, closing it at the end (a web response's body)."""
    try:
        while block := stream.read(size):
            yield block
    finally:
        stream.close()
