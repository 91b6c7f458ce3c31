"""The learned Treasure bot (bots/examples/learned/) and its tutorial, "A bot that learns" in
docs/bots.md: the tutorial's commands run as written (the tournament on a small scale) and give the
shipped model byte for byte; the bot plays only legal answers in the user and strict sandboxes;
it takes its model from its bot data folder first, else the one shipped beside it."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from match_support import run_specs

from ladder.play import make_bots, play_game

ROOT = Path(__file__).resolve().parents[3]
LEARNED = ROOT / "bots" / "examples" / "learned"
BIN = Path(sys.executable).parent  # the `ladder` and `python` of the installation under test
FENCE = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
SHIPPED_FILES = ("main.py", "policy.py", "train.py")


def tutorial_blocks() -> list[str]:
    """The ```sh blocks of docs/bots.md's "A bot that learns", in order."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("\n## A bot that learns\n", 1)[1].split("\n## ", 1)[0]
    return FENCE.findall(section)


def run_block(block: str, cwd: Path) -> subprocess.CompletedProcess:
    """One block as one shell script (its `export` holds for the lines after it), stopping at the
    first failing line, with this installation's commands first on PATH and a clean instance."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LADDER_") and k != "DATABASE_URL"}
    env.update(PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}", LADDER_ENV="test")
    return subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A folder laid out as the repository for the tutorial's paths, holding the bot's code but
    not its model: the steps must make it."""
    folder = tmp_path / "repo"
    (folder / "bots" / "examples" / "learned").mkdir(parents=True)
    for name in SHIPPED_FILES:
        shutil.copy2(LEARNED / name, folder / "bots" / "examples" / "learned" / name)
    return folder


def test_the_tutorial_has_its_steps():
    blocks = tutorial_blocks()
    assert len(blocks) == 3
    assert "ladder play --game treasure" in blocks[0] and "--record" in blocks[0] and "train.py" in blocks[0]
    assert blocks[1].startswith("ladder tournament bots/examples/learned ") and "--sandbox strict" in blocks[1]
    assert "ladder match learned-games/learned.zip" in blocks[2]


def test_the_shipped_model_is_the_documented_one(checkout):
    """Steps 1 and 2 as written: record, export, train. The model shipped in the repository must be
    what they write. A change to the starter bots, the rules, the export or the training that moves
    it fails here: rerun the steps and commit the new model.json (and the tutorial's figures)."""
    done = run_block(tutorial_blocks()[0], checkout)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    made = checkout / "bots" / "examples" / "learned" / "model.json"
    assert made.read_bytes() == (LEARNED / "model.json").read_bytes(), made.read_text()
    model = json.loads(made.read_text())
    assert model["trained_on"]["matches"] == 300 and model["trained_on"]["decisions"] > 1000


def test_the_tournament_and_the_package_steps_run_as_documented(checkout, strict_sandbox):
    """Steps 3 and 4 on a small scale: one deal (6 matches) instead of 24, then the zip and its
    match. Even one deal puts the learned bot ahead of random."""
    shutil.copy2(LEARNED / "model.json", checkout / "bots" / "examples" / "learned" / "model.json")
    (checkout / "learned-games").mkdir()
    tournament, package = tutorial_blocks()[1:]
    small = re.sub(r"--deals \d+", "--deals 1", tournament).replace("--sandbox strict", f"--sandbox {strict_sandbox}")
    done = run_block(small.rstrip("\n") + " --jobs 1\n", checkout)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    report = json.loads((checkout / "learned-games" / "tournament" / "tournament.json").read_text())
    assert len(report["matches"]) == 6
    rows = {row["name"]: row for row in report["standings"]}
    assert rows["learned"]["forfeits"] == 0
    assert rows["learned"]["rank"]["mean"] < rows["random"]["rank"]["mean"]

    done = run_block(package, checkout)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("mode", ["user", "strict"])
def test_the_bot_plays_only_legal_answers_in_the_sandbox(mode, request):
    sandbox = request.getfixturevalue(f"{mode}_sandbox")
    for seed, lineup in ((3, [str(LEARNED), "builtin:careful", "builtin:random"]),
                         (4, ["builtin:memory", str(LEARNED)])):
        result = run_specs(lineup, game="treasure", seed=seed, sandbox=sandbox, seed_key=b"learned")
        replay = result.replay.to_json()
        seat = next(s for s in replay["seats"] if s["bot"] == str(LEARNED))
        where = f"{mode}, seed {seed}: {seat.get('stderr', '')[-2000:]}"
        assert seat["status"] == "ok" and not seat.get("strikes") and seat["takeover"] is None, where
        assert re.search(r"model: \S*/model\.json", seat["stderr"]), where  # the shipped model was read
        mine = [e for e in replay["log"] if "decision" in e and e["seat"] == seat["seat"]]
        assert mine and not any("fault" in e for e in mine), where
        assert {e["kind"] for e in mine} >= {"flip"}


def _bot_module(monkeypatch):
    monkeypatch.syspath_prepend(str(LEARNED))
    spec = importlib.util.spec_from_file_location("learned_main", LEARNED / "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _model(weights: dict[str, float], features=None) -> str:
    from policy import FEATURES

    return json.dumps({"features": list(features or FEATURES),
                       "weights": [weights.get(name, 0.0) for name in (features or FEATURES)]})


def test_the_bot_data_model_comes_first_then_the_shipped_one(monkeypatch, tmp_path):
    main = _bot_module(monkeypatch)
    monkeypatch.delenv("LADDER_BOT_DATA", raising=False)
    assert main.model_paths() == [LEARNED / "model.json"]
    shipped, where = main.load_model(main.model_paths())
    assert where == LEARNED / "model.json"
    assert shipped == json.loads((LEARNED / "model.json").read_text())["weights"]

    monkeypatch.setenv("LADDER_BOT_DATA", str(tmp_path))
    assert main.load_model(main.model_paths())[1] == LEARNED / "model.json"  # an empty data folder
    (tmp_path / "model.json").write_text(_model({"stop": 5.0}))
    weights, where = main.load_model(main.model_paths())
    assert where == tmp_path / "model.json" and weights[0] == 5.0


@pytest.mark.parametrize("text", ["{not json", "[]", '{"features": ["x"], "weights": [1]}',
                                  '{"features": null}', "STOP-ONE-WEIGHT"])
def test_an_unreadable_bot_data_model_is_logged_and_skipped(monkeypatch, tmp_path, text):
    main = _bot_module(monkeypatch)
    if text == "STOP-ONE-WEIGHT":
        from policy import FEATURES

        text = json.dumps({"features": list(FEATURES), "weights": [1.0]})
    (tmp_path / "model.json").write_text(text)
    monkeypatch.setenv("LADDER_BOT_DATA", str(tmp_path))
    said = []
    weights, where = main.load_model(main.model_paths(), said.append)
    assert where == LEARNED / "model.json" and len(weights) == len(json.loads(where.read_text())["weights"])
    assert len(said) == 1 and str(tmp_path / "model.json") in said[0]


def test_the_model_decides_how_the_bot_plays(monkeypatch, tmp_path):
    """In-process, with a model from the bot data folder: one that always stops keeps far fewer
    tiles than the shipped one over the same deals (so the bot really plays the model it loads)."""
    main = _bot_module(monkeypatch)

    def scores(data_dir: Path | None) -> int:
        if data_dir is None:
            monkeypatch.delenv("LADDER_BOT_DATA", raising=False)
        else:
            monkeypatch.setenv("LADDER_BOT_DATA", str(data_dir))
        total = 0
        for seed in range(1, 9):
            bots = [main.LearnedBot(), *make_bots("treasure", ["careful"])]
            replay = play_game("treasure", bots, seed=seed, names=["learned", "careful"]).replay
            assert replay.seats[0].status == "ok"
            total += replay.results[0].score
        return total

    (tmp_path / "model.json").write_text(_model({"stop": 100.0}))
    assert scores(tmp_path) * 2 < scores(None)


def test_training_reads_every_winning_flip_of_the_export(monkeypatch, tmp_path):
    """train.decision_rows on a tiny export: one row per flip of the winning seat, and the answer
    it took is among the choices (its features are the chosen row)."""
    monkeypatch.syspath_prepend(str(LEARNED))
    from sqlmodel import Session

    from ladder.db import make_engine, session_factory, upgrade
    from ladder.services.export import export_matches
    from ladder.services.house_games import record_house_games

    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    upgrade(engine)
    with Session(engine) as session:
        [game] = record_house_games(session=session, game="treasure", bots=["careful", "random"], seeds=[9])
    export_matches(session_factory(engine), tmp_path / "export")
    engine.dispose()
    spec = importlib.util.spec_from_file_location("learned_train", LEARNED / "train.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)

    chosen, others, matches = train.decision_rows(tmp_path / "export")

    winner = next(r.seat for r in game.replay.results if r.rank == 1)
    flips = [e for e in game.replay.to_json()["log"] if e.get("kind") == "flip" and e.get("seat") == winner
             and "decision" in e]
    assert matches == 1 and len(chosen) == len(others) == len(flips) > 0
    assert all(len(row) == len(train.FEATURES) for row in chosen)
