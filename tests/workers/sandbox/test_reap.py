"""Nothing a match starts is reparented outside the process that played it (workers/sandbox/reap.py).

The end-to-end test plays a few hundred strict matches in a PID namespace whose PID 1 never reaps
anything but its one child, the match loop, so every orphan the sandbox leaves stays visible as a
zombie there. Before the fix each match left one zombie bwrap per bot, and from the ~70th match on
the slot uids' RLIMIT_NPROC refused new bots.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import secrets
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

from tests.needs import unavailable
from tests.workers.conftest import stage
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import reap as sandbox_reap
from workers.sandbox.cgroup_v1 import CGROUP_ROOT, CONTROLLERS
from workers.sandbox.process import PYTHON, BotProcess
from workers.sandbox.slots import MAX_SLOTS, UID_BASE

PR_GET_CHILD_SUBREAPER = 37
# ~0.3-0.5 s each on an idle 2-core machine; before the fix slot uids fill at ~70. The VM stage
# (.ci/vm, software emulation) plays fewer (.ci/vm-guest.sh says how many and why that suffices):
# there it checks the delegated cgroup2 subtree.
MATCHES = int(os.environ.get("LADDER_REAP_TEST_MATCHES", "200"))

# The match loop: runner.run is what `ladder match` and the worker's task call, in one process.
LOOP = textwrap.dedent("""
    import json, os, sys
    from ladder.match import local_plan
    from workers.match.protocol import TimeControl
    from workers.match.runner import run

    def run_specs(specs, *, game, seed, sandbox, clock):
        return run(local_plan(game, specs, seed=seed, sandbox=sandbox, clock=clock))

    # the VM stage's emulation (LADDER_VM_CLOCK=1) can take more than the default 5 s to start a bot
    slow = os.environ.get("LADDER_VM_CLOCK") == "1"
    clock = TimeControl(decision_ms=20_000, bank_ms=120_000, startup_ms=60_000) if slow else None
    spoiled = []
    for seed in range(int(sys.argv[1])):
        try:
            result = run_specs(["builtin:random"] * 4, game="drachengold", seed=seed, sandbox="strict", clock=clock)
            bad = [(r["seat"], r["status"], r["reason"]) for r in result.results if r["status"] != "ok"]
        except Exception as exc:  # a refused start-up is what the test looks for: count it
            bad = [repr(exc)]
        if bad:
            spoiled.append([seed, bad])
    print(json.dumps({"spoiled": len(spoiled), "first": spoiled[:3]}), flush=True)
""")

# PID 1 of the namespace: waits for its own child only (Popen waits on that pid alone), then lists
# what is left in the namespace's /proc.
INIT = textwrap.dedent("""
    import json, os, subprocess, sys
    loop = subprocess.run([sys.executable, "-c", sys.argv[1], sys.argv[2]], stdout=subprocess.PIPE, text=True)
    left = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or name == "1":
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{name}/status") as f:
                uid = int(next(l for l in f if l.startswith("Uid:")).split()[1])
        except (OSError, StopIteration):
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        left.append({"pid": int(name), "comm": comm, "state": state, "ppid": int(ppid), "uid": uid})
    print(json.dumps({"loop": loop.stdout, "loop_status": loop.returncode, "left": left}))
""")


@contextlib.contextmanager
def cgroups_of_its_own() -> Iterator[list[str]]:
    """Groups under ours in every controller, for a namespace's processes to join, as a container's
    are. Bot groups are owned by pid and start time, which only mean something inside one pid
    namespace (workers/sandbox/cgroup.py): sharing `ladder-sandbox` with the namespace, a sweep on
    either side would take the other side's groups for a dead worker's and kill their bots."""
    tag = f"reap-test-{os.getpid()}-{secrets.token_hex(4)}"
    if sandbox_cgroup.backend() == "v2":  # one group, which the namespace's worker delegates from;
        paths = {sandbox_cgroup.own_dir() / tag}  # joined at its worker leaf: the `unshare` outside
        # the namespace joins too, and the worker cannot move a process it sees as pid 0
    else:
        own = sandbox_cgroup._own_paths()
        paths = {(CGROUP_ROOT / c / own.get(c, "/").lstrip("/") / tag) for c in CONTROLLERS}
        paths = {p.resolve() for p in paths if p.parent.is_dir()}  # co-mounted cpu,cpuacct: one group
    for path in paths:
        path.mkdir()
    join = "ladder-worker/cgroup.procs" if sandbox_cgroup.backend() == "v2" else "tasks"
    try:
        for path in paths:
            (path / join).parent.mkdir(exist_ok=True)
        yield [str(path / join) for path in paths]
    finally:
        for path in paths:  # deepest first: bot groups, ladder-sandbox, ours
            for d in sorted((d for d in path.rglob("*") if d.is_dir()), key=lambda d: -len(d.parts)):
                with contextlib.suppress(OSError):
                    d.rmdir()
            with contextlib.suppress(OSError):
                path.rmdir()


def _joining(files: list[str]):
    def run() -> None:
        for name in files:
            fd = os.open(name, os.O_WRONLY)
            os.write(fd, b"0")
            os.close(fd)
    return run


def test_hundreds_of_matches_under_an_init_that_never_reaps(strict_sandbox):
    unshare = shutil.which("unshare")
    if unshare is None:
        unavailable("unshare (util-linux) not found")
    start = time.monotonic()
    with cgroups_of_its_own() as join:
        proc = subprocess.run(
            [unshare, "--pid", "--fork", "--mount-proc", sys.executable, "-c", INIT, LOOP, str(MATCHES)],
            capture_output=True, text=True, timeout=900, preexec_fn=_joining(join),
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["loop_status"] == 0, proc.stderr[-3000:]
    loop = json.loads(out["loop"])
    zombies = [p for p in out["left"] if p["state"] == "Z"]
    slot_processes = [p for p in out["left"] if UID_BASE <= p["uid"] < UID_BASE + MAX_SLOTS]
    assert (zombies, slot_processes) == ([], []), (len(zombies), zombies[:8])
    assert loop == {"spoiled": 0, "first": []}, loop  # every bot of every match started and played
    assert [p["comm"] for p in out["left"]] == [], out["left"]  # the namespace is empty but for PID 1
    print(f"{MATCHES} matches in {time.monotonic() - start:.0f} s")


def test_orphaned_init_of_a_bot_that_exited_is_reaped_by_close(strict_sandbox):
    """A bot that exits by itself: bwrap's monitor exits without waiting for the sandbox's init,
    which comes back to this process (a subreaper) and is gone once close() returns. Run in the
    long-lived pytest process on purpose: a worker's pool process is one too."""
    d = stage({"bot.py": "print('bye', flush=True)\n"})
    try:
        bp = BotProcess.start([PYTHON, "bot.py"], d, mode=strict_sandbox)
        assert bp.read_line(time.monotonic() + 10) == (b"bye", "ok")
        assert bp.read_line(time.monotonic() + 10) == (None, "exited")
        assert bp.close() and bp.clean
        mine = [p for p in sandbox_reap.children() if (sandbox_reap.process_state(p) or ("", "", -1))[2] == bp.uid]
        assert mine == []
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_a_stale_monitor_pid_exempts_no_orphan_from_reaping(strict_sandbox):
    """A monitor pid stays exempt from reaping while its BotProcess waits on it. If the monitor is
    reaped behind its back (a BotProcess dropped without close(): subprocess reaps its Popen's child
    when it next starts one), the pid is freed, and in a long-lived process (pid_max 32768 here)
    it comes round again, maybe as a sandbox init orphaned to us. Keyed by pid alone, that init was
    never reaped: a zombie of its slot uid for the rest of the process, counted against the uid's
    RLIMIT_NPROC by every later bot of the slot. Here the stale entry is made by hand: the init's
    own pid, recorded with another process's start time."""
    d = stage({"bot.py": "print('bye', flush=True)\n"})
    try:
        bp = BotProcess.start([PYTHON, "bot.py"], d, mode=strict_sandbox)
        assert bp.read_line(time.monotonic() + 10) == (b"bye", "ok")
        assert bp.read_line(time.monotonic() + 10) == (None, "exited")
        deadline = time.monotonic() + 10
        while not (inits := [p for p in sandbox_reap.children() if p != bp.pid
                             and (sandbox_reap.process_state(p) or ("", "", -1))[2] == bp.uid]):
            assert time.monotonic() < deadline, "the init never came back to us"
            time.sleep(0.01)
        sandbox_reap._held[inits[0]] = 1  # a monitor that started one clock tick after boot
        assert bp.close() and bp.clean
        mine = [p for p in sandbox_reap.children() if (sandbox_reap.process_state(p) or ("", "", -1))[2] == bp.uid]
        assert mine == []
        assert inits[0] not in sandbox_reap._held
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_reaping_never_takes_a_status_popen_waits_for(strict_sandbox):
    """Zombie children the sandbox did not orphan (here: a plain Popen and a bwrap monitor still
    held) keep their exit status for their own wait()."""
    other = subprocess.Popen(["/bin/sh", "-c", "exit 7"])
    d = stage({"bot.py": "print('bye', flush=True)\n"})
    try:
        bp = BotProcess.start([PYTHON, "bot.py"], d, mode=strict_sandbox)
        assert bp.read_line(time.monotonic() + 10) == (b"bye", "ok")
        deadline = time.monotonic() + 10
        while sandbox_reap.process_state(bp.pid)[1] != "Z" and time.monotonic() < deadline:
            time.sleep(0.01)  # the monitor has exited and is still unwaited
        while sandbox_reap.process_state(other.pid)[1] != "Z" and time.monotonic() < deadline:
            time.sleep(0.01)
        sandbox_reap.reap_orphans(wait_any=True, deadline=time.monotonic() + 2)
        assert other.wait(timeout=5) == 7
        assert bp.read_line(time.monotonic() + 10) == (None, "exited") and bp.exit_code == 0
        assert bp.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)


# `ladder worker`'s main process: its pool process dies mid-match (SIGKILL), the bot's bwrap
# processes come to it and its reaper thread reaps them.
POOL = textwrap.dedent("""
    import json, os, signal, sys, time
    from workers.sandbox import cgroup as sandbox_cgroup, reap as sandbox_reap
    from workers.sandbox.process import PYTHON, BotProcess

    sandbox_reap.start_reaper_thread(interval=0.1)
    ready_r, ready_w = os.pipe()
    pool = os.fork()
    if pool == 0:
        bp = BotProcess.start([PYTHON, "bot.py"], sys.argv[1], mode="strict")
        bp.read_line(time.monotonic() + 20)
        os.write(ready_w, b"x")
        time.sleep(600)
    os.read(ready_r, 1)
    os.kill(pool, signal.SIGKILL)
    os.waitpid(pool, 0)
    adopted, deadline = set(), time.monotonic() + 10
    def warden_starting(pid):  # named "python" until its main renames it (seconds on a slow VM)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                return b"workers.sandbox.warden" in f.read()
        except OSError:
            return False

    while time.monotonic() < deadline:
        # its bwrap processes and its warden (which sweeps the dead pool process's groups, then exits)
        bwraps = [p for p in sandbox_reap.children()
                  if (sandbox_reap.process_state(p) or ("",))[0] in ("bwrap", sandbox_reap.WARDEN_COMM)
                  or warden_starting(p)]
        adopted.update(bwraps)
        if adopted and not bwraps:
            break
        time.sleep(0.02)
    left = [sandbox_reap.process_state(p) for p in sandbox_reap.children()]
    sandbox_cgroup.sweep_stale()  # the dead pool process's bot groups
    print(json.dumps({"adopted": len(adopted), "left": left}))
""")


def test_worker_main_process_reaps_what_a_dead_pool_process_orphaned(strict_sandbox):
    d = stage({"bot.py": "import sys\nprint('up', flush=True)\nsys.stdin.readline()\n"})
    try:
        proc = subprocess.run([sys.executable, "-c", POOL, str(d)], capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["adopted"] >= 1  # the monitor, and the init unless the monitor reaped it first
    assert out["left"] == []


def test_a_process_that_started_a_sandbox_is_a_subreaper(strict_sandbox):
    d = stage({"bot.py": "print('hi', flush=True)\n"})
    try:
        with BotProcess.start([PYTHON, "bot.py"], d, mode=strict_sandbox) as bp:
            assert bp.read_line(time.monotonic() + 10) == (b"hi", "ok")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    flag = ctypes.c_int(0)
    assert sandbox_reap._libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
    assert flag.value == 1


# In a process of its own: the test process may hold zombies of earlier tests (xdist workers do).
WALKS = textwrap.dedent("""
    import json, subprocess, sys, time
    from workers.sandbox import reap

    walks = []
    real_children = reap.children
    reap.children = lambda: walks.append(1) or real_children()
    alive = subprocess.Popen(["sleep", "30"])
    reap.reap_orphans()
    live_only = len(walks)
    done = subprocess.Popen([sys.executable, "-c", "raise SystemExit(5)"])
    while (reap.process_state(done.pid) or ("", "Z"))[1] != "Z":
        time.sleep(0.01)
    reap.reap_orphans()
    print(json.dumps({"live_only": live_only, "exited": len(walks), "status": done.wait(timeout=5)}))
    alive.kill()
""")


def test_reaping_walks_proc_only_when_a_child_has_exited():
    """The zombie-only reap of each start (and of Celery's main process, every second) asks the
    kernel first and walks /proc only when some child has exited; what it finds that the sandbox
    did not orphan keeps its exit status for its own wait()."""
    proc = subprocess.run([sys.executable, "-c", WALKS], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout) == {"live_only": 0, "exited": 1, "status": 5}
