"""`ladder match --sandbox strict` as a user runs it, on whichever cgroup backend the host has: the
VM stage (.ci/vm) runs these on cgroup v2, `make test` on our v1 hosts. Three starter bots play
through; a fork bomb and a memory bomb each end as a fault of their own seat while the others finish
ok, and every seat's sandbox is torn down clean."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from match_support import run_specs

from workers.match.protocol import TimeControl
from workers.sandbox import cgroup as sandbox_cgroup

HERE = Path(__file__).parent


# Time controls are wall-clock: in the VM (software emulation, 9p root, a shared host) a Python
# bot's start-up alone took over 5 s, the default allowance. The VM stage sets LADDER_VM_CLOCK=1 for
# a slower clock; elsewhere the match is `ladder match`'s own, through its CLI.
SLOW_CLOCK = TimeControl(decision_ms=20_000, bank_ms=120_000, startup_ms=30_000)


def ladder_match(tmp_path: Path, *bots: str) -> tuple[dict, dict]:
    """`ladder match BOTS --sandbox strict --json --replay FILE`, in this process (importing the CLI
    over the VM's 9p root costs minutes under emulation: paid once)."""
    replay = tmp_path / "replay.json"
    if os.environ.get("LADDER_VM_CLOCK") == "1":
        result = run_specs(list(bots), sandbox="strict", clock=SLOW_CLOCK, replay_path=replay)
        return result.as_json(), json.loads(replay.read_text())
    from ladder.cli import main

    run = CliRunner().invoke(main, ["match", *bots, "--sandbox", "strict", "--json", "--replay", str(replay)])
    assert run.stdout, (run.output, run.exception)
    return json.loads(run.stdout.strip().splitlines()[-1]), json.loads(replay.read_text())


def _expected_backend() -> str | None:
    backend = sandbox_cgroup.backend()
    assert os.environ.get("LADDER_EXPECT_CGROUP") in (None, backend), f"this host's cgroup backend is {backend}"
    return backend


def test_three_starter_bots_play_a_strict_match(strict_sandbox, tmp_path):
    result, replay = ladder_match(tmp_path, "builtin:greedy", "builtin:greedy", "builtin:random")
    assert result["sandbox"] == "strict" and result["cgroup"] == _expected_backend()
    assert replay["sandbox"] == "strict" and replay["cgroup"] == result["cgroup"]
    assert [r["status"] for r in result["results"]] == ["ok", "ok", "ok"], result
    assert all(seat["clean"] for seat in replay["seats"])


@pytest.mark.parametrize(("bomb", "status"), [("fork_bomb_bot.py", "protocol_error"), ("memory_bomb_bot.py", "crash")])
def test_a_bomb_is_a_fault_of_its_own_seat_and_the_others_finish(bomb, status, strict_sandbox, tmp_path):
    result, replay = ladder_match(tmp_path, str(HERE / bomb), "builtin:greedy", "builtin:random")
    assert result["cgroup"] == _expected_backend()
    statuses = [r["status"] for r in result["results"]]
    assert statuses == [status, "ok", "ok"], result
    if bomb == "memory_bomb_bot.py":  # the cgroup's OOM kill, not some other death
        assert "oom_kills 1" in result["results"][0]["reason"], result
    else:  # the fork bomb never got to say ready: its forks were refused, not the host's
        assert result["results"][0]["reason"].startswith("startup:"), result
    assert all(seat["clean"] for seat in replay["seats"]), [s["clean"] for s in replay["seats"]]
