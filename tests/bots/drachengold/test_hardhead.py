"""The hard-headed negotiator: the same high claim every round, and a floor it never goes under."""

import pytest

from bots.drachengold.hardhead import RESERVATION, HardheadBot
from ladder.play import play_builtin
from tests.bots.drachengold.test_conceder import TOKENS, claimed, negotiation


def hardhead(seat: int = 0) -> HardheadBot:
    bot = HardheadBot()
    bot.setup({"game": "drachengold", "seat": seat, "players": 3, "options": {}, "bot_seed": 1})
    return bot


def offer(worth_to_seat_0: int) -> dict:
    """A proposal giving seat 0 gold then silver up to the given face worth."""
    mine, got = [], 0
    for t in TOKENS:
        v = 3 if t["colour"] == "gold" else 1
        if got + v <= worth_to_seat_0:
            mine.append(t["id"])
            got += v
    assert got == worth_to_seat_0
    return {"id": "p2", "proposer": 1, "round": 1,
            "shares": {"0": mine, "1": [t["id"] for t in TOKENS if t["id"] not in mine]}}


def test_it_claims_the_same_every_round():
    bot = hardhead()
    claims = {claimed(bot.propose(negotiation(r))) for r in range(1, 9)}
    assert len(claims) == 1 and claims.pop() > 8  # over its fair half, and never less


def test_even_in_the_last_round_it_refuses_anything_under_its_floor():
    # Fair is 8 of 16: the floor is 8 * RESERVATION.
    bot = hardhead()
    below, at = offer(9), offer(10)
    assert 9 < 8 * RESERVATION <= 10
    for r in (1, 4, 8):
        assert bot.vote(negotiation(r, [below])) == {"accept": []}
        assert bot.vote(negotiation(r, [at])) == {"accept": ["p2"]}


@pytest.mark.parametrize(("options", "players"), [({}, 4), ({"rules": "advanced-b"}, 6)])
def test_it_plays_whole_legal_games_against_the_other_house_bots(options, players):
    lineup = ["hardhead", "conceder", "modeler", "strong", "greedy", "trader"][:players]
    for seed in range(3):
        played = play_builtin("drachengold", lineup, seed=seed, options=options)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players
