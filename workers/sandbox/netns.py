"""One network namespace per sandbox slot, made once per worker process and joined by every strict
bot the slot runs, instead of a fresh one per bot (bwrap's --unshare-net).

Why: making a network namespace is the dearest single part of a strict start: about 1.2 ms on the
baseline machine, an eighth of a bare Python start, and the kernel spends more CPU on each one's
cleanup later (issue #29; `ladder bench sandbox`).

Why it keeps the bot as isolated as a fresh one: a bot can do nothing in a network namespace but
hold unix sockets there. The seccomp filter refuses every other socket family (seccomp.py), so no
IP, netlink or packet socket is ever made; and the namespace belongs to the host's root, over which
the bot's user namespace has no capability, so it can change no link, address, route or setting.
What a namespace holds for a bot is its abstract unix socket names, and those go with the sockets,
that is with the bot's processes. A slot runs one bot at a time, and its lease is handed out again
only once no process of the slot's uid is left (slots.py): two bots that run at once are always in
different slots, so in different namespaces, and a bot finds nothing of the slot's previous one.
The loopback stays down, as nothing that could use it can be made.

The namespace is made by a short-lived thread (unshare(2) moves only the calling thread) and kept
as a close-on-exec descriptor; the start window joins it before the uid drop (preexec.py, spawn.c)
and closes it, so bwrap and the bot never hold it. Where it cannot be made (no privilege, a kernel
that refuses), starts keep a fresh namespace of bwrap's: slower, never less isolated.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)
_kept: dict[int, int] = {}  # slot -> descriptor of its namespace
_lock = threading.Lock()
_refused: list[str] = []  # why none could be made (said once)


def _after_fork_in_child() -> None:
    # The namespaces stay usable in a forked child (a slot's lease still decides who uses one), but
    # a fork while another thread held the lock would leave the child's copy locked forever.
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _make() -> int:
    """A new, empty network namespace's descriptor (made in a thread of its own, which then ends)."""
    made: dict[str, object] = {}

    def in_thread() -> None:
        try:
            if _libc.unshare(CLONE_NEWNET) != 0:
                code = ctypes.get_errno()
                raise OSError(code, f"unshare(CLONE_NEWNET): {os.strerror(code)}")
            made["fd"] = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            made["error"] = exc

    thread = threading.Thread(target=in_thread, name="ladder-netns", daemon=True)
    thread.start()
    thread.join()
    if "error" in made:
        raise made["error"]  # type: ignore[misc]
    return made["fd"]  # type: ignore[return-value]


def for_slot(slot: int) -> int | None:
    """The descriptor of `slot`'s namespace (made on first use), or None where none can be made:
    the caller then has bwrap make a fresh one. Call only while holding the slot's lease."""
    with _lock:
        fd = _kept.get(slot)
        if fd is None and not _refused:
            try:
                fd = _kept[slot] = _make()
            except OSError as exc:
                _refused.append(str(exc))
                sys.stderr.write(
                    f"ladder: each sandboxed bot gets a network namespace made for it (slower): "
                    f"one per slot could not be made ({exc})\n"
                )
        return fd


def forget() -> None:
    """Close every kept namespace (tests; a process that will start no more bots)."""
    with _lock:
        for fd in _kept.values():
            os.close(fd)
        _kept.clear()
        _refused.clear()
