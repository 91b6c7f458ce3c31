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


def _spin_in(group):
    join = ";".join(f"echo 0 > {f}" for f in group.join_files())
    return subprocess.Popen(["sh", "-c", f"{join}; while :; do :; done"])


def test_a_table_caps_what_its_bots_use_together(strict_sandbox):
    table = sandbox_cgroup.TableCpuGroup.create(cpus=0.2)
    bots = [sandbox_cgroup.BotCgroup.create(i, memory_bytes=64 << 20, pids=10, cpus=1, table=table) for i in (0, 1)]
    try:
        assert all(b.paths["cpu"].parent == table.path for b in bots)
        assert all(b.paths["memory"].parent == sandbox_cgroup.parent_dirs()["memory"] for b in bots)
        assert int((table.path / "cpu.cfs_quota_us").read_text()) == 20_000
        procs = [_spin_in(b) for b in bots]
        t0 = time.monotonic()
        time.sleep(1.0)
        used = sum(b.cpu_seconds() for b in bots)
        elapsed = time.monotonic() - t0
        throttled = int(dict(line.split() for line in (table.path / "cpu.stat").read_text().splitlines())[
            "nr_throttled"])
        # each bot alone may use a whole core; together they get the table's fifth of one
        assert throttled > 0 and used < 0.2 * elapsed + 0.1, (used, elapsed, throttled)
    finally:
        for b in bots:
            b.kill_all()
            b.remove()
        for p in procs:
            p.wait(timeout=5)
        assert table.remove()
    assert not table.path.exists()


def test_sweep_removes_dead_owners_tables_with_their_bots(strict_sandbox):
    gone = subprocess.Popen(["true"])
    gone.wait()
    parents = sandbox_cgroup.parent_dirs()
    table = parents["cpu"] / f"table-{gone.pid}-1-cafe"
    name = f"bot-{gone.pid}-1-s3-deadbeef"
    stale = {c: (table if c == "cpu" else parent) / name for c, parent in parents.items()}
    live = sandbox_cgroup.TableCpuGroup.create(cpus=1)
    table.mkdir()
    for path in stale.values():
        path.mkdir()
    try:
        sandbox_cgroup.sweep_stale()
        assert not table.exists() and not any(p.exists() for p in stale.values())
        assert live.path.exists()
    finally:
        live.remove()


def test_a_frozen_empty_group_holds_the_freezer_on_until_its_owner_is_gone(strict_sandbox):
    mine = sandbox_cgroup.hold_freezer_on()
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = sandbox_cgroup.parent_dirs()["freezer"] / f"hold-{gone.pid}-1-beef"
    dead.mkdir()
    try:
        assert (mine / "freezer.state").read_text().strip() == "FROZEN"
        sandbox_cgroup.sweep_stale()
        assert mine.exists() and not dead.exists()
    finally:
        mine.rmdir()
