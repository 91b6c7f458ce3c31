"""`ladder ...` with faults injected, for tests/workers/queue/test_chaos.py (run as a script, never imported).

    python tests/workers/queue/chaos_worker.py worker -c 2 ...

Environment:
- LADDER_CHAOS_FILE: faults happen only while this file exists (the test deletes it to stop them).
- LADDER_CHAOS_CLAIM / LADDER_CHAOS_RATINGS: the probability that a pool process SIGKILLs itself
  after taking a message and before claiming its match / after flipping the match to finished and
  writing its seats, before its rating changes (inside the recording transaction). With
  LADDER_CHAOS_GROUP=1 the kill takes the whole worker (its process group) instead of the pool
  process, so the message it held stays unacknowledged in Redis.
- LADDER_CHAOS_PLAY_SECONDS: the runner is replaced by one that "plays" for this long (uniform
  between half and the whole) and reports random ranks, so the test exercises the queue, the
  broker and the database, not the sandbox (tests/workers/queue/test_celery_integration.py kills real
  sandboxed matches). Every kill is logged as "CHAOS kill ..." to stdout.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))



def _armed(name: str) -> bool:
    # the module's own generator: Python reseeds it in every forked pool process
    chaos_file = os.environ.get("LADDER_CHAOS_FILE")
    p = float(os.environ.get(name, "0") or 0)
    return bool(chaos_file) and os.path.exists(chaos_file) and random.random() < p


def _die(where: str, match_id: int) -> None:
    group = os.environ.get("LADDER_CHAOS_GROUP") == "1" and random.random() < 0.5
    print(f"CHAOS kill {'worker' if group else 'pool process'} {os.getpid()} {where} match {match_id}", flush=True)
    if group:
        os.killpg(os.getpgid(0), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)


def fake_run_match(specs, *, seed=1, **_kwargs):
    seconds = float(os.environ.get("LADDER_CHAOS_PLAY_SECONDS", "1"))
    time.sleep(seconds * (0.5 + random.Random(seed).random() / 2))
    n = len(specs)
    order = list(range(n))
    random.Random(seed).shuffle(order)
    seats = [{"seat": i, "bot": f"seat{i}", "status": "ok", "reason": None, "forfeit": False} for i in range(n)]
    results = [{"seat": i, "bot": f"seat{i}", "rank": order.index(i) + 1, "score": n - order.index(i)}
               for i in range(n)]
    return SimpleNamespace(replay={"seats": seats, "results": results})


def install() -> None:
    import ladder.services.results as results
    import workers.match.runner as runner
    import workers.queue.jobs as jobs

    runner.run_match = fake_run_match
    real_claim, real_ratings = jobs.claim_match, results.apply_ratings

    def claim(*, session, match_id, worker_id, **kwargs):
        if _armed("LADDER_CHAOS_CLAIM"):
            _die("between taking the message and claiming", match_id)
        return real_claim(session=session, match_id=match_id, worker_id=worker_id, **kwargs)

    def ratings(session, match, seats, sequence, now):
        if _armed("LADDER_CHAOS_RATINGS"):
            _die("between recording the result and its ratings", match.id)
        return real_ratings(session, match, seats, sequence, now)

    jobs.claim_match = claim
    results.apply_ratings = ratings


if __name__ == "__main__":
    install()  # before the pool forks: every pool process inherits the patches
    from ladder.cli import main

    sys.argv = ["ladder", *sys.argv[1:]]
    main()
