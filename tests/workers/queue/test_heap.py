"""A worker's heap is frozen before its pool forks and at each pool process's start
(workers/queue/heap.py). Each test runs in a process of its own: a freeze lasts a process's life."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import gc, json, sys
from workers.queue import heap
before = gc.get_freeze_count()
{body}
print(json.dumps({{"before": before, "frozen": gc.get_freeze_count(), "walked": len(gc.get_objects()),
                  "modules": sorted(m for m in ("workers.match.runner", "workers.queue.jobs",
                                                "ladder.games.drachengold", "ladder.games.treasure",
                                                "ladder.games.dragonflame") if m in sys.modules)}}))
"""


def run(body: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(body=body)], capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_pool_process_start_freezes_what_a_match_needs_so_collections_walk_only_new_objects():
    unfrozen = run("pass")
    after = run("heap.freeze_for_matches()")
    assert unfrozen["frozen"] == 0
    assert after["modules"] == ["ladder.games.drachengold", "ladder.games.dragonflame", "ladder.games.treasure",
                                "workers.match.runner", "workers.queue.jobs"]
    # the runner, the jobs and every game: tens of thousands of objects the collector no longer walks
    assert after["frozen"] > 20_000
    assert after["walked"] < after["frozen"] / 20


def test_the_worker_signals_freeze_the_parent_before_the_fork_and_each_pool_process_at_its_start():
    parent = run("heap.install()\nfrom celery.signals import worker_init\nworker_init.send(sender=None)")
    child = run("heap.install()\nfrom celery.signals import worker_process_init\nworker_process_init.send(sender=None)")
    assert parent["before"] == child["before"] == 0
    assert parent["frozen"] > 0
    assert child["frozen"] > parent["frozen"]  # the pool process imported what a match needs first
    assert "workers.match.runner" in child["modules"] and "workers.match.runner" not in parent["modules"]
