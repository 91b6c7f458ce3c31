"""What the suite's own processes left behind: sandbox processes still running at the end of the
session, whose parent (a worker, a `ladder up`, a bench process) died without taking them along.

Attribution, without guessing from names or times (other suites run sandboxes on the same machine
at the same time): every pytest process of the run (the controller and each xdist worker) makes
itself a child subreaper at configure time. An orphan is reparented to its nearest living
subreaper ancestor, so whatever a process started by this run leaves behind, however deep
(a Celery pool process's bots, via its Celery main process, itself a subreaper, once that one is
gone too), ends up as a child of one of this run's pytest processes, never of another run's. At
the end each pytest process looks only at its own children: a bubblewrap process there that no
BotProcess of its own still holds (workers/sandbox/reap.py's exemption) is an orphan of this
run; so is a sandbox warden still running after the grace. Processes killed but not yet gone get
GRACE_S to die (and are reaped meanwhile); frozen ones never do, which is the failure looked for.

Empty groups whose owner is dead (a hold group, say) carry no process and so no attribution: they
are not counted. What is found is reported, then killed (thawed first, so that it dies) and reaped.
An xdist worker writes its findings to the run's folder (LADDER_TEST_LEFTOVERS_DIR, made by the
controller, inherited by its workers); the controller reads them after every worker is done.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
import time
from pathlib import Path

from workers.sandbox import reap as sandbox_reap
from workers.sandbox.process import _tree_pids  # a process and its descendants, from /proc

GRACE_S = 15.0  # a killed worker's bots die within moments (the warden thaws them): this is slack
ENV = "LADDER_TEST_LEFTOVERS_DIR"


def start_run() -> None:
    """At configure, in every pytest process: adopt this run's orphans; the controller makes the folder."""
    sandbox_reap.become_subreaper()
    if ENV not in os.environ:
        os.environ[ENV] = tempfile.mkdtemp(prefix="ladder-test-leftovers-")


def _orphans() -> list[int]:
    """Our children that are sandbox processes nobody of ours holds (alive, not zombies)."""
    found = []
    with sandbox_reap._lock:
        for pid in sandbox_reap.children():
            if sandbox_reap._held.exempts(pid):
                continue
            info = sandbox_reap.process_state(pid)
            if info is not None and info[0] in ("bwrap", sandbox_reap.WARDEN_COMM) and info[1] != "Z":
                found.append(pid)
    return found


def _describe(pid: int) -> dict:
    out: dict = {"pid": pid}
    with contextlib.suppress(OSError):
        out["args"] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
        out["state"] = (sandbox_reap.process_state(pid) or ("", "?"))[1]
        out["groups"] = [line.split(":", 2)[2] for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
                         if "ladder-sandbox/" in line]
    return out


def _freezer_states(pid: int) -> list[Path]:
    files = []
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            _, names, path = line.split(":", 2)
            if "ladder-sandbox/" in path:
                if "freezer" in names.split(","):
                    files.append(Path("/sys/fs/cgroup/freezer", path.lstrip("/"), "freezer.state"))
                elif names == "":
                    files.append(Path("/sys/fs/cgroup", path.lstrip("/"), "cgroup.freeze"))
    return files


def find(grace: float = GRACE_S) -> list[dict]:
    """This process's share of what the run left, after `grace` for the dying; then cleared away."""
    deadline = time.monotonic() + grace
    while True:
        sandbox_reap.reap_orphans(wardens=False)  # the zombies among them: dead already
        left = _orphans()
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    found = [_describe(pid) for pid in left]
    tree = {(pid, sandbox_reap.start_time(pid)) for root in left for pid in _tree_pids(root)}
    for pid, _ in tree:  # ours: kill, thaw (a frozen task dies only then), reap
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
        for state in _freezer_states(pid):
            with contextlib.suppress(OSError):
                state.write_text("THAWED" if state.name == "freezer.state" else "0")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the inits come to us as their monitors die: reaped too
        sandbox_reap.reap_orphans(wait_any=True, wardens=True, deadline=0)
        if not any(_running(pid, start) for pid, start in tree):
            break
        time.sleep(0.05)
    return found




def _running(pid: int, start: int | None) -> bool:
    state = sandbox_reap.process_state(pid)
    return state is not None and state[1] != "Z" and sandbox_reap.start_time(pid) == start


def record(found: list[dict], name: str) -> None:
    folder = os.environ.get(ENV)
    if found and folder:
        Path(folder, f"{name}.json").write_text(json.dumps(found))


def collect() -> list[dict]:
    """In the controller, after the workers: everything recorded, and the folder removed."""
    folder = os.environ.get(ENV)
    found: list[dict] = []
    if folder and Path(folder).is_dir():
        for path in sorted(Path(folder).glob("*.json")):
            found += json.loads(path.read_text())
            path.unlink()
        with contextlib.suppress(OSError):
            Path(folder).rmdir()
    return found
