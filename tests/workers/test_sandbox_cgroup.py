"""Per-bot cgroups: limits written, freezing, emptying, removal, and sweeping dead workers' groups."""

from __future__ import annotations

import subprocess
import time

import pytest

from workers import sandbox_cgroup


@pytest.fixture
def group(strict_sandbox):
    g = sandbox_cgroup.BotCgroup.create(0, memory_bytes=64 << 20, pids=10, cpus=0.5)
    yield g
    g.kill_all()
    g.remove()


def test_limits_are_written(group):
    p = group.paths
    assert int((p["memory"] / "memory.limit_in_bytes").read_text()) == 64 << 20
    assert int((p["pids"] / "pids.max").read_text()) == 10
    assert int((p["cpu"] / "cpu.cfs_quota_us").read_text()) == 50_000
    assert group.events()["oom_kills"] == 0


def test_join_freeze_kill_remove(group):
    join = ";".join(f"echo 0 > {f}" for f in group.join_files())  # as the sandbox's child does
    proc = subprocess.Popen(["sh", "-c", f"{join}; exec sleep 60"])
    deadline = time.monotonic() + 5
    while proc.pid not in group.pids() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert group.pids() == [proc.pid]
    assert group.freeze()
    assert (group.paths["freezer"] / "freezer.state").read_text().strip() == "FROZEN"
    group.thaw()
    assert group.kill_all()
    assert proc.wait(timeout=5) == -9
    assert group.remove()
    assert not any(path.exists() for path in group.paths.values())


def test_sweep_removes_only_groups_of_dead_owners(strict_sandbox):
    mine = sandbox_cgroup.BotCgroup.create(1, memory_bytes=64 << 20, pids=10, cpus=1)
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead_pid = gone.pid  # an owner that no longer exists
    parents = sandbox_cgroup.parent_dirs()
    stale = {c: parent / f"bot-{dead_pid}-1-s7-deadbeef" for c, parent in parents.items()}
    for path in stale.values():
        path.mkdir()
    try:
        sandbox_cgroup.sweep_stale()  # (a concurrent worker's sweep may beat us to it: same outcome)
        assert not any(p.exists() for p in stale.values())
        assert all(p.exists() for p in mine.paths.values())
    finally:
        mine.remove()
