"""`ladder match`: starter bots and the node bot as sandboxed processes, through the command line."""

import json
from pathlib import Path

from click.testing import CliRunner

from ladder.cli import main
from ladder.replay import load_replay, verify_replay

JS_BOT = Path(__file__).parents[2] / "bots" / "examples" / "node"


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
    assert js["strikes"] == [] and js["ready"] == {"name": "node-starter"} and "game over" in js["stderr"]
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
    """One rule for the form, the API and `ladder match` (through workers.build.packaging.stage)."""
    for name, words in ((".py", "starts with a dot"), ("bot\n.py", "control or invisible"),
                        ("\u202egnp.py", "control or invisible")):
        (tmp_path / name).write_text("print(1)\n")
        result = run("match", str(tmp_path / name), "builtin:greedy", "builtin:random", "--sandbox", "none")
        assert result.exit_code == 2 and words in result.output, result.output


# --- what an author sees when a bot goes wrong ------------------------------------------------

SDK_BOT = """
from bots.sdk import Bot, run
{extra}

class Careful(Bot):
    answers = 0

    def flip(self, observation):
        self.answers += 1
        request = observation["request"]
        if {illegal} and self.answers == 1:
            return {{"square": [99, 99]}}
        return {{"stop": True}} if request["can_stop"] else {{"square": request["squares"][0]}}

    def move_spider(self, observation):
        return {{"square": None}}


if __name__ == "__main__":
    run(Careful)
"""


def _bot(tmp_path, name, extra="", illegal=False):
    path = tmp_path / name
    path.write_text(SDK_BOT.format(extra=extra, illegal=illegal))
    return str(path)


def test_a_bot_with_a_syntax_error_shows_its_traceback_and_fails_the_command(strict_sandbox, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\n\ndef decide(:\n    pass\n")
    logs = tmp_path / "logs"
    result = run("match", str(broken), "builtin:random", "--game", "treasure", "--sandbox", strict_sandbox,
                 "--logs", str(logs))
    assert result.exit_code == 1, result.output
    assert "crash: exited with code 1 during start-up" in result.output
    assert "seat 0" in result.output and "faulted; the end of its stderr:" in result.output
    assert "SyntaxError: invalid syntax" in result.output and "def decide(:" in result.output
    assert "SyntaxError" in (logs / "seat-0.log").read_text() and (logs / "seat-1.log").exists()
    as_json = run("match", str(broken), "builtin:random", "--game", "treasure", "--sandbox", strict_sandbox,
                  "--json")
    assert as_json.exit_code == 1 and json.loads(as_json.output)["results"][0]["status"] == "crash"


def test_a_refused_answer_is_listed_and_fails_the_command_but_builtins_alone_pass(strict_sandbox, tmp_path):
    bot = _bot(tmp_path, "sloppy.py", illegal=True)
    result = run("match", bot, "builtin:random", "--game", "treasure", "--sandbox", strict_sandbox)
    assert result.exit_code == 1, result.output
    assert "strike 1 at request 1 (flip): illegal:" in result.output
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in result.output.splitlines() if "sloppy" in line]
    assert rows and rows[0][4] == "ok"  # one strike leaves the seat its status, and the author is told
    clean = run("match", "builtin:random", "builtin:careful", "--game", "treasure", "--sandbox", strict_sandbox)
    assert clean.exit_code == 0 and "strike" not in clean.output and "faulted" not in clean.output


def test_a_stray_print_goes_to_the_log_not_the_protocol(strict_sandbox, tmp_path):
    # the child is Python itself: the bot's runtime has no shell (docs/bots.md, Runtimes)
    extra = ('print("hello from import time")\nimport subprocess, sys\n'
             'subprocess.run([sys.executable, "-c", "print(\'from a child\')"])')
    bot = _bot(tmp_path, "chatty.py", extra=extra)
    logs = tmp_path / "logs"
    result = run("match", bot, "builtin:random", "--game", "treasure", "--sandbox", strict_sandbox,
                 "--logs", str(logs), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"][0]["status"] == "ok"
    log = (logs / "seat-0.log").read_text()
    assert "hello from import time" in log and "from a child" in log  # fd 1 is stderr too


def test_a_seat_low_on_its_time_bank_gets_a_warning():
    from types import SimpleNamespace

    from ladder.cli.match import bank_warnings
    from ladder.replay import SandboxRun, SeatRecord

    def seat(i, bot, takeover, left):
        return SeatRecord(i, bot, run=SandboxRun("strict", takeover=takeover, bank_left_ms=left))

    seats = (seat(0, "slow.py", None, 481.0), seat(1, "fast.py", None, 9990.0), seat(2, "gone.py", {"code": "x"}, 0.0))
    result = SimpleNamespace(replay=SimpleNamespace(seats=seats))
    [line] = bank_warnings(result, 10000)
    assert line.startswith("seat 0 (slow.py): only 481 ms of its 10000 ms time bank left")
