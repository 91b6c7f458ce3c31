"""The modeler: it remembers which splits each opponent accepted and proposes the like."""

import pytest

from bots.drachengold.modeler import ModelerBot
from ladder.play import play_builtin
from tests.bots.drachengold.test_conceder import TOKENS, claimed, negotiation


def modeler(seat: int = 0) -> ModelerBot:
    bot = ModelerBot()
    bot.setup({"game": "drachengold", "seat": seat, "players": 3, "options": {}, "bot_seed": 1})
    return bot


def test_knowing_nothing_it_offers_the_fair_part():
    assert claimed(modeler().propose(negotiation(1)), seat=1) >= 8


def test_it_offers_what_an_opponent_accepted_before_at_that_stage():
    bot = modeler()
    # Round 3: seat 1 accepted seat 0's proposal that gave it 4 of 16 (half its fair part).
    low = {"id": "p1", "proposer": 0, "round": 3,
           "shares": {"0": [t["id"] for t in TOKENS[:4]], "1": [t["id"] for t in TOKENS[4:]]}}
    bot.vote(negotiation(3, [low]))
    bot.on_event({"type": "votes", "data": {"dragon": "D1", "round": 3, "votes": {"0": ["p1"], "1": ["p1"]}}})
    # The next negotiation: from round 3 on it offers about that; before, still the fair part.
    assert claimed(bot.propose(negotiation(4)), seat=1) == 4
    assert claimed(bot.propose(negotiation(1)), seat=1) >= 8


def test_a_refusal_teaches_it_nothing_to_offer_less():
    bot = modeler()
    low = {"id": "p1", "proposer": 0, "round": 3,
           "shares": {"0": [t["id"] for t in TOKENS[:4]], "1": [t["id"] for t in TOKENS[4:]]}}
    bot.vote(negotiation(3, [low]))
    bot.on_event({"type": "votes", "data": {"dragon": "D1", "round": 3, "votes": {"0": ["p1"], "1": []}}})
    assert claimed(bot.propose(negotiation(4)), seat=1) >= 8


@pytest.mark.parametrize(("options", "players"), [({}, 4), ({"rules": "advanced-a", "split": "strategic"}, 3)])
def test_it_plays_whole_legal_games_against_the_other_house_bots(options, players):
    lineup = ["modeler", "hardhead", "strong", "conceder"][:players]
    for seed in range(3):
        played = play_builtin("drachengold", lineup, seed=seed, options=options)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players
