"""`ladder bench chaos`: the plan it builds from its options, its verdict and its exit status (the
run itself is stood in for; tests/workers/queue/test_chaos.py runs it for real), and bad options refused
before anything starts."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import ladder.cli.bench.chaos as chaos
from ladder.cli import main
from ladder.cli.bench.chaos import ChaosResult


@pytest.fixture
def plans(monkeypatch):
    """The plans `run_chaos` was given; it returns a result that kept every promise, unless told."""
    seen = []

    def fake(plan, *, admin_url, echo, keep):
        seen.append((plan, admin_url))
        echo("progress line")
        result = ChaosResult(plan, pool_kills=plan.kills, drops=plan.drops, redis_restarts=plan.redis_restarts,
                             open_at_stop=3, ended_after=4.0, drained_after=2.0)
        result.unrated = list(seen_unrated)
        return result

    seen_unrated: list[int] = []
    monkeypatch.setattr(chaos, "run_chaos", fake)
    return seen, seen_unrated


def test_the_options_make_the_plan_and_a_kept_promise_exits_0(plans):
    seen, _ = plans
    result = CliRunner().invoke(main, ["bench", "chaos", "--kills", "7", "--redis-restarts", "1", "--drops", "3",
                                       "--sandbox", "none", "--games", "treasure", "--stale", "30", "--resend", "5",
                                       "--slack", "10", "--database-url", "postgresql://postgres@db:5432/postgres"])
    assert result.exit_code == 0, result.output
    plan, admin = seen[0]
    assert (plan.kills, plan.redis_restarts, plan.drops, plan.sandbox, plan.games) == (7, 1, 3, "none", ("treasure",))
    assert plan.bound == 45 and admin == "postgresql+psycopg://postgres@db:5432/postgres"
    assert "progress line" in result.output and "PASS: after 7 kills" in result.output


def test_a_broken_promise_exits_1_and_names_it(plans):
    _, unrated = plans
    unrated.extend([11, 12])
    result = CliRunner().invoke(main, ["bench", "chaos", "--sandbox", "none"])
    assert result.exit_code == 1
    assert "FAIL: 2 finished ranked matches lack a rating change: [11, 12]" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "chess"], "unknown game ['chess']"),
    (["--kills", "-1"], "-1 is not in the range x>=0"),
    (["--sandbox", "bare"], "'bare' is not one of"),
])
def test_bad_options_are_refused_before_anything_starts(plans, args, message):
    seen, _ = plans
    result = CliRunner().invoke(main, ["bench", "chaos", *args])
    assert result.exit_code == 2 and message in result.output
    assert seen == []
