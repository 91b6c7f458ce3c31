"""Pipe I/O with deadlines for bot processes: a capped line reader, a deadline writer, and a thread
that drains stderr into a bounded tail. Works on raw non-blocking fds; never starts a process.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import typing

CHUNK = 65536


def write_all(fd: int, data: bytes, deadline: float) -> str:
    """Write all of `data` to a non-blocking fd by `deadline` (monotonic): ok, timeout or closed."""
    view = memoryview(data)
    poller = None
    while view:
        try:
            view = view[os.write(fd, view):]
            continue
        except BlockingIOError:
            pass
        except OSError:  # EPIPE, EBADF: the reader is gone
            return "closed"
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return "timeout"
        if poller is None:
            poller = select.poll()
            poller.register(fd, select.POLLOUT)
        poller.poll(max(1, int(remaining * 1000)))
    return "ok"


def write_now(fd: int, data: bytes) -> int | None:
    """What a non-blocking fd takes of `data` at once, without waiting: bytes written (0: the pipe
    is full), None when the reader is gone."""
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
    except OSError:
        return None


class LineReader:
    """Lines from a non-blocking fd, each at most `cap` bytes, memory bounded by cap + CHUNK.

    read() reasons: "ok", "timeout", "oversized" (the rest of that line is skipped on later reads),
    "eof" (the last writer closed the pipe; a partial last line is dropped).
    """

    def __init__(self, fd: int, cap: int):
        self.fd, self.cap = fd, cap
        self._buf = bytearray()
        self._scanned = 0  # bytes at the start of _buf known to hold no newline
        self._skipping = False
        self.eof = False
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)

    def _from_buffer(self) -> tuple[bytes | None, str | None]:
        if self._skipping:
            i = self._buf.find(b"\n")
            if i < 0:
                self._buf.clear()
                return None, None
            del self._buf[: i + 1]
            self._skipping = False
            self._scanned = 0
        i = self._buf.find(b"\n", self._scanned)
        if 0 <= i <= self.cap:
            line = bytes(self._buf[:i])
            del self._buf[: i + 1]
            self._scanned = 0
            return line, "ok"
        if i > self.cap or len(self._buf) > self.cap:
            self._skipping = True
            return None, "oversized"
        self._scanned = len(self._buf)
        return None, None

    def _fill(self, deadline: float) -> bool:
        """Wait for input until `deadline` and take one chunk (or EOF); False once the time is up."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        if not self._poller.poll(max(1, int(remaining * 1000 + 0.999))):
            return True
        try:
            chunk = os.read(self.fd, CHUNK)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if chunk:
            self._buf += chunk
        else:
            self.eof = True
        return True

    def read(self, deadline: float) -> tuple[bytes | None, str]:
        while True:
            line, reason = self._from_buffer()
            if reason:
                return line, reason
            if self.eof:
                return None, "eof"
            if not self._fill(deadline):
                return None, "timeout"

    def read_rest(self, deadline: float, cap: int) -> tuple[bytes, str]:
        """Everything up to EOF (a build's tar stream, not lines): "ok" at EOF, "timeout", or
        "oversized" once more than `cap` bytes came (the caller gives up on the process)."""
        while not self.eof and len(self._buf) <= cap:
            if not self._fill(deadline):
                return bytes(self._buf), "timeout"
        if len(self._buf) > cap:
            return bytes(self._buf[:cap]), "oversized"
        return bytes(self._buf), "ok"


class StderrDrain(threading.Thread):
    """Reads a pipe all the time so a flood never blocks the writer; keeps the last `cap` bytes.

    With `owner` (the pipe's file object) the thread closes it when it stops reading, never
    before: closed earlier, the fd number could go to the next bot's pipe while this thread,
    slowed down on a loaded machine, still polls it, and it would read that bot's lines."""

    def __init__(self, fd: int, cap: int, owner: typing.IO | None = None):
        super().__init__(daemon=True, name=f"bot-stderr-{fd}")
        self.fd, self.cap = fd, cap
        self.total = 0
        self._owner = owner
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._halt = threading.Event()

    def run(self) -> None:
        try:
            self._drain()
        finally:
            if self._owner is not None:
                with contextlib.suppress(OSError):
                    self._owner.close()

    def _drain(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while not self._halt.is_set():
            if not poller.poll(100):
                continue
            try:
                chunk = os.read(self.fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.total += len(chunk)
                self._tail += chunk
                if len(self._tail) > self.cap:
                    del self._tail[: len(self._tail) - self.cap]

    def tail(self) -> bytes:
        with self._lock:
            return bytes(self._tail)

    def finish(self, grace: float = 0.5) -> None:
        """Let it read to EOF for up to `grace` seconds, then stop it."""
        self.join(timeout=grace)
        self._halt.set()
        self.join(timeout=1.0)
