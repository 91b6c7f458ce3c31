"""The greedy starter's sharing: proposals split a dead dragon's treasure by attack strength."""

from collections import Counter

import pytest

from bots.drachengold.greedy import GreedyBot, fair_shares, value
from ladder.games.drachengold.rules.data import TOKEN_COLOURS
from ladder.play import play_builtin

TOKENS = [{"id": f"t{i}", "colour": c} for i, c in enumerate(TOKEN_COLOURS)]


def pick(*colours: str) -> list[dict[str, str]]:
    """The first unused token of each colour, in order."""
    left, out = list(TOKENS), []
    for colour in colours:
        out.append(next(t for t in left if t["colour"] == colour))
        left.remove(out[-1])
    return out


CONFIGS = [
    # (tokens, attack by seat): strongest attacker first, last, or tied; big and small treasures
    (pick("gold", "gold", "silver", "silver", "red", "blue"), {0: 2, 1: 6}),
    (pick("black", "white", "gold", "silver", "silver", "green", "purple", "red"), {0: 5, 1: 3, 2: 1}),
    (pick("gold", "gold", "gold", "gold", "silver", "silver", "silver", "silver"), {0: 4, 1: 4}),
    (pick("silver", "silver", "silver", "gold", "yellow", "red"), {2: 1, 0: 1, 3: 7}),
    (pick(*["silver"] * 9 + ["gold"] * 3), {0: 3, 1: 2, 2: 2, 3: 5}),
]


@pytest.mark.parametrize(("tokens", "attack"), CONFIGS)
def test_the_shares_follow_attack_and_hand_out_every_token_once(tokens, attack):
    shares = fair_shares(tokens, attack)
    assert set(shares) == set(attack)
    handed = [t["id"] for share in shares.values() for t in share]
    assert sorted(handed) == sorted(t["id"] for t in tokens)  # every token exactly once
    assert sum(value(share) for share in shares.values()) == value(tokens)
    mass = sum(attack.values())
    for seat, strength in attack.items():
        # Token count: its largest-remainder quota (within one of the exact proportion).
        assert abs(len(shares[seat]) - len(tokens) * strength / mass) < 1
        # Worth: its proportional part, give or take the dearest token of the treasure.
        dearest = max(value([t]) for t in tokens)
        assert abs(value(shares[seat]) - value(tokens) * strength / mass) <= dearest


def test_the_weakest_attacker_is_not_left_out_and_the_strongest_does_not_take_all():
    # The validation replay's case: seat 0 attacked with 2, seat 1 with 6.
    shares = fair_shares(pick("gold", "gold", "silver", "silver", "red", "blue"), {0: 2, 1: 6})
    # 1.5 and 4.5 tokens: the tied remainder goes to the stronger; worth 2.5 and 9.5 of 12.
    assert [len(shares[0]), len(shares[1])] == [1, 5] and value(shares[0]) == 2.5


def test_a_treasure_smaller_than_the_attackers_goes_to_the_strongest():
    shares = fair_shares(pick("gold", "silver"), {0: 1, 1: 5, 2: 3})
    assert {s: len(ts) for s, ts in shares.items()} == {0: 0, 1: 1, 2: 1}
    assert [t["colour"] for t in shares[1]] == ["gold"]


def test_zero_attack_everywhere_splits_evenly():
    shares = fair_shares(pick("silver", "silver", "silver", "silver"), {0: 0, 1: 0})
    assert Counter(len(ts) for ts in shares.values()) == Counter({2: 2})


@pytest.mark.parametrize(("tokens", "attack"), CONFIGS)
def test_the_proposal_gives_the_proposer_its_proportional_part(tokens, attack):
    for seat in attack:
        bot = GreedyBot()
        bot.setup({"game": "drachengold", "seat": seat, "players": 4, "options": {}, "bot_seed": 1})
        neg = {"involved": list(attack), "tokens": tokens, "attack": {str(s): a for s, a in attack.items()}}
        proposal = bot.propose({"negotiation": neg})["shares"]
        mine = [t for t in tokens if t["id"] in proposal[str(seat)]]
        assert abs(len(mine) - len(tokens) * attack[seat] / sum(attack.values())) < 1


@pytest.mark.parametrize("options", [{}, {"rules": "advanced-a"}])
def test_in_played_games_greedy_never_proposes_itself_nothing_when_it_earned_a_share(monkeypatch, options):
    seen = []
    propose = GreedyBot.propose

    def recording(self, obs):
        decision = propose(self, obs)
        seen.append((self.seat, obs["negotiation"], decision["shares"]))
        return decision

    monkeypatch.setattr(GreedyBot, "propose", recording)
    for seed in range(3):
        for lineup in (["greedy", "bargainer", "trader", "greedy"], ["trader", "greedy", "greedy", "bargainer"]):
            assert play_builtin("drachengold", lineup, seed=seed, options=options).faults == []
    earned = 0
    for seat, neg, shares in seen:
        attack = neg["attack"]
        ids = sorted(t["id"] for t in neg["tokens"])
        assert sorted(t for ts in shares.values() for t in ts) == ids  # every token once
        if attack[str(seat)] * len(neg["involved"]) >= sum(attack.values()) and len(ids) >= len(neg["involved"]):
            earned += 1
            assert shares[str(seat)], (seat, neg["attack"], shares)
    assert earned >= 5  # the games did exercise the rule
