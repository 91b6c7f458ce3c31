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

from workers import sandbox_cgroup

HERE = Path(__file__).parent


def ladder_match(tmp_path: Path, *bots: str) -> tuple[dict, dict]:
    """`ladder match BOTS --sandbox strict --json --replay FILE`, in this process: under the VM's
    software emulation importing the CLI costs a minute or more, so it is paid once."""
    from ladder.cli import main

    replay = tmp_path / "replay.json"
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
