"""The two outside-author Drachengold bots (bots/heldout/drachengold_pivot.py and
drachengold_rollout.py): whole games at every table size and with the advanced options, without a
fault or a refused decision, and the behaviour each bot's docstring promises; each one's `ladder
match` as a process is test_heldout.py's."""

from __future__ import annotations

import pytest
from heldout_support import TABLES, TOKENS, WORTH, made, negotiation, observation, play

from bots.heldout import drachengold_rollout
from bots.heldout.drachengold_pivot import PivotBot
from bots.heldout.drachengold_rollout import RolloutBot


@pytest.fixture
def quick_rollouts(monkeypatch):
    # The same search on a smaller clock: every code path runs, the suite stays fast.
    monkeypatch.setattr(drachengold_rollout, "BUDGET_S", 0.03)


@pytest.mark.parametrize(("players", "options"), TABLES)
@pytest.mark.parametrize("bot_class", [PivotBot, RolloutBot])
def test_whole_games_without_a_fault(bot_class, players, options, quick_rollouts):
    played = play(bot_class, players, options, seed=100 + players)
    assert played.faults == []  # no crash, no refused (illegal) decision
    assert [s.status for s in played.seats] == ["ok"] * players
    assert played.state.pending() is None


def test_pivot_bounds_a_threshold_by_acceptances_before_and_last_round_refusals():
    bot = made(PivotBot)
    prior = bot.threshold(1, 0.5)
    bot.history[1].append((0.2, 0.6, True))  # took 60% of fair early: takes it later too
    assert bot.threshold(1, 0.5) <= 0.6 < prior
    bot.history[2].append((1.0, 0.95, False))  # refused 95% of fair in a last round
    assert bot.threshold(2, 1.0) > 0.95 > bot.threshold(0, 1.0)
    bot.history[3].append((0.0, 1.2, False))  # an early refusal is cheap talk: no bound
    assert bot.threshold(3, 0.0) == pytest.approx(bot.threshold(0, 0.0))
    bot.history[3].append((1.0, 3.0, False))  # however greedy its record, the offer is capped
    assert bot.threshold(3, 1.0) <= 1.05


@pytest.mark.parametrize("bot_class", [PivotBot, RolloutBot])
def test_neither_takes_crumbs_early_and_both_take_a_generous_split(bot_class):
    bot = made(bot_class)
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
    bot = made(bot_class)
    neg = negotiation({"0": 7, "1": 1}, TOKENS, step="propose")
    shares = bot.propose(observation(neg, kind="propose"))["shares"]
    assert sorted(t for ids in shares.values() for t in ids) == sorted(t["id"] for t in TOKENS)
    assert sum(WORTH[t] for t in shares["0"]) > sum(WORTH[t] for t in shares["1"])
