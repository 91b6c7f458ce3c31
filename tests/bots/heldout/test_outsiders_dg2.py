"""The second set of outside-author Drachengold bots (bots/heldout/drachengold_hardline.py and
drachengold_sampler.py): whole games at every table size and with the advanced options, without a
fault or a refused decision, a few behaviours their docstrings promise; each one's `ladder match` as a
process is test_heldout.py's."""

from __future__ import annotations

import pytest
from heldout_support import TABLES, TOKENS, WORTH, made, negotiation, observation, play

from bots.heldout import drachengold_sampler
from bots.heldout.drachengold_hardline import HardlineBot
from bots.heldout.drachengold_sampler import SamplerBot, beat


@pytest.fixture
def quick_search(monkeypatch):
    # The same search on a smaller clock and fewer deals: every code path runs, the suite stays fast.
    monkeypatch.setattr(drachengold_sampler, "BUDGET_S", 0.004)
    monkeypatch.setattr(drachengold_sampler, "MAX_DEALS", 1)
    monkeypatch.setattr(drachengold_sampler, "MAX_CANDIDATES", 3)


@pytest.mark.parametrize(("players", "options"), TABLES)
@pytest.mark.parametrize("bot_class", [HardlineBot, SamplerBot])
def test_whole_games_without_a_fault(bot_class, players, options, quick_search):
    played = play(bot_class, players, options, seed=200 + players)
    assert played.faults == []  # no crash, no refused (illegal) decision
    assert [s.status for s in played.seats] == ["ok"] * players
    assert played.state.pending() is None


def test_the_exact_race_odds_are_symmetric_and_grow_with_the_lead():
    assert beat(0, 4, 0) == pytest.approx(0.5)
    assert beat(8, 4, 0) == pytest.approx(0.5)
    assert beat(8, 4, 1) > beat(8, 4, 0) > beat(8, 4, -1)
    assert beat(8, 4, 1) + beat(8, 4, -1) == pytest.approx(1.0)
    assert beat(0, 4, 2) == 1.0


CRUMBS = {"id": "p1", "proposer": 1, "round": 1, "shares": {"0": ["t0"], "1": [t["id"] for t in TOKENS[1:]]}}
GENEROUS = {"id": "p2", "proposer": 1, "round": 1,
            "shares": {"0": [t["id"] for t in TOKENS[3:]], "1": [t["id"] for t in TOKENS[:3]]}}


@pytest.mark.parametrize("bot_class", [HardlineBot, SamplerBot])
def test_neither_takes_crumbs_early_and_both_take_a_generous_split(bot_class):
    bot = made(bot_class)
    neg = negotiation({"0": 4, "1": 4}, TOKENS, standing=[CRUMBS, GENEROUS])
    assert bot.vote(observation(neg, [CRUMBS, GENEROUS]))["accept"] == ["p2"]


MODEST = {"id": "p3", "proposer": 1, "round": 8,
          "shares": {"0": ["t0", "t1", "t2", "t35", "t36"], "1": ["t3", "t4", "t5", "t37", "t38"]}}


@pytest.mark.parametrize("bot_class", [HardlineBot, SamplerBot])
def test_in_the_last_round_an_even_split_beats_losing_the_treasure(bot_class):
    bot = made(bot_class)
    neg = negotiation({"0": 4, "1": 4}, TOKENS, round_=8, standing=[MODEST])
    assert bot.vote(observation(neg, [MODEST]))["accept"] == ["p3"]


def test_hardline_lets_crumbs_for_it_and_a_feast_for_the_leader_go_even_at_the_deadline():
    bot = made(HardlineBot)
    neg = negotiation({"0": 4, "1": 4}, TOKENS, round_=8, standing=[CRUMBS])
    assert bot.vote(observation(neg, [CRUMBS]))["accept"] == []


@pytest.mark.parametrize("bot_class", [HardlineBot, SamplerBot])
def test_a_proposal_splits_every_token_and_keeps_more_than_it_gives(bot_class):
    bot = made(bot_class)
    neg = negotiation({"0": 4, "1": 4}, TOKENS, step="propose")
    shares = bot.propose(observation(neg, kind="propose"))["shares"]
    assert sorted(t for ids in shares.values() for t in ids) == sorted(t["id"] for t in TOKENS)
    assert sum(WORTH[t] for t in shares["0"]) > sum(WORTH[t] for t in shares["1"]) > 0


def test_hardline_reads_a_bar_off_the_votes():
    bot = made(HardlineBot)
    prior = bot.threshold(1, 1.0)
    bot.history[1].append((0.2, 0.3, True))  # took 30% of its demand early: takes it at the deadline too
    assert bot.threshold(1, 1.0) <= 0.31 < prior
    bot.history[2].append((1.0, 0.8, False))  # refused 80% of its demand in a last round
    assert bot.threshold(2, 1.0) > 0.8
