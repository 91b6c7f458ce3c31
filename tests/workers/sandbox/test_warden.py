"""A process that starts strict bots and is SIGKILLed while they are frozen (as a worker killed
mid-match: every seat but the deciding one is frozen) leaves no bot process and no cgroup behind:
its warden (workers/sandbox/warden.py) thaws, kills and removes them. Why it takes a warden: a
frozen task on cgroup v1 does not die of SIGKILL until thawed. And with the warden left out, the
session's end check (tests/leftovers.py) finds the killed worker's frozen bots as this run's.

The "worker" here is a small script (WORKER) in a session of its own, killed with its whole process
group as tests/workers/queue/test_celery_integration.py kills a Celery worker.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import leftovers
from service_support import proc_of, still_running

from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox.reap import WARDEN_COMM, process_state

SETTLE_S = 30.0  # a bound against a hang only: the warden acts the moment its owner's pidfd says so

WORKER = r'''
import json, sys
from pathlib import Path
from workers.sandbox import warden
from workers.sandbox.process import PYTHON, BotProcess

if sys.argv[2] == "without":
    warden.ensure = lambda: None  # the old behaviour: nothing outlives the worker to thaw its bots
bots = [BotProcess.start([PYTHON, "-E", "-s", "main.py"], sys.argv[1], mode="strict") for _ in range(2)]
for bp in bots:
    line, reason = bp.read_line(__import__("time").monotonic() + 60)
    assert reason == "ok", (reason, bp.stderr_tail())
    assert bp.freeze(), "not frozen"
print(json.dumps({"pids": sorted(p for bp in bots for p in bp.pids()),
                  "groups": [str(p) for bp in bots for p in bp._cgroup.paths.values()]}), flush=True)
sys.stdin.read()  # until killed
'''


def _run_worker(bot_dir: Path, warden: str) -> tuple[subprocess.Popen, dict]:
    proc = subprocess.Popen([sys.executable, "-c", WORKER, str(bot_dir), warden], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, start_new_session=True)
    line = proc.stdout.readline()
    assert line, f"the worker script failed (exit {proc.wait()})"
    return proc, json.loads(line)


def _frozen(paths: list[str]) -> list[str]:
    out = []
    for path in paths:
        state = Path(path, "freezer.state")
        if state.exists() and state.read_text().strip() != "THAWED":
            out.append(path)
    return out


def _leftovers(owner: int, procs: set, groups: list[str]) -> tuple[list, list[str], list[str]]:
    freezer = sandbox_cgroup.backend() == "v1" and Path(sandbox_cgroup.sandbox_cgroup_v1.parent_dirs()["freezer"])
    holds = [e.path for e in os.scandir(freezer) if e.name.startswith(f"hold-{owner}-")] if freezer else []
    return ([p for p in procs if still_running(p)], [g for g in groups if Path(g).exists()],
            holds + sandbox_cgroup.owned_groups(owner))


def _bot_dir() -> Path:
    bot_dir = Path(tempfile.mkdtemp(prefix="ladder-test-warden-", dir="/tmp"))
    bot_dir.chmod(0o755)  # the sandbox's uid must reach it
    (bot_dir / "main.py").write_text("import time\nprint('up', flush=True)\ntime.sleep(600)\n")
    (bot_dir / "main.py").chmod(0o644)
    return bot_dir


def test_a_worker_killed_while_its_bots_are_frozen_leaves_nothing(strict_sandbox):
    bot_dir = _bot_dir()
    worker, made = _run_worker(bot_dir, "with")
    owner = worker.pid
    procs = {p for p in map(proc_of, made["pids"]) if p is not None}
    assert len(procs) >= 4 and _frozen(made["groups"]), made  # monitor, init, bot per seat; frozen
    wardens = _children_named(owner, WARDEN_COMM)
    assert wardens, "the worker started no warden"
    os.killpg(owner, signal.SIGKILL)  # the whole worker at once, as if the kernel's OOM killer took it
    worker.wait(timeout=30)
    procs |= set(wardens)  # it too is gone once it has swept
    deadline = time.monotonic() + SETTLE_S
    try:
        while any(_leftovers(owner, procs, made["groups"])) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _leftovers(owner, procs, made["groups"]) == ([], [], []), "left behind by a killed worker"
    finally:
        sandbox_cgroup.sweep_stale()  # what a later worker's start does: nothing of this test stays
        shutil.rmtree(bot_dir, ignore_errors=True)


def test_a_frozen_bot_does_not_die_of_sigkill_until_thawed(strict_sandbox, kit):
    """Why the warden is needed: --die-with-parent's SIGKILL cannot end a frozen bot on cgroup v1.
    (Shown on a live owner's bot: nobody's sweep touches its groups meanwhile.)"""
    bp = kit.start("import time\nprint('up', flush=True)\ntime.sleep(600)\n", mode=strict_sandbox)
    assert bp.read_line(time.monotonic() + 30) == (b"up", "ok")
    assert bp.freeze()
    procs = {p for p in map(proc_of, bp.pids()) if p is not None}
    for pid, _ in procs:
        os.kill(pid, signal.SIGKILL)
    time.sleep(1.0)  # far longer than a thawed process takes to die of it
    alive = [p for p in procs if still_running(p)]
    if sandbox_cgroup.backend() == "v1":
        assert alive and sorted(alive) == sorted(procs), "a frozen v1 task died of SIGKILL"
    bp.thaw()
    deadline = time.monotonic() + SETTLE_S
    while [p for p in procs if still_running(p)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in procs if still_running(p)] == []  # thawed, the pending SIGKILL lands


def test_the_session_check_finds_and_clears_what_a_killed_worker_left(strict_sandbox):
    """tests/leftovers.py, the check at the end of the session: the frozen bots of a worker killed
    without its warden are this run's orphans (this process adopts them as a subreaper); found, and
    gone once found. Another process's sweep may get to them first (it takes any dead owner's
    groups): then there is less to find, never a false finding."""
    bot_dir = _bot_dir()
    worker, made = _run_worker(bot_dir, "without")
    procs = {p for p in map(proc_of, made["pids"]) if p is not None}
    try:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
        time.sleep(0.5)
        monitors = {pid for pid, _ in procs if _parent(pid) == os.getpid() and still_running(proc_of(pid))}
        found = {item["pid"] for item in leftovers.find(grace=1.0)}
        # One not found must have been swept by another process meanwhile (a sweep removes the
        # groups; the check does not): never a false failure for a sweep that came first.
        swept = any(not Path(g).exists() for g in made["groups"] if "/freezer/" in g)
        assert monitors <= found or swept, (monitors, found)
        deadline = time.monotonic() + SETTLE_S  # what another sweep killed may still be dying
        while [p for p in procs if still_running(p)] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p for p in procs if still_running(p)] == []
    finally:
        sandbox_cgroup.sweep_stale()
        shutil.rmtree(bot_dir, ignore_errors=True)


def _children_named(pid: int, comm: str) -> list:
    """The warden is started at the first bot's start; its name is set once its Python is up."""
    deadline = time.monotonic() + SETTLE_S
    while time.monotonic() < deadline:
        found = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                if (process_state(int(child)) or ("",))[0] == comm:
                    found.append(proc_of(int(child)))
        if found:
            return found
        time.sleep(0.05)
    return []


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def test_the_session_check_counts_only_this_run_s_orphans(tmp_path):
    """Attribution by parentage alone, deterministically: a process named bwrap orphaned by a child
    of this process comes to this process (a subreaper since configure: tests/leftovers.py), and is
    found and killed. (One orphaned by a process outside this run goes to that process's own
    subreaper or to PID 1, never to us.)"""
    fake = tmp_path / "bwrap"  # its comm is what the check looks at
    shutil.copy(shutil.which("sleep"), fake)
    orphaner = subprocess.run(
        ["sh", "-c", f'"{fake}" 600 >/dev/null 2>&1 </dev/null & echo $!'], capture_output=True, text=True, timeout=30)
    orphan = proc_of(int(orphaner.stdout.split()[0]))
    deadline = time.monotonic() + SETTLE_S
    while _parent(orphan[0]) != os.getpid() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _parent(orphan[0]) == os.getpid()  # adopted: this run's
    found = [item["pid"] for item in leftovers.find(grace=0.2)]
    assert orphan[0] in found and not still_running(orphan)
