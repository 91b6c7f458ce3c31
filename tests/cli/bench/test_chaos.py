"""The chaos bench's verdict: each broken promise is named, and a run that did not reach its fault
counts fails too (the run itself: tests/workers/queue/test_chaos.py)."""

from __future__ import annotations

import pytest

from ladder.cli.bench.chaos import ChaosPlan, ChaosResult

PLAN = ChaosPlan(kills=4, redis_restarts=2, drops=3, stale=20, resend=4, slack=20)


def kept() -> ChaosResult:
    return ChaosResult(PLAN, pool_kills=2, worker_kills=2, drops=3, redis_restarts=2, fault_seconds=30,
                       at_restarts=[(5, 3.0), (4, 2.0)], open_at_stop=6, ended_after=9.0, finished=40, rated=40,
                       drained_after=5.0)


def test_a_run_that_kept_every_promise_has_no_problem():
    result = kept()
    assert result.problems == []
    assert PLAN.bound == 44
    summary = "\n".join(result.summary())
    assert "4 kills (2 pool processes, 2 whole workers)" in summary
    assert "5 in 3.0, 4 in 2.0" in summary and "all ended after 9.0 s" in summary


@pytest.mark.parametrize(("broken", "named"), [
    ({"pool_kills": 1}, "only 3 of 4 kills"),
    ({"drops": 2}, "only 2 of 3 dropped messages"),
    ({"redis_restarts": 1}, "only 1 of 2 Redis restarts"),
    ({"late": [7, 9], "ended_after": None}, "2 matches open when the faults stopped were still open after 44 s"),
    ({"at_restarts": [(5, 3.0), (4, None)]}, "open at a Redis restart were still open"),
    ({"dropped_open": [12]}, "dropped matches still open: [12]"),
    ({"unrated": [3, 5]}, "2 finished ranked matches lack a rating change: [3, 5]"),
    ({"rating_differences": 4}, "4 stored rating numbers do not recompute"),
    ({"rated_elsewhere": 2}, "2 rating changes belong to matches not finished and ranked"),
    ({"drained_after": None}, "the drained ladder still had open matches"),
    ({"queued_after_drain": 1}, "1 matches were queued after the drain switch"),
])
def test_each_broken_promise_is_named(broken, named):
    result = kept()
    for name, value in broken.items():
        setattr(result, name, value)
    assert len(result.problems) == 1 and named in result.problems[0], result.problems
