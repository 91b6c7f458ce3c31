"""The starter kits in bots/examples/: each builds with the host's toolchain, as its README says, and
plays a game of every game in the strict sandbox without a single refused answer or takeover.

The ladder's own runtime table (which command runs which kit) is not what is tested here: each kit
is built into a temporary directory as its README says and run through `workers.runner.run_match`
with a command of the test's own, so a kit that stops building, crashes or answers illegally fails here first.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from needs import unavailable

from ladder.games import GAMES, get_game
from workers import packaging, runner
from workers.protocol import TimeControl

KITS = Path(__file__).parents[3] / "bots" / "examples"
JAVA = "/usr/bin/java"


def _build_env(home: Path) -> dict[str, str]:
    # Toolchains write caches under HOME (go, cargo): keep them in the temporary build directory.
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "GOCACHE": str(home / "gocache"),
            "GOPATH": str(home / "gopath"), "GOPROXY": "off", "CARGO_HOME": str(home / "cargo")}


# kit -> (tools it needs, build commands run in a copy of the kit, files to stage, command in /bot)
BUILDS: dict[str, tuple[tuple[str, ...], list[list[str]], list[str], list[str] | None]] = {
    "python": ((), [], ["main.py"], None),
    "node": (("/usr/bin/node",), [], ["main.js"], None),
    "c": (("/usr/bin/gcc",), [["/usr/bin/gcc", "-O2", "-o", "bot", "main.c"]], ["bot"], ["./bot"]),
    "cpp": (("/usr/bin/g++",), [["/usr/bin/g++", "-O2", "-std=c++17", "-o", "bot", "main.cpp"]], ["bot"], ["./bot"]),
    "rust": (("/usr/bin/cargo", "/usr/bin/rustc"), [["/usr/bin/cargo", "build", "--release", "--offline"]],
             ["target/release/bot"], ["./bot"]),
    "go": (("/usr/bin/go",), [["/usr/bin/go", "build", "-o", "bot", "."]], ["bot"], ["./bot"]),
    # The serial collector and a fixed heap start the JVM quickly on one CPU, well inside 512 MiB.
    "java": (("/usr/bin/javac", JAVA), [["/usr/bin/javac", "-d", ".", "Main.java"]], ["*.class"],
             [JAVA, "-XX:+UseSerialGC", "-Xmx256m", "-cp", "/bot", "Main"]),
    "static": (("/usr/bin/make", "/usr/bin/gcc"), [["/usr/bin/make"]], ["bot"], ["./bot"]),
}

# One short game of each game, the kit in two seats (it must agree with itself too) beside a
# house bot; Drachengold twice, so the advanced rules' magic and theft and the strategic split's
# divide and choose are asked as well as the negotiation and the market.
# Legality is tested here, not speed: allowances no loaded CI machine reaches (a JVM starting on a
# busy shared core can take seconds), so a slow start never reads as a faulty kit.
PATIENT = TimeControl(decision_ms=10_000, bank_ms=120_000, startup_ms=60_000)

MATCHES = [
    ("drachengold", {}, ["kit", "builtin:greedy", "kit"]),
    ("drachengold", {"rules": "advanced-a", "split": "strategic"}, ["kit", "builtin:trader", "kit"]),
    ("treasure", {}, ["kit", "builtin:careful"]),
    ("dragonflame", {}, ["kit", "builtin:looter", "kit"]),
]


def build(kit: str, workdir: Path) -> tuple[Path, list[str] | None]:
    """Build `kit` in a copy under `workdir`; returns the directory to stage and its command."""
    tools, steps, outputs, command = BUILDS[kit]
    missing = [tool for tool in tools if not os.access(tool, os.X_OK)]
    if missing:
        unavailable(f"the {kit} kit needs {', '.join(missing)}")
    src = workdir / "src"
    shutil.copytree(KITS / kit, src)
    for step in steps:
        done = subprocess.run(step, cwd=src, env=_build_env(workdir), capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{' '.join(step)} failed:\n{done.stdout}\n{done.stderr}"
    if command is None:  # run as uploaded: the ladder's entry points
        return src, None
    out = workdir / "out"
    out.mkdir()
    for pattern in outputs:
        found = sorted(src.glob(pattern))
        assert found, f"{kit}: the build made no {pattern}"
        for path in found:
            shutil.copy2(path, out / path.name)
    return out, command


def stage_kit(path: Path, command: list[str] | None, parent: Path) -> packaging.StagedBot:
    """A built kit staged under `parent` (which the sandbox's uid can reach) with its command."""
    if command is None:
        return packaging.stage(path, parent)
    # Read-only for everyone, like a staged upload (the sandbox's uid must read and run it).
    dest = Path(tempfile.mkdtemp(prefix="ladder-kit-", dir=parent))
    for item in path.iterdir():
        shutil.copy2(item, dest / item.name)
        (dest / item.name).chmod(0o555)
    dest.chmod(0o555)
    return packaging.StagedBot(dest, command[-1], list(command))


@pytest.fixture(scope="module", params=sorted(BUILDS))
def kit_build(request):
    """(kit, directory, command) of each kit, built once for the module's tests."""
    workdir = Path(tempfile.mkdtemp(prefix="kit-build-"))
    try:
        yield (request.param, *build(request.param, workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def kit_stager(monkeypatch):
    """`run_match` stages the spec "kit" as the built kit with its own command."""
    built: dict[str, tuple[Path, list[str] | None]] = {}
    original = runner.stage_bot

    def stage_bot(spec: str, game: str, parent: Path) -> packaging.StagedBot:
        if spec != "kit":
            return original(spec, game, parent)
        path, command = built["kit"]
        return stage_kit(path, command, parent)

    monkeypatch.setattr(runner, "stage_bot", stage_bot)
    return built


def test_each_kit_builds_and_plays_every_game_legally_in_the_strict_sandbox(kit_build, kit_stager, strict_sandbox):
    assert {game for game, _options, _lineup in MATCHES} == set(GAMES)
    kit, path, command = kit_build
    kit_stager["kit"] = (path, command)
    asked: dict[str, set[str]] = {game: set() for game in GAMES}
    for seed, (game, options, lineup) in enumerate(MATCHES, start=1):
        result = runner.run_match(lineup, game=game, seed=seed, options=options, sandbox=strict_sandbox,
                                  clock=PATIENT)
        kit_seats = {i for i, spec in enumerate(lineup) if spec == "kit"}
        asked[game] |= {e["kind"] for e in result.replay["log"] if e.get("seat") in kit_seats and "decision" in e}
        for seat, spec in zip(result.replay["seats"], lineup, strict=True):
            if spec != "kit":
                continue
            where = f"{kit} kit, {game} {options}, seat {seat['seat']}: {seat.get('stderr', '')[-2000:]}"
            assert seat["status"] == "ok" and seat["takeover"] is None, where
            assert not seat.get("strikes"), where
    # The seeds are chosen so that these few games ask every decision kind of every game.
    assert asked == {game: set(get_game(game).decision_kinds) for game in GAMES}


def test_the_static_kit_makes_an_executable_without_shared_libraries(tmp_path):
    path, _command = build("static", tmp_path)
    elf = (path / "bot").read_bytes()
    assert elf[:5] == b"\x7fELF\x02"  # 64-bit ELF
    # A dynamically linked executable names its loader in a PT_INTERP (3) program header.
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    types = [struct.unpack_from("<I", elf, phoff + i * phentsize)[0] for i in range(phnum)]
    assert types and 3 not in types


def test_the_static_kit_builds_the_c_kits_bot():
    # One bot, two ways to ship it: the copy in static/ must not drift from the C kit.
    assert (KITS / "static" / "main.c").read_bytes() == (KITS / "c" / "main.c").read_bytes()


def test_every_kit_directory_is_tested_and_has_a_readme():
    kits = {path.name for path in KITS.iterdir() if path.is_dir()}
    assert kits == set(BUILDS)
    assert all((KITS / kit / "README.md").is_file() for kit in kits)


# Lines a JSON reader must get right: every escape, a surrogate pair, numbers of every form,
# nesting, empty containers, fields in any order and fields and message types it does not know.
ODD_ID = "p\u00e9\"\U0001f409"  # written as the ladder writes: \u escapes, a surrogate pair
ODD = {"s": "\"q\" \\ / \b\f\n\r\t \u00e9 \U0001f409", "n": [-1.5e3, 0, 1e2, -0.25, 12345678901],
       "deep": [[[{"a": [{}, [], None, True, False]}]]], "empty": {}}


def test_each_kits_json_reader_takes_any_json_and_answers_by_id(kit_build, strict_sandbox, tmp_path):
    from workers.sandbox import BotProcess

    kit, path, command = kit_build
    root = Path(tempfile.mkdtemp(prefix="kit-json-"))
    root.chmod(0o755)
    staged = stage_kit(path, command, root)
    lines = [
        {"odd": ODD, "type": "hello", "protocol": 1, "game": "drachengold", "seat": 1, "players": 3, "options": {}},
        {"type": "event", "event": {"type": "future", "data": ODD}},
        {"type": "from-a-newer-protocol", "data": [ODD, ODD]},
        {"observation": {"odd": ODD, "request": {"kind": "vote", "proposals": ["p1", ODD_ID]},
                         "negotiation": {"round": 8, "rounds": 8, "involved": [0, 1], "tokens": [],
                                         "attack": {"0": 1, "1": 1}, "standing": [
                                             {"id": "p1", "shares": {"0": [], "1": []}},
                                             {"id": ODD_ID, "shares": {"0": [], "1": []}}]}},
         "kind": "vote", "id": 12345678, "type": "request"},
        {"type": "error", "id": 12345678, "code": "illegal", "reason": ODD["s"], "default": {}},
        {"type": "request", "id": 7, "kind": "choose",
         "observation": {"request": {"kind": "choose", "remaining": [2, 0]},
                         "strategic": {"tokens": [], "shares": [[], [], []]}}},
        {"type": "end", "results": [], "you": 1},
    ]
    bot = BotProcess.start(staged.command, staged.path, mode=strict_sandbox,
                           extra_ro_binds={runner.SDK_MOUNT: runner._stage_sdk(root)},
                           env={"PYTHONPATH": runner.SDK_MOUNT, "LADDER_BOT": "1"})
    try:
        answers = []
        for message in lines:
            assert bot.send_line(json.dumps(message).encode(),
                                 time.monotonic() + 30) == (True, "ok")
            if message["type"] in ("hello", "request"):
                line, reason = bot.read_line(time.monotonic() + 30)
                assert reason == "ok", (kit, reason, bot.stderr_tail())
                answers.append(json.loads(line))
    finally:
        bot.close()
        packaging.remove_staged(staged.path)
        for item in root.iterdir():
            packaging.remove_staged(item)
        packaging.remove_staged(root)
    assert answers[0]["type"] == "ready"
    assert answers[1] == {"id": 12345678, "decision": {"accept": ["p1", ODD_ID]}}
    assert answers[2]["id"] == 7 and answers[2]["decision"]["share"] in (2, 0)
