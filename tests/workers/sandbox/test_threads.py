"""Math libraries' thread pools follow the bot's CPU quota, not the worker's cores.

OpenBLAS (numpy), OpenMP (torch, scikit-learn) and MKL start one thread per core of the machine
unless told otherwise: on a 64-core worker, one bot would start 64 threads against a pids limit
of 64 and a quota of one core. The sandbox tells them (thread_env in workers/sandbox/bwrap.py).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from needs import unavailable

from ladder.bot import runtimes
from workers.build import runtime_view
from workers.sandbox.bwrap import THREAD_POOL_VARIABLES, thread_env
from workers.sandbox.process import BotProcess, Limits

# Threads of the process after numpy (and torch, where the runtime has it) did work big enough
# for their pools to start; /proc/self/status counts every thread of the process.
PROBE = """
import json, os
import numpy
a = numpy.ones((400, 400))
for _ in range(3):
    a = a @ a / 400.0
seen = {"env": {k: os.environ.get(k) for k in %r}}
try:
    import torch
    t = torch.ones((300, 300))
    for _ in range(3):
        t = t @ t / 300.0
    seen["torch_threads"] = torch.get_num_threads()
except ImportError:
    pass
seen["threads"] = int([l for l in open("/proc/self/status") if l.startswith("Threads:")][0].split()[1])
print(json.dumps(seen), flush=True)
"""


def _probe(runtime_name: str, mode: str, limits: Limits) -> dict:
    runtime = runtimes.BY_NAME[runtime_name]
    ok, why = runtimes.available(runtime)
    if not ok:
        unavailable(f"the {runtime_name} runtime: {why}")
    tree = runtime_view.run_tree(runtime)
    bot = Path(tempfile.mkdtemp(prefix="threads-probe-"))  # under /tmp: the sandbox's uid can reach it
    (bot / runtime.entry).write_text(PROBE % (THREAD_POOL_VARIABLES,))
    for path in (bot, bot / runtime.entry):
        path.chmod(0o755)
    proc = BotProcess.start(list(runtime.run), bot, mode=mode, view=tree, limits=limits)
    try:
        line, reason = proc.read_line(time.monotonic() + 120)
        assert reason == "ok", proc.stderr_tail()
    finally:
        proc.close()
        shutil.rmtree(bot)
    return json.loads(line)


def test_thread_env_pins_every_pool_to_the_quota_rounded_up():
    assert thread_env(1.0) == dict.fromkeys(THREAD_POOL_VARIABLES, "1")
    assert thread_env(0.5)["OMP_NUM_THREADS"] == "1"  # a fraction of a core still runs one thread
    assert thread_env(2.5)["OPENBLAS_NUM_THREADS"] == "3"


def test_a_python_bot_with_one_core_runs_numpy_on_one_thread(strict_sandbox):
    if (os.cpu_count() or 1) < 2:
        unavailable("a machine with at least 2 cores (on one core OpenBLAS starts no pool anyway)")
    seen = _probe("python", strict_sandbox, Limits(cpus=1.0))
    assert set(seen["env"].values()) == {"1"}
    assert seen["threads"] == 1  # unpinned, OpenBLAS alone starts one per core


def test_the_pools_follow_a_larger_quota(strict_sandbox):
    seen = _probe("python", strict_sandbox, Limits(cpus=2.0))
    assert set(seen["env"].values()) == {"2"}


def test_a_python_ml_bot_runs_torch_on_its_quota(strict_sandbox):
    if (os.cpu_count() or 1) < 2:
        unavailable("a machine with at least 2 cores")
    seen = _probe("python-ml", strict_sandbox, Limits(cpus=1.0, memory_bytes=1 << 30))
    assert seen["torch_threads"] == 1
    assert seen["threads"] == 1
