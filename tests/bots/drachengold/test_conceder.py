"""The time-dependent conceder: its demand falls with the rounds, and it plays legal games."""

from itertools import pairwise

import pytest

from bots.drachengold.conceder import OPENING, RESERVATION, ConcederBot
from ladder.games.drachengold.rules.data import TOKEN_COLOURS
from ladder.play import play_builtin


def token(colour: str, nth: int = 0) -> dict[str, str]:
    index = [i for i, c in enumerate(TOKEN_COLOURS) if c == colour][nth]
    return {"id": f"t{index}", "colour": colour}


TOKENS = [token("gold", i) for i in range(4)] + [token("silver", i) for i in range(4)]  # worth 16


def negotiation(round_: int, standing=()) -> dict:
    return {"negotiation": {"dragon": "D1", "involved": [0, 1], "order": [0, 1], "tokens": TOKENS, "rounds": 8,
                            "round": round_, "step": "propose", "standing": list(standing), "last_votes": {},
                            "attack": {"0": 4, "1": 4}}}


def conceder(seat: int = 0) -> ConcederBot:
    bot = ConcederBot()
    bot.setup({"game": "drachengold", "seat": seat, "players": 3, "options": {}, "bot_seed": 1})
    return bot


def claimed(decision: dict, seat: int = 0) -> int:
    worth = {t["id"]: 3 if t["colour"] == "gold" else 1 for t in TOKENS}
    return sum(worth[t] for t in decision["shares"][str(seat)])


def test_the_demand_falls_every_round_from_the_opening_to_the_reservation():
    bot = conceder()
    demands = [bot.demand(negotiation(r)["negotiation"]) for r in range(1, 9)]
    assert demands[0] == pytest.approx(OPENING) and demands[-1] == pytest.approx(RESERVATION)
    assert all(a > b for a, b in pairwise(demands))


def test_its_proposals_claim_less_as_the_deadline_nears():
    bot = conceder()
    claims = [claimed(bot.propose(negotiation(r))) for r in range(1, 9)]
    assert claims[0] > 8 > claims[-1]  # more than its fair half at first, less at the end
    assert all(a >= b for a, b in pairwise(claims))


def test_it_accepts_late_what_it_refused_early():
    offer = {"id": "p2", "proposer": 1, "round": 1,
             "shares": {"0": [t["id"] for t in TOKENS[:2]], "1": [t["id"] for t in TOKENS[2:]]}}  # 6 of 16
    bot = conceder()
    assert bot.vote(negotiation(1, [offer])) == {"accept": []}
    assert bot.vote(negotiation(8, [offer])) == {"accept": ["p2"]}


@pytest.mark.parametrize(("options", "players"), [({}, 4), ({"rules": "advanced-a"}, 3), ({"split": "strategic"}, 5)])
def test_it_plays_whole_legal_games_against_the_other_house_bots(options, players):
    lineup = ["conceder", "strong", "hardhead", "modeler", "bargainer"][:players]
    for seed in range(3):
        played = play_builtin("drachengold", lineup, seed=seed, options=options)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players
