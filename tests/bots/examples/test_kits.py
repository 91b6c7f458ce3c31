"""The starter kits in bots/examples/: each is built and run by the ladder's own runtime table
(ladder/bot/runtimes.py) exactly as an upload is, through `workers.match.runner.run` in the strict
sandbox: the compiled ones by the compile step (workers/build/builds.py) in their runtime's build tree,
every one running in its runtime's tree. Each plays a game of every game without a single refused
answer or takeover, and its JSON reader takes any JSON.

The static kit is the one an author builds: `make` here, then only its `bot` is staged, as the
README says to upload it.
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
from match_support import run_specs
from needs import unavailable

from ladder.bot import runtimes
from ladder.games import GAMES, get_game
from workers.build import builds, packaging, sdk
from workers.match import runner
from workers.match.protocol import TimeControl

KITS = Path(__file__).parents[3] / "bots" / "examples"
# kit folder -> the runtime whose entry point it holds (the static kit's upload is its built `bot`)
KIT_RUNTIMES = {"python": "python", "python-ml": "python-ml", "node": "node", "c": "c", "cpp": "cpp", "rust": "rust",
                "go": "go", "java": "java", "static": "static"}


def build(kit: str, workdir: Path) -> tuple[Path, list[str] | None]:
    """The folder an author would upload for `kit` (a copy; the static kit built with make)."""
    runtime = runtimes.BY_NAME[KIT_RUNTIMES[kit]]
    ok, why = runtimes.available(runtime)
    if not ok:
        unavailable(f"the {kit} kit's runtime: {why}")
    src = workdir / "src"
    shutil.copytree(KITS / kit, src)
    if kit != "static":
        return src, None
    if not os.access("/usr/bin/make", os.X_OK) or not os.access("/usr/bin/gcc", os.X_OK):
        unavailable("the static kit is built with make and gcc")
    done = subprocess.run(["/usr/bin/make"], cwd=src, env={"PATH": "/usr/bin:/bin"}, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"make failed:\n{done.stdout}\n{done.stderr}"
    upload = workdir / "upload"
    upload.mkdir()
    shutil.copy2(src / "bot", upload / "bot")
    return upload, None


# One short game of each game, the kit in two seats (it must agree with itself too) beside a
# house bot; Drachengold twice, so the advanced rules' magic and theft and the strategic split's
# divide and choose are asked as well as the negotiation and the market.
# Legality is tested here, not speed: allowances no loaded CI machine reaches (a JVM starting on a
# busy shared core can take seconds), so a slow start never reads as a faulty kit.
PATIENT = TimeControl(decision_ms=10_000, bank_ms=120_000, startup_ms=60_000)

KIT_SEED_KEY = b"kit games 0"  # with these seeds the python kit is asked every kind, spy included
# The python-ml kit's bot has another class name, so another stream of choices (bots.sdk seeds
# self.rng with it): its own key, with which it too is asked every kind.
KIT_SEED_KEYS = {"python-ml": b"kit games 1"}
MATCHES = [
    ("drachengold", {}, ["kit", "builtin:greedy", "kit"]),
    ("drachengold", {"rules": "advanced-a", "split": "strategic"}, ["kit", "builtin:trader", "kit"]),
    ("treasure", {}, ["kit", "builtin:careful"]),
    ("dragonflame", {}, ["kit", "builtin:looter", "kit"]),
]


@pytest.fixture(scope="module", params=sorted(KIT_RUNTIMES))
def kit_build(request):
    """(kit, the folder to upload, a build cache) of each kit, the cache shared by its tests."""
    workdir = Path(tempfile.mkdtemp(prefix="kit-build-"))
    workdir.chmod(0o755)
    try:
        path, _ = build(request.param, workdir)
        yield request.param, path, builds.DirCache(workdir / "cache")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def test_each_kit_builds_and_plays_every_game_legally_in_the_strict_sandbox(kit_build, strict_sandbox):
    assert {game for game, _options, _lineup in MATCHES} == set(GAMES)
    kit, path, cache = kit_build
    asked: dict[str, set[str]] = {game: set() for game in GAMES}
    built: list[int] = []
    for seed, (game, options, lineup) in enumerate(MATCHES, start=1):
        specs = [str(path) if spec == "kit" else spec for spec in lineup]
        # a fixed key for the bots' seeds (a fresh secret per match otherwise): the same games each run
        result = run_specs(specs, game=game, seed=seed, options=options, sandbox=strict_sandbox,
                                  clock=PATIENT, build_cache=cache, on_build=lambda seat, _r: built.append(seat),
                                  seed_key=KIT_SEED_KEYS.get(kit, KIT_SEED_KEY))
        kit_seats = {i for i, spec in enumerate(lineup) if spec == "kit"}
        replay = result.replay.to_json()
        asked[game] |= {e["kind"] for e in replay["log"] if e.get("seat") in kit_seats and "decision" in e}
        for seat, spec in zip(replay["seats"], lineup, strict=True):
            if spec != "kit":
                continue
            where = f"{kit} kit, {game} {options}, seat {seat['seat']}: {seat.get('stderr', '')[-2000:]}"
            assert seat["status"] == "ok" and seat["takeover"] is None, where
            assert not seat.get("strikes"), where
    # The seeds are chosen so that these few games ask every decision kind of every game.
    assert asked == {game: set(get_game(game).decision_kinds) for game in GAMES}
    # A compiled kit is built once, at its first seat: every other seat and match reuses the artifact.
    assert built == ([0] if runtimes.BY_NAME[KIT_RUNTIMES[kit]].compiled else [])


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


def test_the_python_ml_kit_plays_on_the_python_kits_starter():
    # One starter, two kits: the python-ml kit ships the Python kit's bot beside its own main_ml.py.
    assert (KITS / "python-ml" / "starter.py").read_bytes() == (KITS / "python" / "main.py").read_bytes()


def test_the_python_ml_kit_imports_torch_within_the_default_clock(strict_sandbox):
    # The ladder's own clock, not the patient one above: the runtime's start-up floor
    # (ladder/bot/runtimes.py, 20 s to ready) must cover importing torch in the strict sandbox.
    path, _ = build("python-ml", Path(tempfile.mkdtemp(prefix="kit-ml-")))
    result = run_specs([str(path), "builtin:careful"], game="treasure", seed=5, sandbox=strict_sandbox)
    seat = result.replay.to_json()["seats"][0]
    assert seat["status"] == "ok" and seat["takeover"] is None and not seat.get("strikes"), seat.get("stderr")
    assert "torch 1." in seat["stderr"] or "torch 2." in seat["stderr"], seat.get("stderr")


# Worked examples beside the kits: no README.md, so the site does not offer them as a language
# kit (ladder/services/kits.py); each has its own tests and its tutorial in docs/bots.md.
EXAMPLES = {"learned": "tests/bots/examples/test_learned.py"}


def test_every_kit_directory_is_tested_and_has_a_readme():
    kits = {path.name for path in KITS.iterdir() if path.is_dir() and path.name not in EXAMPLES}
    assert kits == set(KIT_RUNTIMES)
    assert all((KITS / name).is_dir() and not (KITS / name / "README.md").exists()
               and (KITS.parents[1] / test).is_file() for name, test in EXAMPLES.items())
    assert set(KIT_RUNTIMES.values()) == set(runtimes.BY_NAME)  # a kit for every runtime
    assert all((KITS / kit / "README.md").is_file() for kit in kits)


# Lines a JSON reader must get right: every escape, a surrogate pair, numbers of every form,
# nesting, empty containers, fields in any order and fields and message types it does not know.
ODD_ID = "p\u00e9\"\U0001f409"  # written as the ladder writes: \u escapes, a surrogate pair
ODD = {"s": "\"q\" \\ / \b\f\n\r\t \u00e9 \U0001f409", "n": [-1.5e3, 0, 1e2, -0.25, 12345678901],
       "deep": [[[{"a": [{}, [], None, True, False]}]]], "empty": {}}


def test_each_kits_json_reader_takes_any_json_and_answers_by_id(kit_build, strict_sandbox, tmp_path):
    from workers.sandbox.process import BotProcess

    kit, path, cache = kit_build
    root = Path(tempfile.mkdtemp(prefix="kit-json-"))
    root.chmod(0o755)
    staged = runner.runnable([packaging.stage(path, root)], mode=strict_sandbox, cache=cache, parent=root)[0]
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
                           extra_ro_binds={sdk.SDK_MOUNT: sdk.stage_sdk(root)},
                           env={"PYTHONPATH": sdk.SDK_MOUNT, "LADDER_BOT": "1"},
                           view=runner.runtime_tree(staged.entry, strict_sandbox))
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
