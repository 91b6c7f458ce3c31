"""The cgroup v2 backend: choosing it, finding the worker's delegated group, reading its counters.

The first tests fake the files and run anywhere; the last needs a host whose backend is v2 (the VM
of .ci/vm, which sets LADDER_EXPECT_CGROUP=v2 so that it fails there instead of skipping).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.workers.conftest import stage
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import cgroup_v1 as sandbox_cgroup_v1
from workers.sandbox import cgroup_v2 as sandbox_cgroup_v2
from workers.sandbox.cgroup_v2 import BotCgroup


def test_a_host_with_v1_controllers_uses_v1_even_with_a_cgroup2_beside_them(monkeypatch):
    monkeypatch.setattr(sandbox_cgroup_v1, "mounted", lambda: None)
    monkeypatch.setattr(sandbox_cgroup_v2, "mounted", lambda: None)
    sandbox_cgroup.backend.cache_clear()
    try:
        assert sandbox_cgroup.backend() == "v1"
        assert sandbox_cgroup.BotCgroup is sandbox_cgroup_v1.BotCgroup
        sandbox_cgroup.backend.cache_clear()
        monkeypatch.setattr(sandbox_cgroup_v1, "mounted", lambda: "cgroup v1 controller 'memory' is not mounted")
        assert sandbox_cgroup.backend() == "v2"
        assert sandbox_cgroup.BotCgroup is sandbox_cgroup_v2.BotCgroup
        sandbox_cgroup.backend.cache_clear()
        monkeypatch.setattr(sandbox_cgroup_v2, "mounted", lambda: "cgroup2 is not mounted")
        assert sandbox_cgroup.backend() is None
        assert sandbox_cgroup.unavailable_reason() == (
            "no usable cgroups: cgroup v1 controller 'memory' is not mounted, and cgroup2 is not mounted")
    finally:
        sandbox_cgroup.backend.cache_clear()


@pytest.mark.parametrize(("own", "expected"), [
    ("/", "/mnt/cg"),
    ("/system.slice/ladder-worker.service", "/mnt/cg/system.slice/ladder-worker.service"),
    ("/system.slice/w.service/ladder-worker", "/mnt/cg/system.slice/w.service"),  # a forked pool process
])
def test_the_delegated_group_is_the_workers_own_or_its_leafs_parent(monkeypatch, own, expected):
    monkeypatch.setattr(sandbox_cgroup_v2, "_mount_point", lambda: Path("/mnt/cg"))
    monkeypatch.setattr(sandbox_cgroup_v2, "_own_path", lambda: own)
    sandbox_cgroup_v2._own_dir.cache_clear()
    try:
        assert sandbox_cgroup_v2.own_dir() == Path(expected)
        assert sandbox_cgroup_v2.parent_dir() == Path(expected) / "ladder-sandbox"
    finally:
        sandbox_cgroup_v2._own_dir.cache_clear()


def test_missing_controllers_are_named(monkeypatch, tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io\n")
    monkeypatch.setattr(sandbox_cgroup_v2, "_mount_point", lambda: tmp_path)
    monkeypatch.setattr(sandbox_cgroup_v2, "own_dir", lambda: tmp_path)
    assert "memory, pids not delegated" in sandbox_cgroup_v2.mounted()
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids rdma misc\n")
    assert sandbox_cgroup_v2.mounted() is None


def test_a_process_of_another_pid_namespace_in_the_group_is_refused_at_once(monkeypatch, tmp_path):
    """It reads as pid 0 (the reaping test's `unshare` did): it cannot be moved out of the way of the
    controllers, and writing "0" would move the worker itself; before, set-up spun for 5 s per try."""
    (tmp_path / "cgroup.type").write_text("domain\n")  # not the real root: the worker must vacate
    (tmp_path / "cgroup.procs").write_text("0\n4242\n")
    monkeypatch.setattr(sandbox_cgroup_v2, "own_dir", lambda: tmp_path)
    start = time.monotonic()
    with pytest.raises(sandbox_cgroup.CgroupError, match="outside this worker's pid namespace"):
        sandbox_cgroup_v2.prepare()
    assert time.monotonic() - start < 1
    assert not (tmp_path / "ladder-worker" / "cgroup.procs").exists()  # nothing was written to move


def test_counters_come_from_memory_events_pids_events_and_cpu_stat(tmp_path):
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\noom_group_kill 0\n")
    (tmp_path / "pids.events").write_text("max 5\n")
    (tmp_path / "memory.peak").write_text("100663296\n")
    (tmp_path / "cpu.stat").write_text("usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\n")
    (tmp_path / "cgroup.freeze").write_text("0\n")
    group = BotCgroup(tmp_path)
    assert group.events() == {"oom_kills": 1, "memory_failcnt": 17, "ooms": 2, "pids_refused": 5,
                              "memory_peak_bytes": 100663296}
    assert group.cpu_seconds() == 1.234567
    assert group.join_files() == [str(tmp_path / "cgroup.procs")]
    assert group.freeze(wait=False)
    assert (tmp_path / "cgroup.freeze").read_text()[0] == "1"
    group.thaw()
    assert (tmp_path / "cgroup.freeze").read_text()[0] == "0"
    group.close_files()


# A worker in a group of its own beside another process (as in a container or a systemd unit), which
# forks a pool process that starts a strict bot: where everything lands.
DELEGATED = textwrap.dedent("""
    import json, os, sys, time
    from pathlib import Path
    from workers.sandbox import cgroup as sandbox_cgroup
    from workers.sandbox.process import PYTHON, BotProcess

    r, w = os.pipe()
    if os.fork() == 0:  # the pool process
        bp = BotProcess.start([PYTHON, "bot.py"], sys.argv[1], mode="strict")
        line = bp.read_line(time.monotonic() + 60)
        group = bp._cgroup.path
        frozen = bp.freeze()
        out = {"line": line[0].decode(), "group": str(group), "frozen": frozen,
               "own": str(sandbox_cgroup.own_dir()),
               "self": Path("/proc/self/cgroup").read_text().strip()}
        bp.close()
        out["clean"], out["left"] = bp.clean, group.exists()
        os.write(w, json.dumps(out).encode())
        os._exit(0)
    os.wait()
    print(os.read(r, 65536).decode())
""")


def test_a_worker_in_a_delegated_group_moves_into_a_leaf_and_its_bots_beside_it(strict_sandbox):
    expected = os.environ.get("LADDER_EXPECT_CGROUP")
    if sandbox_cgroup.backend() != "v2":
        assert expected in (None, sandbox_cgroup.backend()), f"this host's backend is {sandbox_cgroup.backend()}"
        pytest.skip(f"the host's cgroup backend is {sandbox_cgroup.backend()}; the VM stage (.ci/vm) runs this on v2")
    delegated = sandbox_cgroup.own_dir() / f"delegated-test-{os.getpid()}"
    delegated.mkdir()
    d = stage({"bot.py": "import sys\nprint('up', flush=True)\nsys.stdin.readline()\n"})
    neighbour = None
    try:
        join = delegated / "cgroup.procs"
        neighbour = subprocess.Popen(["sh", "-c", f"echo 0 > {join}; exec sleep 600"])
        deadline = time.monotonic() + 60  # a shell's start took over 10 s in the VM on a loaded machine
        while str(neighbour.pid) not in join.read_text().split() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert str(neighbour.pid) in join.read_text().split()  # else it has nothing to show
        worker = subprocess.run(
            [sys.executable, "-c", DELEGATED, str(d)], capture_output=True, text=True, timeout=120,
            preexec_fn=lambda: join.write_text("0"))
        assert worker.returncode == 0, worker.stderr[-3000:]
        out = json.loads(worker.stdout.strip().splitlines()[-1])
        assert out["line"] == "up" and out["frozen"] and out["clean"] and not out["left"]
        assert out["own"] == str(delegated)  # the pool process, in the leaf, works under its parent
        assert out["self"] == f"0::/{delegated.relative_to(sandbox_cgroup_v2._mount_point())}/ladder-worker"
        assert Path(out["group"]).parent == delegated / "ladder-sandbox"
        # the neighbour was moved into the leaf too: no process may stay where controllers are handed on
        assert (delegated / "cgroup.procs").read_text() == ""
        assert str(neighbour.pid) in (delegated / "ladder-worker" / "cgroup.procs").read_text().split()
        assert {"memory", "pids", "cpu"} <= set((delegated / "cgroup.subtree_control").read_text().split())
    finally:
        shutil.rmtree(d, ignore_errors=True)
        if neighbour is not None:
            neighbour.kill()
            neighbour.wait()
        # The pool process's sandbox warden (workers/sandbox/warden.py) lives in the leaf it was
        # moved to and exits once it has swept after its owner: a group empties before it goes.
        dirs = [*sorted((p for p in delegated.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)), delegated]
        deadline = time.monotonic() + 30
        while any((p / "cgroup.procs").read_text().split() for p in dirs) and time.monotonic() < deadline:
            time.sleep(0.05)
        for path in dirs:
            path.rmdir()
