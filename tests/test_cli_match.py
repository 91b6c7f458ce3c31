"""`ladder match`: starter bots and the node bot as sandboxed processes, through the command line."""

import json
from pathlib import Path

from click.testing import CliRunner

from ladder.cli import main
from ladder.replay import load_replay, verify_replay

JS_BOT = Path(__file__).parents[1] / "bots" / "examples" / "js"


def run(*args):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def test_four_starter_bots_play_a_match_in_strict_mode(strict_sandbox, tmp_path):
    bots = ["builtin:bargainer", "builtin:trader", "builtin:greedy", "builtin:random"]
    replay_path = tmp_path / "match.json"
    result = run("match", *bots, "--seed", "7", "--sandbox", strict_sandbox, "--replay", str(replay_path), "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert (printed["game"], printed["seed"], printed["sandbox"]) == ("drachengold", 7, "strict")
    assert [(r["seat"], r["bot"], r["status"], r["reason"]) for r in printed["results"]] == [
        (i, bot, "ok", None) for i, bot in enumerate(bots)]
    replay = load_replay(replay_path)
    assert printed["replay"] == str(replay_path) and verify_replay(replay).ok
    assert [(r["score"], r["rank"]) for r in replay["results"]] == [(r["score"], r["rank"]) for r in printed["results"]]
    assert replay["sandbox"] == "strict"
    for seat in replay["seats"]:
        assert seat["sandbox"] == "strict" and seat["clean"] and seat["exit"] == {"code": 0, "signal": None}
        decisions = [e for e in replay["log"] if "decision" in e and e["seat"] == seat["seat"]]
        assert len(seat["timings"]) == len(decisions)


def test_the_table_shows_seat_bot_score_rank_status_and_reason(strict_sandbox):
    result = run("match", "builtin:careful", "builtin:random", "--game", "treasure", "--seed", "3",
                 "--sandbox", strict_sandbox)
    assert result.exit_code == 0, result.output
    assert "sandbox strict" in result.output
    header = next(line for line in result.output.splitlines() if "Seat" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == ["Seat", "Bot", "Score", "Rank", "Status", "Reason"]
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in result.output.splitlines() if "builtin:" in line]
    assert [(r[0], r[1], r[4]) for r in rows] == [("0", "builtin:careful", "ok"), ("1", "builtin:random", "ok")]
    assert sorted(r[3] for r in rows) in (["1", "2"], ["1", "1"])


def test_the_node_bot_plays_a_full_match_with_options(strict_sandbox, tmp_path):
    replay_path = tmp_path / "js.json"
    result = run("match", str(JS_BOT), "builtin:greedy", "builtin:trader", "--option", "rules=advanced-a",
                 "--option", "split=strategic", "--sandbox", strict_sandbox, "--replay", str(replay_path), "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert [r["status"] for r in printed["results"]] == ["ok"] * 3
    replay = load_replay(replay_path)
    assert replay["options"]["rules"] == "advanced-a" and replay["options"]["split"] == "strategic"
    js = replay["seats"][0]
    assert js["strikes"] == [] and js["ready"] == {"name": "js-example"} and "game over" in js["stderr"]
    kinds = {e["kind"] for e in replay["log"] if "decision" in e and e["seat"] == 0}
    assert kinds & {"divide", "choose"} and "attack" in kinds


def test_bad_arguments_are_usage_errors(tmp_path):
    (tmp_path / "notabot.txt").write_text("hi")
    three = ["builtin:greedy"] * 3
    cases = [
        (["builtin:nope", "builtin:greedy", "builtin:random", "--sandbox", "none"], "no built-in bot 'nope'"),
        ([str(tmp_path / "notabot.txt"), "builtin:greedy", "builtin:random", "--sandbox", "none"],
         "a .py file, a .zip, or a directory"),
        (["builtin:greedy", "builtin:random", "--sandbox", "none"], "3-6 players"),
        ([*three, "--option", "rules=chess", "--sandbox", "none"], "rules='chess': choose one of"),
        ([*three, "--sandbox", "docker"], "'docker' is not one of"),
    ]
    for args, words in cases:
        result = run("match", *args)
        assert result.exit_code == 2, result.output
        assert words in result.output, result.output


def test_the_upload_file_name_rule_applies_to_ladder_match(tmp_path):
    """One rule for the form, the API and `ladder match` (through workers.packaging.stage)."""
    for name, words in ((".py", "starts with a dot"), ("bot\n.py", "control or invisible"),
                        ("\u202egnp.py", "control or invisible")):
        (tmp_path / name).write_text("print(1)\n")
        result = run("match", str(tmp_path / name), "builtin:greedy", "builtin:random", "--sandbox", "none")
        assert result.exit_code == 2 and words in result.output, result.output
