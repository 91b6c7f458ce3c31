"""Leases on per-slot uids, so no two running bots on this machine ever share a uid.

A shared uid would share the per-uid process count (RLIMIT_NPROC) and could signal or read the other
bot's processes. A lease is an flock on a file under a root-only directory; the kernel releases it
when the worker dies, so a crashed worker never leaks slots. The file holds the holder's pid until a
clean release empties it: a slot found "dirty" (its last holder died) is only handed out again once
no process of its uid is left (a dead worker's bots may take a moment to die).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

UID_BASE = 62000
MAX_SLOTS = 1000
LEASE_DIR = Path("/run/ladder-sandbox")


class SlotBusy(RuntimeError):
    pass


class SlotLease:
    def __init__(self, slot: int, fd: int):
        self.slot = slot
        self.uid = self.gid = UID_BASE + slot
        self._fd = fd

    def release(self) -> None:
        """Call only once no process of the uid is left."""
        if self._fd >= 0:
            os.ftruncate(self._fd, 0)  # clean: the next holder need not look for leftovers
            os.close(self._fd)  # closing drops the flock
            self._fd = -1


def uid_has_processes(uid: int) -> bool:
    """Whether any process (zombies included) runs as `uid`; a /proc scan, so only for dirty slots."""
    wanted = str(uid)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status") as f:
                    for line in f:
                        if line.startswith("Uid:"):
                            if wanted in line.split()[1:]:
                                return True
                            break
            except OSError:
                continue
    return False


def _try_lock(slot: int) -> SlotLease | None:
    fd = os.open(LEASE_DIR / f"slot-{slot}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.pread(fd, 32, 0) and uid_has_processes(UID_BASE + slot):
            raise BlockingIOError  # dirty, and the dead holder's bots are still dying
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
    except BlockingIOError:
        os.close(fd)
        return None
    return SlotLease(slot, fd)


def acquire(slot: int | None = None) -> SlotLease:
    """Lease `slot`, or the lowest free slot when None."""
    LEASE_DIR.mkdir(mode=0o700, exist_ok=True)
    if slot is not None:
        if not 0 <= slot < MAX_SLOTS:
            raise ValueError(f"slot must be in [0, {MAX_SLOTS})")
        lease = _try_lock(slot)
        if lease is None:
            raise SlotBusy(f"slot {slot} (uid {UID_BASE + slot}) is in use by another running bot")
        return lease
    for candidate in range(MAX_SLOTS):
        lease = _try_lock(candidate)
        if lease is not None:
            return lease
    raise SlotBusy("no free sandbox slot")
