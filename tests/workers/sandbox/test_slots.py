"""Slot leases: one running bot per uid."""

from __future__ import annotations

import os

import pytest

from workers.sandbox import slots as sandbox_slots


@pytest.fixture
def lease_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox_slots, "LEASE_DIR", tmp_path / "leases")
    return tmp_path / "leases"


def test_leases_are_exclusive_until_released(lease_dir):
    a = sandbox_slots.acquire()
    b = sandbox_slots.acquire()
    assert (a.slot, b.slot) == (0, 1)
    assert (a.uid, b.uid) == (sandbox_slots.UID_BASE, sandbox_slots.UID_BASE + 1)
    with pytest.raises(sandbox_slots.SlotBusy):
        sandbox_slots.acquire(1)
    a.release()
    a.release()  # twice is harmless
    c = sandbox_slots.acquire()
    assert c.slot == 0
    b.release()
    c.release()


def test_lease_dir_is_private(lease_dir):
    sandbox_slots.acquire(5).release()
    assert os.stat(lease_dir).st_mode & 0o077 == 0


def test_slot_range_checked(lease_dir):
    with pytest.raises(ValueError):
        sandbox_slots.acquire(sandbox_slots.MAX_SLOTS)


def test_a_dead_holders_slot_waits_until_its_processes_are_gone(lease_dir, monkeypatch):
    lease_dir.mkdir(mode=0o700)
    (lease_dir / "slot-0.lock").write_text("12345")  # a holder that died without releasing
    busy = {sandbox_slots.UID_BASE}
    monkeypatch.setattr(sandbox_slots, "uid_has_processes", lambda uid: uid in busy)
    lease = sandbox_slots.acquire()
    assert lease.slot == 1  # slot 0's uid still has processes
    with pytest.raises(sandbox_slots.SlotBusy):
        sandbox_slots.acquire(0)
    busy.clear()
    again = sandbox_slots.acquire(0)
    assert (lease_dir / "slot-0.lock").read_text() == str(os.getpid())
    again.release()
    assert (lease_dir / "slot-0.lock").read_text() == ""  # released clean
    lease.release()


def test_uid_scan_sees_our_own_uid():
    assert sandbox_slots.uid_has_processes(os.getuid())
    assert not sandbox_slots.uid_has_processes(sandbox_slots.UID_BASE + sandbox_slots.MAX_SLOTS + 7)
