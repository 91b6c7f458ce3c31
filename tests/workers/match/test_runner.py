"""The match runner against faulty bots: every fault is an outcome, the match always finishes."""

import json
import textwrap
import zipfile
from pathlib import Path

import pytest
from match_support import run_specs

from ladder.bot import runtimes
from ladder.play import play_builtin
from ladder.replay import Decision, Replay, verify_replay
from workers.match import protocol, runner
from workers.match.blame import LadderFault
from workers.match.protocol import TimeControl
from workers.match.runner import RunnerError, choose_mode

CLOCK = TimeControl(decision_ms=1000, bank_ms=1000, startup_ms=5000)
SHORT = TimeControl(decision_ms=200, bank_ms=300, startup_ms=800)
OTHERS = ("builtin:greedy", "builtin:random")
JS_BOT = Path(__file__).parents[3] / "bots" / "examples" / "node"

# A bot speaking the protocol by hand with always-legal Drachengold decisions; BEHAVIOUR runs for
# every request with `n` (1, 2, ...), `msg` and `answer` (set answer = None to send nothing).
TEMPLATE = '''
import json, os, signal, sys, time


def legal(kind, obs):
    req = obs.get("request", {})
    if kind == "attack":
        return {"adventurer": req["adventurers"][0], "dragon": req["dragons"][0]}
    if kind == "theft_victim":
        return {"victim": req["candidates"][0]}
    if kind == "theft_pick":
        return {"token": req["hoard"][0]["id"]}
    if kind == "divide":
        shares = [[] for _ in range(req["shares"])]
        for i, token in enumerate(obs["strategic"]["tokens"]):
            shares[i % len(shares)].append(token["id"])
        return {"shares": shares}
    if kind == "choose":
        return {"share": req["remaining"][0]}
    return {"propose": {}, "vote": {"accept": []}, "market_offer": {"offers": []},
            "market_answer": {"accept": []}}.get(kind, {"card": None})


def say(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()


n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
READY
    elif msg["type"] == "request":
        n += 1
        answer = {"id": msg["id"], "decision": legal(msg["kind"], msg["observation"])}
BEHAVIOUR
        if answer is not None:
            say(answer)
    elif msg["type"] in ("error", "end"):
        sys.stderr.write(msg["type"].upper() + " " + line)
        if msg["type"] == "end":
            break
'''
ILLEGAL = {"accept": 5, "shares": 5, "adventurer": 5, "card": "zz", "victim": -1, "token": 5, "offers": 5,
           "share": -1}


def bot_source(behaviour: str = "pass", ready: str = 'say({"type": "ready"})') -> str:
    return TEMPLATE.replace("READY", textwrap.indent(ready, " " * 8)).replace(
        "BEHAVIOUR", textwrap.indent(textwrap.dedent(behaviour), " " * 8))


def play(tmp_path, mode, behaviour="pass", *, clock=CLOCK, ready='say({"type": "ready"})', seed=3, **kw):
    bot = tmp_path / "faulty.py"
    bot.write_text(bot_source(behaviour, ready))
    return run_specs([str(bot), *OTHERS], seed=seed, sandbox=mode, clock=clock, **kw)


def finished(result, mode="strict", started=True):
    """Every seat has a result, the replay re-simulates, the other seats stand, nothing is left."""
    replay = result.replay.to_json()
    assert verify_replay(replay).ok and Replay.from_json(replay) == result.replay  # the types hold it all
    assert replay["sandbox"] == result.sandbox == mode
    assert len(result.results) == len(replay["seats"]) == 3
    for seat in replay["seats"][0 if started else 1:]:
        assert seat["clean"] is True, "a bot process or cgroup was left behind"
        assert seat["sandbox"] == mode
    for r, seat in zip(result.results[1:], replay["seats"][1:], strict=True):
        assert (r["status"], r["reason"], seat["forfeit"], seat["strikes"]) == ("ok", None, False, [])
    return replay["seats"][0]


def taken_over(result, code, status, *words, started=True):
    seat = finished(result, started=started)
    r = result.results[0]
    assert (r["status"], seat["status"], seat["forfeit"]) == (status, status, True)
    assert r["reason"].startswith(f"{code}: ") and r["reason"] == seat["reason"]
    for word in words:
        assert word in r["reason"], r["reason"]
    assert seat["takeover"]["code"] == code
    assert r["rank"] == 3 and {x["rank"] for x in result.results[1:]} <= {1, 2}
    # the fallback played on: seat 0 keeps deciding after the takeover, legally
    log = [e for e in result.replay.to_json()["log"] if e.get("seat") == 0 and "decision" in e]
    after = log[seat["takeover"]["request"]:]
    assert after and not any("fault" in e for e in after)
    return seat


def test_bots_as_processes_play_the_same_game_as_in_process(strict_sandbox):
    names = ["greedy", "bargainer", "trader", "random"]
    key = b"same seeds"  # the bots' seeds keyed alike in both: the same game, decision for decision
    result = run_specs([f"builtin:{n}" for n in names], seed=11, sandbox=strict_sandbox, clock=CLOCK, seed_key=key)
    expected = play_builtin("drachengold", names, seed=11, seed_key=key)
    assert [r["score"] for r in result.results] == [r.score for r in expected.results]
    assert result.replay.log == expected.replay.log
    for seat, r in zip(result.replay.to_json()["seats"], result.results, strict=True):
        decisions = sum(1 for e in expected.replay.to_json()["log"] if e.get("seat") == r["seat"] and "decision" in e)
        assert r["status"] == "ok" and len(seat["timings"]) == decisions and seat["exit"]["code"] == 0
        assert seat["ready"]["name"] == {"greedy": "GreedyBot", "bargainer": "BargainerBot", "trader": "TraderBot",
                                         "random": "RandomBot"}[seat["bot"].removeprefix("builtin:")]
        assert all(wall >= 0 and cpu >= 0 for wall, cpu in seat["timings"])


def test_garbage_lines_are_strikes_then_a_takeover(tmp_path, strict_sandbox):
    garbage = 'answer = None\nsys.stdout.write("this is not json\\n")\nsys.stdout.flush()'
    result = play(tmp_path, strict_sandbox, garbage)
    seat = taken_over(result, "bad_json", "protocol_error", "3 strikes", "this is not json")
    assert [s["code"] for s in seat["strikes"]] == ["bad_json"] * protocol.STRIKES
    assert seat["takeover"]["request"] == 3 and len(seat["timings"]) == 3
    errors = [json.loads(line[6:]) for line in seat["stderr"].splitlines() if line.startswith("ERROR ")]
    assert [(e["id"], e["code"]) for e in errors] == [(1, "bad_json"), (2, "bad_json")]  # the 3rd: killed
    assert all("default" in e for e in errors)


def test_a_wrong_id_is_a_strike(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, 'answer["id"] += 1000')
    taken_over(result, "wrong_id", "protocol_error", "has id 1003")


def test_illegal_answers_are_told_with_the_default_then_taken_over(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, f'answer["decision"] = {ILLEGAL!r}')
    seat = taken_over(result, "illegal", "illegal", "3 strikes")
    first = json.loads(next(line for line in seat["stderr"].splitlines() if line.startswith("ERROR "))[6:])
    fault = next(e for e in result.replay.to_json()["log"] if "fault" in e)
    assert (first["code"], first["reason"], first["default"]) == ("illegal", fault["fault"]["reason"],
                                                                   fault["decision"])


def test_one_illegal_answer_is_only_a_strike(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, f'if n == 2:\n    answer["decision"] = {ILLEGAL!r}')
    seat = finished(result)
    assert (result.results[0]["status"], seat["status"], seat["forfeit"], seat["takeover"]) == ("ok", "ok",
                                                                                                  False, None)
    assert [(s["request"], s["code"]) for s in seat["strikes"]] == [(2, "illegal")]
    assert seat["stderr"].count("ERROR ") == 1 and "END " in seat["stderr"]
    assert len(seat["timings"]) == sum(isinstance(e, Decision) and e.seat == 0 for e in result.replay.log)


def test_an_early_exit_is_taken_over(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, "if n == 3:\n    sys.exit(0)")
    seat = taken_over(result, "exited", "protocol_error", "request 3")
    assert seat["exit"] == {"code": 0, "signal": None}


def test_each_bot_process_reports_one_run_record_that_the_replay_reads(tmp_path, strict_sandbox):
    """Like isolate's meta file: how each process ended, its CPU and wall time, whether it was still
    running at the end (the ladder stopped it) and whether anything of it was left."""
    result = play(tmp_path, strict_sandbox, "if n == 2:\n    time.sleep(30)", clock=SHORT)
    stopped, ended = result.runs[0], result.runs[1]
    assert (stopped.status, stopped.running, stopped.exit_code) == ("stopped", True, None)  # timed out, stopped
    assert not stopped.ended_cleanly and stopped.signal is not None
    assert (ended.status, ended.exit_code, ended.signal, ended.running, ended.clean) == ("ok", 0, None, False, True)
    assert ended.ended_cleanly and ended.time_s > 0 and ended.wall_s >= ended.time_s / 2 and not ended.limits
    for run, seat in zip(result.runs, result.replay.seats, strict=True):
        assert seat.run.exit == run.exit_json() and seat.run.clean == run.clean
        assert seat.run.stderr_bytes == run.stderr_bytes


def test_a_crash_keeps_its_traceback(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, 'if n == 3:\n    raise RuntimeError("bot bug here")')
    seat = taken_over(result, "crash", "crash", "exited with code 1", "request 3")
    assert "RuntimeError: bot bug here" in seat["stderr"]


def test_a_bot_killed_by_a_signal_is_a_crash(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, "if n == 2:\n    os.kill(os.getpid(), signal.SIGKILL)")
    taken_over(result, "crash", "crash", "SIGKILL")


def test_sleeping_past_deadline_and_bank_is_a_timeout(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, "if n == 2:\n    time.sleep(30)", clock=SHORT)
    seat = taken_over(result, "timeout", "timeout", "request 2")
    assert seat["bank_left_ms"] == 0
    assert SHORT.decision_ms + SHORT.bank_ms <= seat["timings"][1][0] < SHORT.decision_ms + SHORT.bank_ms + 1000


def test_an_overrun_within_the_bank_is_fine(tmp_path, strict_sandbox):
    clock = TimeControl(decision_ms=200, bank_ms=2000, startup_ms=5000)
    result = play(tmp_path, strict_sandbox, "if n <= 2:\n    time.sleep(0.5)", clock=clock)
    seat = finished(result)
    assert result.results[0]["status"] == "ok" and seat["takeover"] is None
    assert all(t[0] >= 500 for t in seat["timings"][:2])
    spent = sum(t[0] - 200 for t in seat["timings"] if t[0] > 200)
    assert seat["bank_left_ms"] == pytest.approx(2000 - spent, abs=0.1) and seat["bank_left_ms"] < 1400


def test_flooding_stdout_without_newline_is_oversized(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox,
                  'if n == 2:\n    answer = None\n    sys.stdout.write("x" * (3 << 20))\n    sys.stdout.flush()')
    taken_over(result, "oversized", "protocol_error")


def test_no_ready_is_a_startup_fault_and_the_fallback_plays_from_the_start(tmp_path, strict_sandbox):
    result = play(tmp_path, strict_sandbox, ready="time.sleep(30)", clock=SHORT)
    seat = taken_over(result, "startup", "protocol_error", f"no ready within {SHORT.startup_ms} ms")
    assert seat["takeover"]["request"] == 0 and seat["timings"] == []


def test_a_stderr_flood_is_capped_and_keeps_the_tail(tmp_path, strict_sandbox):
    behaviour = """
    if n <= 3:
        sys.stderr.write("y" * 100000 + "\\n")
    if n == 3:
        sys.stderr.flush()
        sys.stderr.buffer.write(b"\\xff" * 30000)  # binary: decoded with replacement characters
        sys.stderr.write("MARK\\n")
    """
    seat = finished(play(tmp_path, strict_sandbox, behaviour))
    assert seat["stderr_bytes"] > 300000 and len(seat["stderr"].encode()) <= protocol.LOG_BYTES
    assert "MARK" in seat["stderr"] and seat["stderr"].rstrip().splitlines()[-1].startswith("END ")
    assert seat["status"] == "ok"


def test_packaged_bots_zip_and_node_play_full_matches(tmp_path, strict_sandbox):
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("main.py", "from helper import Bot\nfrom bots.sdk import run\nrun(Bot)\n")
        zf.writestr("helper.py", bot_source().split("n = 0")[0] +
                    "from bots.sdk import Bot as Base\n\nclass Bot(Base):\n"
                    "    def decide(self, kind, obs):\n        return legal(kind, obs)\n")
    result = run_specs([str(archive), str(JS_BOT), "builtin:trader"], seed=5, sandbox=strict_sandbox, clock=CLOCK)
    assert [r["status"] for r in result.results] == ["ok"] * 3
    assert verify_replay(result.replay).ok
    js = result.replay.to_json()["seats"][1]
    assert js["ready"] == {"name": "node-starter"} and "game over: rank" in js["stderr"]
    assert len(js["timings"]) == sum(isinstance(e, Decision) and e.seat == 1 for e in result.replay.log)


def test_ranked_matches_need_strict(monkeypatch):
    with pytest.raises(RunnerError, match="ranked matches need the strict sandbox"):
        choose_mode("user", ranked=True)
    assert choose_mode("none", ranked=True, require_strict=False) == "none"
    import workers.sandbox.process

    monkeypatch.setattr(workers.sandbox.process, "sandbox_available",
                        lambda mode: (mode != "strict", "no root here"))
    assert choose_mode("auto") == "user"
    with pytest.raises(RunnerError, match="unavailable here: no root here"):
        choose_mode("strict", ranked=True)
    with pytest.raises(RunnerError, match="ranked"):
        run_specs(["builtin:greedy"] * 3, sandbox="auto", ranked=True)
    with pytest.raises(RunnerError, match="unknown sandbox mode"):
        choose_mode("docker")


def test_a_bot_the_sandbox_cannot_start_voids_the_match_and_charges_no_seat(tmp_path, monkeypatch, strict_sandbox,
                                                                           uid_processes):
    """The ladder's failure, not the bot's (workers/match/blame.py): no seat is charged, no result is
    made, and the bot started before it is gone."""
    from workers.sandbox import process as sandbox

    real = sandbox.BotProcess.start
    started = []

    def flaky(*args, **kw):
        if started:
            raise sandbox.SandboxError("no free slot")
        started.append(real(*args, **kw))
        return started[-1]

    monkeypatch.setattr(sandbox.BotProcess, "start", flaky)
    with pytest.raises(LadderFault) as caught:
        run_specs(["builtin:random", *OTHERS], seed=2, sandbox=strict_sandbox, clock=CLOCK)
    assert (caught.value.seat, caught.value.certain) == (1, True)
    assert caught.value.reason == "the sandbox could not start the bot: no free slot"
    assert started[0].clean is True and uid_processes(started[0].uid) == []


def test_refused_specs_fail_before_anything_starts(tmp_path):
    with pytest.raises(RunnerError, match="no built-in bot 'nope'"):
        run_specs(["builtin:nope", *OTHERS], sandbox="none")
    with pytest.raises(runner.packaging.PackagingError, match="no such file"):
        run_specs([str(tmp_path / "absent.py"), *OTHERS], sandbox="none")


def test_bots_load_the_sdk_from_staged_bytecode_instead_of_compiling_it(tmp_path, strict_sandbox):
    # Compiling the SDK at every bot start (bots cannot write bytecode) was a tenth of its start-up.
    spy = '''
import importlib._bootstrap_external as ext
compiled = []
original = ext.SourceLoader.source_to_code
ext.SourceLoader.source_to_code = lambda self, data, path, *a, **k: compiled.append(path) or original(
    self, data, path, *a, **k)
import bots.sdk
sys.stderr.write("COMPILED " + json.dumps(compiled) + " FROM " + bots.sdk.__file__ + "\\n")
say({"type": "ready"})
'''
    result = play(tmp_path, strict_sandbox, ready=spy)
    seat = finished(result, strict_sandbox)
    assert "COMPILED [] FROM /sdk/bots/sdk.py" in seat["stderr"], seat["stderr"]


def test_a_matchs_bots_share_one_table_cpu_group_which_goes_with_the_match(strict_sandbox):
    import os

    from workers.sandbox import cgroup as sandbox_cgroup

    v1 = sandbox_cgroup.backend() == "v1"
    cpu = sandbox_cgroup.parent_dirs()["cpu"] if v1 else sandbox_cgroup.parent_dir()
    seen = []

    def look(entry):
        if not seen:
            seen.append(sorted(p.parent.name for p in cpu.glob(f"table-{os.getpid()}-*/bot-*")))

    run_specs(["builtin:greedy", *OTHERS], seed=2, sandbox=strict_sandbox, clock=CLOCK, on_entry=look)
    assert len(seen[0]) == 3 and len(set(seen[0])) == 1  # three bots, one table
    assert not list(cpu.glob(f"table-{os.getpid()}-*"))
    # and on v1 this process keeps one empty frozen group, so freezing never toggles the kernel's
    # freezer (v2's freezer has no such switch)
    assert not v1 or list(sandbox_cgroup.parent_dirs()["freezer"].glob(f"hold-{os.getpid()}-*"))


def test_a_sandbox_start_failure_is_told_without_server_paths():
    """A seat's reason is public (match page, replay): the exception's paths go to the log only."""
    from workers.match.protocol import TimeControl
    from workers.match.seats import SandboxedSeat

    seat = SandboxedSeat("alice/bot v1", "treasure", "strict", TimeControl(), 3)

    def factory():
        raise OSError(2, "No such file or directory", "/tmp/ladder-match-157-abc/0/main.py")

    with pytest.raises(LadderFault) as caught:
        seat.start(factory)
    assert caught.value.reason == "the sandbox could not start the bot: FileNotFoundError (ENOENT)"
    assert "/tmp" not in str(caught.value)


def test_a_runtime_that_loads_a_large_library_gets_its_floors_and_no_less_than_the_match():
    from workers.sandbox.process import Limits

    ml = runtimes.BY_NAME["python-ml"]
    limits, clock = runner.runtime_terms(ml.entry, Limits(), TimeControl())
    assert limits.memory_bytes == ml.memory_bytes == 1 << 30 and clock.startup_ms == ml.startup_ms
    assert clock.decision_ms == TimeControl().decision_ms  # the decision clock is everyone's
    roomy = Limits(memory_bytes=4 << 30)
    assert runner.runtime_terms(ml.entry, roomy, TimeControl(startup_ms=60_000)) == (
        roomy, TimeControl(startup_ms=60_000))
    plain = runner.runtime_terms("main.py", Limits(), TimeControl())
    assert plain == (Limits(), TimeControl())



def test_each_answer_marks_the_stderr_written_by_then_and_the_clock_is_recorded(tmp_path, strict_sandbox):
    """The owner's view splits a bot's stderr per decision and sets each one's time against its
    clock (ladder/replay/decisions.py): the runner records the clock and, at every answer, how many
    bytes the bot had written to stderr (the drain thread may not have read the newest yet: a line
    can fall to the next decision, never out of order)."""
    from ladder.replay.decisions import seat_decisions

    result = play(tmp_path, strict_sandbox, 'sys.stderr.write(f"REQ {n}\\n")\nsys.stderr.flush()')
    run = result.replay.seats[0].run
    assert run.clock == {"decision_ms": CLOCK.decision_ms, "bank_ms": CLOCK.bank_ms}
    assert len(run.stderr_marks) == len(run.timings) > 3
    assert list(run.stderr_marks) == sorted(run.stderr_marks) and run.stderr_marks[-1] <= run.stderr_bytes
    decisions = seat_decisions(result.replay, 0)
    assert len(decisions) == len(run.timings) and all(d.decision_ms == CLOCK.decision_ms for d in decisions)
    told = "".join(d.stderr for d in decisions)  # every piece, in order, is the log's start
    assert result.replay.seats[0].stderr.startswith(told) and told.count("REQ ") <= len(decisions)
    assert [line.split()[1] for line in told.splitlines()] == [str(i) for i in range(1, told.count("REQ ") + 1)]
