"""`ladder worker` or `ladder scheduler` with faults injected, for `ladder bench chaos`
(ladder/cli/bench/chaos.py). Run as a script, never imported by the ladder itself:

    python -m ladder.cli.bench.chaos_worker worker -c 2 ...

The matches are real (the real runner, the sandbox, the stored bots); only these kills are added:
- LADDER_CHAOS_FILE: faults happen only while this file exists (the bench deletes it to stop them).
- LADDER_CHAOS_CLAIM / LADDER_CHAOS_RATINGS: the probability that a pool process SIGKILLs itself
  after taking a message and before claiming its match / after flipping the match to finished and
  writing its seats, before its rating changes (inside the recording transaction). Neither point
  has a bot running, so a kill leaves no sandbox behind.
- LADDER_CHAOS_GROUP: the probability that such a kill takes the whole worker (its process group)
  instead of the pool process, so the message it held stays unacknowledged in Redis; when above
  0, the run's first kill always does.
- LADDER_CHAOS_GO_FILE: a spare. It does the slow imports, then waits until this file exists before
  it starts the worker: a killed worker's replacement is ready in about a second, not in the
  seconds Python takes to import the ladder on a loaded machine.
Every kill is logged as "CHAOS kill ..." to stdout, and a worker that is ready to take messages
says "CHAOS ready" (the bench times restarts by it).
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time


def _armed(name: str) -> bool:
    # the module's own generator: Python reseeds it in every forked pool process
    chaos_file = os.environ.get("LADDER_CHAOS_FILE")
    p = float(os.environ.get(name, "0") or 0)
    return bool(chaos_file) and os.path.exists(chaos_file) and random.random() < p


def _first_kill() -> bool:
    """Whether this is the run's first kill (a file made next to the chaos file, by one process
    only): it always takes the whole worker, so every run has a worker to replace. Each kill's kind
    is drawn on its own, and at 0.5 six kills all took pool processes about once in 64 runs, when
    the CI run's check that a killed worker was replaced failed."""
    try:
        os.close(os.open(os.environ["LADDER_CHAOS_FILE"] + ".first-kill", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except (KeyError, OSError):
        return False
    return True


def _die(where: str, match_id: int) -> None:
    p_group = float(os.environ.get("LADDER_CHAOS_GROUP", "0") or 0)
    group = (p_group > 0 and _first_kill()) or random.random() < p_group
    print(f"CHAOS kill {'worker' if group else 'pool process'} {os.getpid()} {where} match {match_id}", flush=True)
    if group:
        os.killpg(os.getpgid(0), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)


def install() -> None:
    """Patch the claim and the ratings write (before the pool forks: every pool process inherits it)."""
    from celery.signals import worker_ready

    import ladder.services.results as results
    import workers.queue.jobs as jobs

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
    worker_ready.connect(lambda **_: print(f"CHAOS ready {os.getpid()}", flush=True), weak=False)


def await_go() -> None:
    """A spare (LADDER_CHAOS_GO_FILE set): do the worker's slow imports now, then wait for the go file."""
    go = os.environ.get("LADDER_CHAOS_GO_FILE")
    if not go:
        return
    import celery.apps.worker
    import celery.bin.celery  # app.worker_main parses its argv with Celery's own command line
    import celery.concurrency.prefork  # noqa: F401
    import kombu.transport.redis  # noqa: F401

    import workers.match.runner
    import workers.queue.tasks  # noqa: F401

    while not os.path.exists(go):
        time.sleep(0.05)


if __name__ == "__main__":
    install()
    await_go()
    # the command itself, not the `ladder` group: ladder.cli loads the web site's modules (seconds
    # of imports on a loaded machine, at every restart of a killed worker)
    from ladder.cli.service import scheduler, worker

    command = {"worker": worker, "scheduler": scheduler}[sys.argv[1]]
    command.main(sys.argv[2:], prog_name=f"ladder {sys.argv[1]}")
