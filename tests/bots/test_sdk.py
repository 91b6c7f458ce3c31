import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bots import builtin_bots
from bots.sdk import Bot, run

ROOT = Path(__file__).parents[2]

HELLO = {"type": "hello", "protocol": 1, "game": "drachengold", "seat": 2, "players": 3,
         "options": {"rules": "basic"}, "bot_seed": 42, "time": {}, "limits": {}, "future": "ignored"}


class Recorder(Bot):
    def __init__(self):
        super().__init__()
        self.events, self.errors, self.ended = [], [], None

    def on_event(self, event):
        self.events.append(event)

    def on_error(self, message):
        self.errors.append(message)

    def on_end(self, message):
        self.ended = message

    def attack(self, obs):
        print("a stray print")  # must not reach the protocol's stdout
        req = obs["request"]
        return {"adventurer": req["adventurers"][0], "dragon": req["dragons"][-1]}

    def vote(self, obs):
        raise ValueError("a bug in the bot")


def converse(*messages, bot_class=Recorder, raw=b""):
    """Run the SDK loop over these messages; returns (bot, answers as dicts)."""
    bots = []

    class Tracked(bot_class):
        def __init__(self):
            super().__init__()
            bots.append(self)

    stdin = io.BytesIO(raw + b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    stdout = io.BytesIO()
    run(Tracked, stdin, stdout)
    lines = stdout.getvalue().splitlines()
    assert all(line.endswith(b"}") for line in lines)
    return bots[0], [json.loads(line) for line in lines]


def request(rid, kind, **obs):
    return {"type": "request", "id": rid, "kind": kind, "observation": obs}


def test_hello_is_answered_with_ready_and_sets_up_the_bot():
    bot, out = converse(HELLO)
    assert out == [{"type": "ready", "name": "Tracked"}]
    assert (bot.game, bot.seat, bot.num_players, bot.options) == ("drachengold", 2, 3, {"rules": "basic"})


def test_the_bot_seed_seeds_the_generator_like_in_process():
    bot, _ = converse(HELLO)
    in_process = type(bot)()  # the class name is part of the seed
    in_process.setup({**{k: v for k, v in HELLO.items() if k != "bot_seed"}, "seed": 42})  # older hellos
    other = type(bot)()
    other.setup({**HELLO, "bot_seed": 43})
    first = bot.rng.random()
    assert first == in_process.rng.random() and first != other.rng.random()


def test_requests_are_answered_with_their_id_and_stray_prints_go_to_stderr(capsys):
    attack = request(7, "attack", request={"adventurers": ["k4"], "dragons": ["D1", "D9"]})
    _, out = converse(HELLO, attack)
    assert out[1] == {"id": 7, "decision": {"adventurer": "k4", "dragon": "D9"}}
    assert "a stray print" in capsys.readouterr().err


def test_events_errors_and_end_reach_their_methods_and_end_stops_the_loop():
    event = {"type": "event", "event": {"type": "kill", "data": {"dragon": "D9"}}, "extra": 1}
    error = {"type": "error", "id": 3, "code": "illegal", "reason": "no", "default": {}}
    end = {"type": "end", "results": [], "you": 2}
    after = request(8, "attack", request={"adventurers": ["k4"], "dragons": ["D1"]})
    bot, out = converse(HELLO, event, error, end, after)
    assert bot.events == [{"type": "kill", "data": {"dragon": "D9"}}]
    assert bot.errors == [error] and bot.ended == end
    assert len(out) == 1  # nothing is answered after end


def test_unknown_types_and_lines_that_are_not_json_are_ignored(capsys):
    _, out = converse({"type": "telemetry", "x": 1}, [1, 2], HELLO, raw=b"not json\n")
    assert out == [{"type": "ready", "name": "Tracked"}]
    assert "not JSON" in capsys.readouterr().err


def test_a_bug_in_the_bot_answers_an_empty_decision_and_logs_the_traceback(capsys):
    _, out = converse(HELLO, request(4, "vote", request={"proposals": []}), request(5, "unknown_kind"))
    assert out[1:] == [{"id": 4, "decision": {}}, {"id": 5, "decision": {}}]
    err = capsys.readouterr().err
    assert "ValueError: a bug in the bot" in err and "no method for decision kind 'unknown_kind'" in err


def test_the_in_process_api_is_unchanged():
    bot = Recorder()
    bot.setup({"game": "drachengold", "seat": 1, "players": 4, "options": {}, "seed": 5})
    assert bot.seat == 1 and bot.num_players == 4
    assert bot.decide("attack", {"request": {"adventurers": ["k3"], "dragons": ["D2"]}}) == {
        "adventurer": "k3", "dragon": "D2"}



@pytest.mark.parametrize(("game", "name"), sorted(builtin_bots()))
def test_a_starter_bot_starts_without_typing_or_traceback(game, name):
    # Each costs a bot start ~12M instructions (a tenth of it); both are needed only on a bug.
    # The bot's own module, as a bot process imports it (the registry that names it is not there).
    module = builtin_bots()[(game, name)]
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import {module}; "
            "print(sorted({'typing', 'traceback'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_in_a_ladder_bot_process_stdout_is_the_protocols_alone_from_import_time_on():
    """LADDER_BOT=1 (set by the runner): print, C-level writes and children go to stderr; run()
    writes the protocol to its own copy of the real stdout."""
    import os

    script = (
        "import os, io, sys\n"
        "from bots.sdk import Bot, run\n"
        "print('stray print')\n"
        "os.write(1, b'raw fd write\\n')\n"
        "class B(Bot):\n"
        "    def flip(self, observation):\n"
        "        print('print while deciding')\n"
        "        return {'stop': True}\n"
        "run(B)\n"
    )
    lines = b'{"type":"hello","seat":0}\n{"type":"request","id":1,"kind":"flip","observation":{}}\n{"type":"end"}\n'
    root = str(Path(__file__).parents[2])
    for flag, clean in (("1", True), ("", False)):
        env = {**os.environ, "PYTHONPATH": root, "LADDER_BOT": flag}
        done = subprocess.run([sys.executable, "-c", script], input=lines, capture_output=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        out = done.stdout.decode().splitlines()
        assert out[-2:] == ['{"type":"ready","name":"B"}', '{"id":1,"decision":{"stop":true}}']
        assert (out == out[-2:]) is clean, out  # without the flag, import-time writes still reach stdout
        assert "print while deciding" in done.stderr.decode()  # run() keeps print off stdout either way
        if clean:
            assert "stray print" in done.stderr.decode() and "raw fd write" in done.stderr.decode()


SAMPLES = [
    {"type": "request", "id": 7, "kind": "attack", "observation": {"hand": [1, 2.5, -3e-7, 10**30], "é": "ü\n\"",
                                                                    "none": None, "t": True, "f": False, "e": {}}},
    {"type": "event", "event": {"type": "kill", "data": {"dragon": "D9", "list": [[], [{}], ["\u2603"]]}}},
]


@pytest.mark.parametrize("message", SAMPLES)
def test_the_protocol_codec_reads_and_writes_what_the_json_module_does(message):
    from bots import sdk

    for line in (json.dumps(message).encode(), json.dumps(message, separators=(",", ":")).encode() + b"\n",
                 b"  " + json.dumps(message, ensure_ascii=False).encode() + b"\r\n"):
        assert sdk._loads(line) == json.loads(line) == message
    assert sdk._dumps(message) == json.dumps(message, separators=(",", ":")).encode()


def test_the_protocol_codec_refuses_what_the_json_module_refuses():
    from bots import sdk

    for line in (b"not json", b'{"a": 1} {"b": 2}', b'{"a": }', b"", b"\xff\xfe"):
        with pytest.raises(ValueError):
            json.loads(line)
        with pytest.raises(ValueError):
            sdk._loads(line)
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        sdk._dumps({"decision": {1, 2}})
    loop: dict = {}
    loop["self"] = loop
    with pytest.raises(ValueError, match=r"[Cc]ircular"):
        sdk._dumps(loop)
    assert sdk._dumps({"after": "failures"}) == b'{"after":"failures"}'  # no stale markers left


def test_a_bot_that_keeps_on_event_reads_no_event_line_and_one_that_overrides_it_gets_them(monkeypatch):
    from bots import sdk

    read = []
    loads = sdk._loads
    monkeypatch.setattr(sdk, "_loads", lambda line: read.append(line) or loads(line))

    class Quiet(Bot):
        def flip(self, observation):
            return {"stop": True}

    event = b'{"type":"event","event":{"type":"kill","data":{}}}\n'
    lines = b'{"type":"hello","seat":0}\n' + event + b'{"type":"request","id":1,"kind":"flip","observation":{}}\n'
    out = io.BytesIO()
    run(Quiet, io.BytesIO(lines + event + b'{"type":"end"}\n'), out)
    assert event not in read and len(read) == 3
    assert out.getvalue().splitlines() == [b'{"type":"ready","name":"Quiet"}', b'{"id":1,"decision":{"stop":true}}']
    bot, _ = converse(HELLO, bot_class=Recorder, raw=event)  # Recorder overrides on_event
    assert bot.events == [{"type": "kill", "data": {}}]


def test_a_ladder_bot_process_does_not_import_the_json_module():
    # `import json` costs a start ~26M instructions (its regular expressions): the SDK uses _json.
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import bots.drachengold.greedy; "
            "print('json' in sys.modules, 're' in sys.modules)")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"], out.stdout + out.stderr


FINALISED = (
    "import os, sys\n"
    "from bots.sdk import Bot, run\n"
    "class Noisy:\n"
    "    def __del__(self):\n"
    "        sys.stderr.write('finalised\\n')\n"
    "keep = Noisy()  # collected only by the interpreter's final clean-up\n"
)
END_LINES = b'{"type":"hello","seat":0}\n{"type":"end"}\n'


def _ladder_bot(script: str, tmp_path: Path, data: Path | None = None) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT), "LADDER_BOT": "1"}
    env.pop("LADDER_BOT_DATA", None)
    if data is not None:
        env["LADDER_BOT_DATA"] = str(data)
    return subprocess.run([sys.executable, "-c", script], input=END_LINES, capture_output=True, env=env,
                          cwd=tmp_path, timeout=60)


def test_after_the_end_a_ladder_bot_skips_the_final_clean_up_once_its_script_is_over(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    script = FINALISED + (
        "run(Bot)\n"
        "with open(os.path.join(os.environ['LADDER_BOT_DATA'], 'after.txt'), 'w') as fh:\n"
        "    fh.write('code after run still runs')\n"
        "print('printed after run')\n"
    )
    done = _ladder_bot(script, tmp_path, data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b'{"type":"ready","name":"Bot"}\n'
    assert (data / "after.txt").read_text() == "code after run still runs"
    assert b"printed after run" in done.stderr  # flushed before the process ends
    assert b"finalised" not in done.stderr  # the clean-up was skipped


@pytest.mark.parametrize("case", ["open data file", "atexit first", "raises", "not a ladder process"])
def test_the_final_clean_up_is_kept_whenever_something_may_need_it(tmp_path, case):
    data = tmp_path / "data"
    data.mkdir()
    script = FINALISED
    if case == "atexit first":
        script += "import atexit\natexit.register(lambda: sys.stderr.write('callback\\n'))\n"
    script += "run(Bot)\n"
    if case == "open data file":  # buffered, never closed: written only by the clean-up
        script += "held = open(os.path.join(os.environ['LADDER_BOT_DATA'], 'held.txt'), 'w')\nheld.write('kept')\n"
    if case == "raises":
        script += "raise RuntimeError('after the end')\n"
    if case == "not a ladder process":
        script = script.replace("from bots.sdk", "os.environ['LADDER_BOT'] = '0'\nfrom bots.sdk")
    done = _ladder_bot(script, tmp_path, data)
    assert b"finalised" in done.stderr, done.stderr
    assert done.returncode == (1 if case == "raises" else 0)
    if case == "open data file":
        assert (data / "held.txt").read_text() == "kept"
    if case == "atexit first":
        assert b"callback" in done.stderr
