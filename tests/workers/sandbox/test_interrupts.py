"""A stop signal in the middle of a strict match: the match is torn down whole, then the signal does
what it did before (workers/sandbox/interrupts.py), and nothing of the sandbox is left."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from match_support import run_specs

from workers.match.protocol import TimeControl
from workers.match.runner import builtin_source
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import interrupts
from workers.sandbox import process as sandbox


def slow_bot(tmp_path):
    """The random starter, a second per decision: the match is surely running when the signal comes."""
    source = builtin_source("treasure", "random").read_text()
    bot = tmp_path / "slow.py"
    slower = ("    import time\n"
              "    RandomBot.decide = (lambda decide: lambda *a: (time.sleep(1), decide(*a))[1])(RandomBot.decide)\n"
              "    run(RandomBot)")
    bot.write_text(source.replace("    run(RandomBot)", slower))
    return bot


def test_sigterm_mid_match_tears_it_down_then_reaches_the_previous_handler(tmp_path, strict_sandbox):
    def billiard_like(signum, frame):  # what Celery's pool processes have for SIGTERM
        raise SystemExit(-(256 - signum))

    previous = signal.signal(signal.SIGTERM, billiard_like)
    timer = threading.Timer(0.8, os.kill, (os.getpid(), signal.SIGTERM))
    try:
        timer.start()
        with pytest.raises(SystemExit):
            run_specs([str(slow_bot(tmp_path)), "builtin:random"], game="treasure", seed=3, sandbox=strict_sandbox,
                      clock=TimeControl(decision_ms=2000, bank_ms=2000, startup_ms=8000))
    finally:
        timer.cancel()
        signal.signal(signal.SIGTERM, previous)
    assert sandbox.finish_teardowns() == 0
    mine = sandbox_cgroup.owned_groups(os.getpid())
    assert mine == []
    assert signal.getsignal(signal.SIGTERM) is billiard_like or signal.getsignal(signal.SIGTERM) is previous


def test_a_deferred_section_finishes_before_the_interruption():
    events = []

    def body():
        with interrupts.catching():
            with interrupts.deferred():
                os.kill(os.getpid(), signal.SIGINT)
                events.append("teardown finished")
            events.append("not reached")

    # Python's own Ctrl-C handler, SIGINT deliverable, as a worker has them: not whatever an earlier
    # test in this process left (an ignored SIGINT, or a C library's handler, which reads as None,
    # are left alone by catching(), as they should be; a blocked one waits): either made this
    # test's outcome depend on the order the tests ran in
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        with pytest.raises(KeyboardInterrupt):
            body()
        assert events == ["teardown finished"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
