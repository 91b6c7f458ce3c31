"""The two outside-author Drachengold bots (bots/heldout/drachengold_pivot.py and
drachengold_rollout.py): whole games at every table size and with the advanced options, without a
fault or a refused decision, and the behaviour each bot's docstring promises."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bots import load_builtin
from bots.heldout import drachengold_rollout
from bots.heldout.drachengold_pivot import PivotBot
from bots.heldout.drachengold_rollout import RolloutBot
from ladder.play import play_game

ROOT = Path(__file__).resolve().parents[3]
FILLERS = ["strong", "greedy", "trader", "bargainer", "greedy"]
TABLES = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (4, {"rules": "advanced-a"}),
    (4, {"rules": "advanced-b", "split": "strategic"}),
    (5, {"rules": "advanced-a", "split": "strategic", "negotiation_rounds": 3, "market_rounds": 2}),
]


@pytest.fixture
def quick_rollouts(monkeypatch):
    # The same search on a smaller clock: every code path runs, the suite stays fast.
    monkeypatch.setattr(drachengold_rollout, "BUDGET_S", 0.03)


def play(bot_class, players: int, options: dict, seed: int):
    bots = [bot_class()] + [load_builtin("drachengold", n)() for n in FILLERS[: players - 1]]
    return play_game("drachengold", bots, seed=seed, options=options)


@pytest.mark.parametrize(("players", "options"), TABLES)
@pytest.mark.parametrize("bot_class", [PivotBot, RolloutBot])
def test_whole_games_without_a_fault(bot_class, players, options, quick_rollouts):
    played = play(bot_class, players, options, seed=100 + players)
    assert played.faults == []  # no crash, no refused (illegal) decision
    assert [s.status for s in played.seats] == ["ok"] * players
    assert played.state.pending() is None


def test_pivot_bounds_a_threshold_by_acceptances_before_and_last_round_refusals():
    bot = PivotBot()
    bot.setup({"game": "drachengold", "seat": 0, "players": 4, "options": {"rules": "basic"}, "seed": 1})
    prior = bot.threshold(1, 0.5)
    bot.history[1].append((0.2, 0.6, True))  # took 60% of fair early: takes it later too
    assert bot.threshold(1, 0.5) <= 0.6 < prior
    bot.history[2].append((1.0, 0.95, False))  # refused 95% of fair in a last round
    assert bot.threshold(2, 1.0) > 0.95 > bot.threshold(0, 1.0)
    bot.history[3].append((0.0, 1.2, False))  # an early refusal is cheap talk: no bound
    assert bot.threshold(3, 0.0) == pytest.approx(bot.threshold(0, 0.0))
    bot.history[3].append((1.0, 3.0, False))  # however greedy its record, the offer is capped
    assert bot.threshold(3, 1.0) <= 1.05


def negotiation(seat_attack: dict[str, int], tokens, round_=1, rounds=8, standing=()):
    return {"dragon": "D9", "involved": sorted(int(s) for s in seat_attack), "order": [0, 1],
            "tokens": tokens, "rounds": rounds, "round": round_, "step": "vote",
            "standing": list(standing), "last_votes": {}, "attack": seat_attack}


TOKENS = [{"id": f"t{i}", "colour": "silver"} for i in range(6)] + [{"id": f"t{35 + i}", "colour": "gold"}
                                                                      for i in range(4)]


def observation(neg, proposals=()):
    return {"seat": 0, "players": 4, "hoard": [], "dragons": [], "bag": 80, "negotiation": neg,
            "request": {"kind": "vote", "proposals": [p["id"] for p in proposals]}}


@pytest.mark.parametrize("bot_class", [PivotBot, RolloutBot])
def test_neither_takes_crumbs_early_and_both_take_a_generous_split(bot_class):
    bot = bot_class()
    bot.setup({"game": "drachengold", "seat": 0, "players": 4, "options": {"rules": "basic"}, "seed": 1})
    crumbs = {"id": "p1", "proposer": 1, "round": 1,
              "shares": {"0": ["t0"], "1": [t["id"] for t in TOKENS[1:]]}}
    generous = {"id": "p2", "proposer": 1, "round": 1,
                "shares": {"0": [t["id"] for t in TOKENS[4:]], "1": [t["id"] for t in TOKENS[:4]]}}
    neg = negotiation({"0": 4, "1": 4}, TOKENS, standing=[crumbs, generous])
    bot.ledger.learn(TOKENS)
    vote = bot.vote(observation(neg, [crumbs, generous]))
    assert vote["accept"] == ["p2"]


@pytest.mark.parametrize("bot_class", [PivotBot, RolloutBot])
def test_a_proposal_splits_every_token_and_favours_the_bigger_attacker(bot_class):
    bot = bot_class()
    bot.setup({"game": "drachengold", "seat": 0, "players": 4, "options": {"rules": "basic"}, "seed": 1})
    neg = dict(negotiation({"0": 7, "1": 1}, TOKENS), step="propose")
    obs = dict(observation(neg), request={"kind": "propose"})
    shares = bot.propose(obs)["shares"]
    assert sorted(t for ids in shares.values() for t in ids) == sorted(t["id"] for t in TOKENS)
    worth = {t["id"]: 3 if t["colour"] == "gold" else 1 for t in TOKENS}
    assert sum(worth[t] for t in shares["0"]) > sum(worth[t] for t in shares["1"])


@pytest.mark.parametrize("name", ["pivot", "rollout"])
def test_each_runs_as_a_process_through_ladder_match(name, tmp_path):
    bot = ROOT / "bots" / "heldout" / f"drachengold_{name}.py"
    out = subprocess.run(
        [sys.executable, "-c", "from ladder.cli import main; main()", "match", str(bot), "builtin:strong",
         "builtin:greedy", "--seed", "33", "--sandbox", "none", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert [r["status"] for r in result["results"]] == ["ok", "ok", "ok"]
