"""A bot's start window, between fork and exec: what the child does there, and how it says what failed.

Two ways to run it, the same steps in the same order: in C, by the start helper (spawn.c, built by
spawn_helper.py) after a vfork, where this machine can build it; else here, in Python, after a
fork (`StartWindow.preexec`). The rest of this says why each step is as it is.

Python's subprocess reports any exception of a `preexec_fn` as a bare SubprocessError ("Exception
occurred in preexec_fn"): which setup call failed, and with which errno, is lost, and a start that
failed so under load could only be reported as "SubprocessError". Each step here writes its name and
errno to a pipe of its own before the exception goes on, and `StartWindow.failure()` reads it in the
parent: "cgroup join (pids) failed: ENOMEM", "setresuid failed: EAGAIN", "fork or exec of
bubblewrap failed: EAGAIN".

Stop signals: the child of a fork inherits the worker's Python signal handlers (billiard's SIGTERM
handler raises SystemExit, SIGINT raises KeyboardInterrupt). A signal reaching the child before its
exec (aimed at the worker's process group, before the child has a group of its own) ran that
handler inside `preexec_fn` and failed the start with a SubprocessError a seat was once charged with.
So the parent blocks SIGINT and SIGTERM across the fork (`blocked()`), and the child, first thing,
ignores them (which drops one already pending), restores their default and unblocks them: no
worker handler ever runs between fork and exec, and the bot starts with the dispositions it would
have had from a shell. The signal the parent held back is delivered to the parent on unblocking
(workers/sandbox/interrupts.py then tears the match down).

Only plain system calls run here: nothing that takes a lock another thread of the parent held.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
_CAP_LAST = int(Path("/proc/sys/kernel/cap_last_cap").read_text()) if Path(
    "/proc/sys/kernel/cap_last_cap").exists() else 40
_PR_CAPBSET_DROP = 24
_RLIMIT_NAMES = {getattr(resource, n): n for n in dir(resource) if n.startswith("RLIMIT_")}
_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNET = 0x40000000


def _setns(fd: int) -> None:
    """setns(2) into the network namespace `fd` (os.setns is Python 3.12's)."""
    if _libc.setns(fd, _CLONE_NEWNET) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


@contextlib.contextmanager
def blocked() -> Iterator[frozenset[int]]:
    """SIGINT and SIGTERM held back in this thread (the one that forks) for the block; yields the
    mask to restore, which the child restores too."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield frozenset(old)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _hierarchy(path: str) -> str:
    """The v1 controller a join file belongs to ("pids"), or "cgroup2": never a server path."""
    parts = Path(path).parts
    return parts[4] if parts[-1] == "tasks" and parts[1:4] == ("sys", "fs", "cgroup") else "cgroup2"


def errno_name(code: int | None) -> str:
    return errno.errorcode.get(code or 0, f"errno {code}") if code else "no errno"


def _said(data: bytes) -> str:
    """A report of the child's ("step\0errno\0kind") as the start's failure; "" for none."""
    if not data:
        return ""
    step, code, kind = [*data.decode(errors="replace").split("\0", 2), "0", "?"][:3]
    code_text = errno_name(int(code)) if code.isdigit() and int(code) else kind
    if step == "exec":  # the helper's exec of bwrap: as Popen's own exec failing is reported
        return f"fork or exec of bubblewrap failed: {code_text}"
    return f"{step} failed: {code_text}"


class StartWindow:
    """One start, whichever way its steps run (`start_window` picks): Popen(window.command(argv),
    preexec_fn=window.preexec_fn, pass_fds=(..., *window.pass_fds)); then `failure(exc)` if Popen
    raised, else `started()`; `close()`. The child reports a failed step on the window's pipe."""

    preexec_fn = None  # what Popen runs in the child between fork and exec

    def __init__(self, join_files: Sequence[str], rlimits: Sequence[tuple[int, int]], uid: int | None,
                 mask: frozenset[int] = frozenset(), *, netns: int | None = None):
        self.join_files, self.rlimits, self.uid, self.mask = list(join_files), list(rlimits), uid, mask
        self.netns = netns  # the slot's network namespace to join (workers/sandbox/netns.py), if any
        self._r, self._w = os.pipe2(os.O_CLOEXEC)  # close-on-exec: bwrap never sees it

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """The window's own descriptors the child keeps (it closes the namespace's once joined)."""
        return () if self.netns is None else (self.netns,)

    def command(self, argv: Sequence[str]) -> list[str]:
        return list(argv)

    def failure(self, exc: BaseException) -> str:
        """What failed, for a Popen that raised `exc`: the child's step and errno, or the exec's."""
        os.close(self._w)
        self._w = -1
        with contextlib.suppress(OSError):
            os.set_blocking(self._r, False)
            said = _said(os.read(self._r, 4096))
            if said:
                return said
        if isinstance(exc, OSError):  # the child ran every step: the exec itself failed
            return f"fork or exec of bubblewrap failed: {errno_name(exc.errno)}"
        return f"start failed: {type(exc).__name__}"

    def started(self) -> str | None:
        """After Popen returned: None once bwrap is exec'd, or what failed."""
        return None  # Popen returns only after its child's exec, or raises

    def close(self) -> None:
        for fd in (self._r, self._w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._r = self._w = -1


class PythonWindow(StartWindow):
    """The steps in Python, in the child of a fork (`preexec`): where no start helper could be built."""

    @property
    def preexec_fn(self):
        return self.preexec

    def preexec(self) -> None:
        """Runs in the child between fork and exec.

        Joining the cgroups here, before anything of the bot runs, means no process of it can ever be
        outside them; doing the uid drop here too saves the two helper execs (setpriv, prlimit) that
        would cost ~1.5 ms of start-up each."""
        step = "signals"
        try:
            for sig in STOP_SIGNALS:
                signal.signal(sig, signal.SIG_IGN)  # drops one that arrived since the fork
                signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)
            for path in self.join_files:
                step = f"cgroup join ({_hierarchy(path)})"
                fd = os.open(path, os.O_WRONLY)
                os.write(fd, b"0")  # "0": this thread, i.e. this whole fresh process (see join_files)
                os.close(fd)
            for which, value in self.rlimits:
                step = f"setrlimit {_RLIMIT_NAMES.get(which, which)}"
                resource.setrlimit(which, (value, value))
            if self.netns is not None:  # while still privileged: joining needs CAP_SYS_ADMIN
                step = "network namespace"
                _setns(self.netns)
                os.close(self.netns)  # bwrap and the bot never hold it
            if self.uid is not None:
                step = "setgroups"
                os.setgroups([])
                step = "setresgid"
                os.setresgid(self.uid, self.uid, self.uid)
                step = "capability bounding set"
                for cap in range(_CAP_LAST + 1):
                    if _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != errno.EINVAL:
                        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
                step = "setresuid"
                os.setresuid(self.uid, self.uid, self.uid)  # clears the permitted and effective capabilities
        except BaseException as exc:
            code = getattr(exc, "errno", None)
            with contextlib.suppress(BaseException):
                os.write(self._w, f"{step}\0{code or 0}\0{type(exc).__name__}".encode())
            raise


class HelperWindow(StartWindow):
    """The steps in C, by the start helper (workers/sandbox/spawn_helper.py) that Popen runs after a
    vfork: the command goes through it, and `started()` waits for its exec of bwrap or its report."""

    def __init__(self, join_files: Sequence[str], rlimits: Sequence[tuple[int, int]], uid: int | None,
                 mask: frozenset[int] = frozenset(), *, helper: str, netns: int | None = None):
        super().__init__(join_files, rlimits, uid, mask, netns=netns)
        self.helper = helper

    @property
    def pass_fds(self) -> tuple[int, ...]:
        return (self._w, *super().pass_fds)  # the helper makes its pipe close-on-exec again

    def helper_options(self) -> list[str]:
        """The helper's options for this start's steps (spawn.c's usage)."""
        options = [str(self._w)]
        for sig in sorted(self.mask):
            options += ["-m", str(int(sig))]
        for path in self.join_files:
            options += ["-j", _hierarchy(path), path]
        for which, value in self.rlimits:
            options += ["-r", _RLIMIT_NAMES.get(which, str(which)), str(which), str(value)]
        if self.netns is not None:
            options += ["-n", str(self.netns)]
        if self.uid is not None:
            options += ["-u", str(self.uid)]
        return options

    def command(self, argv: Sequence[str]) -> list[str]:
        return [self.helper, *self.helper_options(), "--", *argv]

    def started(self) -> str | None:
        """Waits for the helper's exec of bwrap (EOF on the pipe: its few system calls) or its report;
        on a report the helper exits."""
        os.close(self._w)
        self._w = -1
        data = b""
        while chunk := os.read(self._r, 4096):
            data += chunk
        return _said(data) or None


def start_window(join_files: Sequence[str], rlimits: Sequence[tuple[int, int]], uid: int | None,
                 mask: frozenset[int] = frozenset(), helper: str | None = None,
                 netns: int | None = None) -> StartWindow:
    """The start helper's window where there is one (`helper`: its path), else Python's."""
    if helper:
        return HelperWindow(join_files, rlimits, uid, mask, helper=helper, netns=netns)
    return PythonWindow(join_files, rlimits, uid, mask, netns=netns)
