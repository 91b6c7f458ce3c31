"""DragonFlame through every layer: `ladder play` and `ladder match` with the starter bots as
sandboxed processes (strict mode), replays that verify."""

from __future__ import annotations

import json

from click.testing import CliRunner

from ladder.cli import main
from ladder.replay import load_replay, verify_replay


def run(*args):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def test_starter_bots_play_a_strict_sandbox_match_whose_replay_verifies(strict_sandbox, tmp_path):
    bots = ["builtin:random", "builtin:looter", "builtin:random"]
    path = tmp_path / "df.json"
    result = run("match", "--game", "dragonflame", *bots, "--seed", "4", "--sandbox", strict_sandbox,
                 "--replay", str(path), "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert (printed["game"], printed["sandbox"]) == ("dragonflame", "strict")
    assert [(r["bot"], r["status"]) for r in printed["results"]] == [(b, "ok") for b in bots]
    replay = load_replay(path)
    assert verify_replay(replay).ok
    kinds = {e["kind"] for e in replay["log"] if "decision" in e}
    assert {"play", "attack", "flame"} <= kinds
    # a private event reaches only its seat's process: each bot saw its own hand dealt, nobody else's
    hands = [e for e in replay["log"] if e.get("type") == "hand"]
    assert hands and all(e["to"] == [e["data"]["seat"]] for e in hands)


def test_ladder_play_runs_dragonflame_in_process(tmp_path):
    path = tmp_path / "p.json"
    result = run("play", "--game", "dragonflame", "--bots", "looter,random", "--seed", "2", "--replay", str(path))
    assert result.exit_code == 0, result.output
    assert "DragonFlame" in result.output and "villages" in result.output
    assert verify_replay(load_replay(path)).ok


def test_ladder_demo_tells_dragonflame_in_sentences():
    result = run("demo", "--game", "dragonflame", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Round 1: turn order" in result.output and "loots the blue castle" in result.output
    assert "face down on castle" in result.output and "is dealt" not in result.output  # no private events
