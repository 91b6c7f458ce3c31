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


class StderrDrain:
    """Reads a pipe all the time so a flood never blocks the writer; keeps the last `cap` bytes.

    Every drain of a process is read by one thread (`_Drainer`), started with the first: a thread of
    its own per bot cost a thread start on every bot's start, about 0.3 ms idle and 1.3 ms when
    started just after the bot with the other core busy with bwrap's set-up (issue #29), and a
    wake-up every 100 ms for as long as the bot ran.

    With `owner` (the pipe's file object) the drainer closes it when it stops reading, never
    before: closed earlier, the fd number could go to the next bot's pipe while the drainer,
    slowed down on a loaded machine, still polls it, and it would read that bot's lines."""

    def __init__(self, fd: int, cap: int, owner: typing.IO | None = None):
        self.fd, self.cap = fd, cap
        self.total = 0
        self._owner = owner
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._started = False

    def start(self) -> None:
        self._started = True
        _drainer().add(self)

    def _take(self, chunk: bytes) -> None:
        with self._lock:
            self.total += len(chunk)
            self._tail += chunk
            if len(self._tail) > self.cap:
                del self._tail[: len(self._tail) - self.cap]

    def _stop(self) -> None:  # the drainer's thread, once it no longer polls the fd
        if self._owner is not None:
            with contextlib.suppress(OSError):
                self._owner.close()
        self._stopped.set()

    def tail(self) -> bytes:
        with self._lock:
            return bytes(self._tail)

    def finish(self, grace: float = 0.5) -> None:
        """Let it read to EOF for up to `grace` seconds, then stop it."""
        if not self._started or self._stopped.wait(grace):
            return
        _drainer().remove(self)
        self._stopped.wait(1.0)


class _Drainer:
    """The thread that reads every StderrDrain of this process, through one epoll."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._epoll = select.epoll()
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._epoll.register(self._wake_r, select.EPOLLIN)
        self._drains: dict[int, StderrDrain] = {}
        self._leaving: list[StderrDrain] = []
        threading.Thread(target=self._run, daemon=True, name="bot-stderr").start()

    def add(self, drain: StderrDrain) -> None:
        with self._lock:
            self._drains[drain.fd] = drain
            self._epoll.register(drain.fd, select.EPOLLIN)  # a poll under way sees it (epoll_ctl)

    def remove(self, drain: StderrDrain) -> None:
        """Stop reading `drain` (the thread unregisters it, then closes its owner)."""
        with self._lock:
            self._leaving.append(drain)
        with contextlib.suppress(BlockingIOError):  # full: a wake-up is pending anyway
            os.write(self._wake_w, b"\0")

    def _run(self) -> None:
        while True:
            for fd, _ in self._epoll.poll():
                if fd == self._wake_r:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_r, 4096)
                    continue
                drain = self._drains.get(fd)
                if drain is None:
                    continue
                try:
                    chunk = os.read(fd, CHUNK)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if chunk:
                    drain._take(chunk)
                else:  # EOF: everything of the bot that held the pipe is gone
                    self._drop(drain)
            with self._lock:
                leaving, self._leaving = self._leaving, []
            for drain in leaving:
                self._drop(drain)

    def _drop(self, drain: StderrDrain) -> None:
        with self._lock:
            if self._drains.get(drain.fd) is drain:
                del self._drains[drain.fd]
                self._epoll.unregister(drain.fd)
        drain._stop()


_the_drainer: _Drainer | None = None
_drainer_lock = threading.Lock()


def _drainer() -> _Drainer:
    global _the_drainer
    with _drainer_lock:
        if _the_drainer is None:
            _the_drainer = _Drainer()
        return _the_drainer


def _forget_drainer() -> None:
    """In a forked child: the parent's drainer thread is not there (nor are its bots)."""
    global _the_drainer, _drainer_lock
    _the_drainer, _drainer_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_drainer)
