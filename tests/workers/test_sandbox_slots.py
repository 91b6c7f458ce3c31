"""Slot leases: one running bot per uid."""

from __future__ import annotations

import os

import pytest

from workers import sandbox_slots


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
