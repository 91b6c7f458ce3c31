"""Drachengold's negotiation facts for the collusion report, read from real replays."""

from __future__ import annotations

from ladder.games import get_game
from ladder.play import play_builtin, play_game

acts = get_game("drachengold").part("negotiations").acts


def test_offers_and_votes_are_shares_of_the_tokens_worth_with_fair_parts():
    replay = play_builtin("drachengold", ["greedy", "conceder", "hardhead", "bargainer"], seed=4).replay.to_json()
    offers, votes = acts(replay)
    assert offers and votes
    assert all(0 <= o.share <= 1 and 0 <= o.fair <= 1 and o.proposer != o.receiver for o in offers)
    assert all(0 <= v.share <= 1 and v.voter != v.proposer for v in votes)
    negotiations = sum(1 for e in replay["log"] if e.get("type") == "negotiation")
    opening = {(o.proposer, o.receiver) for o in offers}
    assert len(offers) >= len(opening) and negotiations > 0


def test_the_feeder_offers_the_taker_everything():
    puppets = get_game("drachengold").sock_puppet_module()
    bots = [puppets.FeederBot(1), puppets.TakerBot(), *[get_game("drachengold").bot_class(n)() for n in ("greedy",
                                                                                                       "trader")]]
    seen = 0
    for seed in range(4):
        replay = play_game("drachengold", bots, seed=seed).replay.to_json()
        offers, votes = acts(replay)
        to_taker = [o for o in offers if o.proposer == 0 and o.receiver == 1]
        assert all(o.share == 1.0 for o in to_taker)
        assert all(v.accepted for v in votes if v.voter == 0 and v.proposer == 1)
        seen += len(to_taker)
    assert seen > 0
