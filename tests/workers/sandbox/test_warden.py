"""A process that starts strict bots and is SIGKILLed while they are frozen (as a worker killed
mid-match: every seat but the deciding one is frozen) leaves no bot process and no cgroup behind:
its warden (workers/sandbox/warden.py) thaws, kills and removes them. And the warden is what does
it: with the warden left out, the same kill leaves the frozen bots running (a frozen task on cgroup
v1 does not die of SIGKILL until thawed), which this test sweeps away itself.

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

import pytest
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


@pytest.mark.parametrize("warden", ["with", "without"])
def test_a_worker_killed_while_its_bots_are_frozen_leaves_nothing(strict_sandbox, warden):
    bot_dir = Path(tempfile.mkdtemp(prefix="ladder-test-warden-", dir="/tmp"))
    bot_dir.chmod(0o755)  # the sandbox's uid must reach it
    (bot_dir / "main.py").write_text("import time\nprint('up', flush=True)\ntime.sleep(600)\n")
    (bot_dir / "main.py").chmod(0o644)
    worker, made = _run_worker(bot_dir, warden)
    owner = worker.pid
    procs = {p for p in map(proc_of, made["pids"]) if p is not None}
    assert len(procs) >= 4 and _frozen(made["groups"]), made  # monitor, init, bot per seat; frozen
    wardens = _children_named(owner, WARDEN_COMM) if warden == "with" else []
    os.killpg(owner, signal.SIGKILL)  # the whole worker at once, as if the kernel's OOM killer took it
    worker.wait(timeout=30)
    deadline = time.monotonic() + SETTLE_S
    try:
        if warden == "with":
            assert wardens, "the worker started no warden"
            procs |= set(wardens)  # it too is gone once it has swept
            while any(_leftovers(owner, procs, made["groups"])) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _leftovers(owner, procs, made["groups"]) == ([], [], []), "left behind by a killed worker"
        else:
            time.sleep(1.0)  # the kill has long landed on every unfrozen process: the frozen ones stay
            left, groups, _ = _leftovers(owner, procs, made["groups"])
            assert left and _frozen(groups), "frozen bots died of a SIGKILL: the warden would not be needed"
    finally:
        sandbox_cgroup.sweep_stale()  # what a later worker's start does: nothing of this test stays
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
