"""Negotiation in rounds (the ladder's sand timer): proposals, votes, agreement, failure to the box lid."""

from __future__ import annotations

from collections import Counter

import pytest

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]
LOOT = ["gold", "gold", "gold", "silver", "silver", "silver", "blue", "green", "white", "red", "purple"]


def kill(dg, players=4, seed=1, kills=0, **options):
    """Seats 0, 1 and 2 kill D15 (strength 10, 11 known tokens, no hidden treasure)."""
    st = dg.arrange(dg.new(players, seed=seed, **options),
                    dragons=[{"id": "D15", "tokens": LOOT, "attackers": [(1, "k4"), (2, "k3")]}, *OTHERS], kills=kills)
    dg.attack(st, "k3", "D15", seat=0)
    return st


def pool(st):
    return [t["id"] for t in st.negotiation["tokens"]]


def split3(st):
    p = pool(st)
    return {"0": p[:4], "1": p[4:8], "2": p[8:]}


def test_proposals_come_from_each_involved_player_in_order(dg):
    st = kill(dg)
    assert st.pending() == Pending(0, "propose")
    seats = [dg.act(st, "propose") for _ in range(3)]
    assert seats == [0, 1, 2] and st.pending() == Pending(0, "vote")


def test_an_agreed_split_divides_the_treasure_exactly_as_agreed(dg):
    st = kill(dg)
    shares = split3(st)
    dg.agree(st, {int(s): t for s, t in shares.items()})
    for seat in range(3):
        assert sorted(dg.ids(st.hoards[seat])) == sorted(shares[str(seat)])
    assert st.hoards[3] == [] and st.slot_of("D15") is None
    assert dg.events(st, "agreement")[0].data["proposal"] == "p1"
    assert dg.events(st, "split")[0].to is None  # the agreed split is public
    dg.check_tokens(st)


def test_the_agreed_split_does_not_depend_on_luck(dg):
    results = []
    for seed in (1, 2, 3):
        st = kill(dg, seed=seed)
        shares = {0: pool(st)[:1], 1: [], 2: pool(st)[1:]}
        dg.agree(st, shares)
        results.append([sorted(dg.colours(h).items()) for h in st.hoards])
    assert results[0] == results[1] == results[2]


def test_a_proposal_must_give_away_every_token(dg):
    st = kill(dg)
    shares = split3(st)
    shares["2"] = shares["2"][1:]
    assert "every token must go to someone" in st.validate(0, {"shares": shares})


def test_a_proposal_may_not_give_one_token_to_two_players(dg):
    st = kill(dg)
    shares = split3(st)
    shares["1"] = [*shares["1"], shares["0"][0]]
    assert "two players" in st.validate(0, {"shares": shares})


def test_a_proposal_may_only_share_this_dragons_tokens(dg):
    st = kill(dg)
    shares = split3(st)
    shares["1"] = [*shares["1"], dg.ids(st.bag[:1])[0]]
    assert "not being shared" in st.validate(0, {"shares": shares})


def test_a_proposal_may_only_give_to_involved_players(dg):
    st = kill(dg)
    shares = split3(st)
    assert "not an involved seat" in st.validate(0, {"shares": {**shares, "3": []}})


def test_a_player_may_give_itself_nothing(dg):
    st = kill(dg)
    assert st.validate(0, {"shares": {"1": pool(st)}}) is None


def test_only_the_allocation_itself_can_be_proposed(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st), future={"next_dragon": "all to 0"}, coin="heads")
    dg.act(st, "propose")
    dg.act(st, "propose")
    (proposal,) = st.negotiation["standing"]
    assert set(proposal) == {"id", "proposer", "round", "shares"}
    assert "future" not in str(st.events) and "heads" not in str(st.events)


def test_no_agreement_after_the_last_round_sends_the_treasure_to_the_box_lid(dg):
    st = kill(dg)
    asked = dg.fail_negotiation(st)
    assert asked == 8 * 3  # the default deadline: 8 rounds of 3 involved players
    assert st.hoards == [[], [], [], []]
    assert dg.colours(st.box) == dg.colours(dg.events(st, "split_failed")[0].data["tokens"])
    assert dg.colours(st.box) == Counter(LOOT) and not set(st.box) & set(st.bag)  # not back into the bag
    assert st.observation(3)["box"] == 11


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_deadline_is_the_negotiation_rounds_option(dg, rounds):
    st = kill(dg, negotiation_rounds=rounds)
    assert st.negotiation["rounds"] == rounds
    assert dg.fail_negotiation(st) == 3 * rounds


def test_an_agreement_ends_the_negotiation_at_once(dg):
    st = kill(dg)
    dg.agree(st, {0: pool(st)})
    assert st.pending() == Pending(1, "attack") and st.negotiation is None
    assert len(dg.events(st, "proposals")) == 1


def test_proposals_are_simultaneous_and_made_public_together(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    obs = st.observation(1)  # seat 1 proposes next: it must not see seat 0's proposal yet
    assert obs["negotiation"]["standing"] == [] and not dg.events(st, "proposals")
    dg.act(st, "propose", shares={"1": pool(st)})
    dg.act(st, "propose")
    public = dg.events(st, "proposals")[0]
    assert public.to is None and [p["proposer"] for p in public.data["proposals"]] == [0, 1]
    assert [p["proposer"] for p in st.observation(3)["negotiation"]["standing"]] == [0, 1]


def test_votes_are_simultaneous_and_made_public_after_the_round(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    dg.act(st, "vote", accept=["p1"])
    assert st.observation(1)["negotiation"]["last_votes"] == {} and not dg.events(st, "votes")
    dg.act(st, "vote", accept=[])
    dg.act(st, "vote", accept=["p1"])
    votes = dg.events(st, "votes")[0]
    assert votes.to is None and votes.data["votes"] == {"0": ["p1"], "1": [], "2": ["p1"]}
    assert st.observation(3)["negotiation"]["last_votes"] == {"0": ["p1"], "1": [], "2": ["p1"]}


def test_a_proposer_accepts_its_own_proposal(dg):
    st = kill(dg)
    dg.act(st, "propose")
    dg.act(st, "propose", shares={"1": pool(st)})
    dg.act(st, "propose")
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=[])  # seat 1, the proposer, says nothing
    dg.act(st, "vote", accept=["p1"])
    assert dg.events(st, "agreement")[0].data["proposal"] == "p1"
    assert dg.colours(st.hoards[1]) == Counter(LOOT)


def test_one_refusal_blocks_the_agreement(dg):
    st = kill(dg, negotiation_rounds=1)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=[])
    assert not dg.events(st, "agreement") and dg.events(st, "split_failed")


def test_a_standing_proposal_stays_until_replaced_or_withdrawn(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    for _ in range(3):
        dg.act(st, "vote", accept=[])
    for _ in range(3):  # round 2: nobody proposes anything new
        dg.act(st, "propose")
    assert [p["id"] for p in st.negotiation["standing"]] == ["p1"]
    assert st.observation(0)["request"] == {"kind": "vote", "proposals": ["p1"]}
    for _ in range(3):
        dg.act(st, "vote", accept=["p1"])
    assert dg.events(st, "agreement")[0].data == {"dragon": "D15", "round": 2, "proposal": "p1"}


def test_a_withdrawn_proposal_is_no_longer_standing(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    for _ in range(3):
        dg.act(st, "vote", accept=[])
    dg.act(st, "propose", withdraw=True)
    dg.act(st, "propose")
    dg.act(st, "propose")
    assert st.negotiation["standing"] == []
    assert "not a standing proposal" in st.validate(0, {"accept": ["p1"]})


def test_a_new_proposal_replaces_the_players_standing_one(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    for _ in range(3):
        dg.act(st, "vote", accept=[])
    dg.act(st, "propose", shares={"2": pool(st)})
    dg.act(st, "propose")
    dg.act(st, "propose")
    assert [(p["id"], p["proposer"], p["round"]) for p in st.negotiation["standing"]] == [("p2", 0, 2)]


def test_acceptances_count_only_within_one_round(dg):
    st = kill(dg, negotiation_rounds=2)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=[])  # seat 2 refuses in round 1
    for _ in range(3):
        dg.act(st, "propose")
    dg.act(st, "vote", accept=["p1"])
    dg.act(st, "vote", accept=[])  # seat 1 now refuses, seat 2 accepts: never all in one round
    dg.act(st, "vote", accept=["p1"])
    assert not dg.events(st, "agreement") and dg.events(st, "split_failed")


def test_when_several_proposals_are_agreed_the_first_in_proposal_order_wins(dg):
    st = kill(dg)
    dg.act(st, "propose", shares={"0": pool(st)})
    dg.act(st, "propose", shares={"1": pool(st)})
    dg.act(st, "propose")
    for _ in range(3):
        dg.act(st, "vote", accept=["p2", "p1"])
    assert dg.events(st, "agreement")[0].data["proposal"] == "p1"
    assert dg.colours(st.hoards[0]) == Counter(LOOT)


def test_the_proposal_order_rotates_from_dragon_to_dragon(dg):
    orders = []
    for kills in range(4):
        st = kill(dg, kills=kills)
        orders.append(st.negotiation["order"])
        assert st.pending().seat == orders[-1][0]
    assert orders == [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]


def test_proposals_are_ranked_by_that_rotated_order(dg):
    st = kill(dg, kills=1)  # order 1, 2, 0
    dg.act(st, "propose", by=1, shares={"1": pool(st)})
    dg.act(st, "propose", by=2)
    dg.act(st, "propose", by=0, shares={"0": pool(st)})
    for _ in range(3):
        dg.act(st, "vote", accept=["p1", "p2"])
    assert dg.events(st, "agreement")[0].data["proposal"] == "p1"  # seat 1's, first in this order
    assert dg.colours(st.hoards[1]) == Counter(LOOT)


def test_an_invalid_proposal_is_refused_and_the_default_is_no_proposal(dg):
    st = kill(dg)
    assert st.validate(0, {"shares": {"0": pool(st)[:3]}}) is not None
    assert st.default_decision() == {}
    st.apply(0, st.default_decision())
    dg.act(st, "propose")
    dg.act(st, "propose")
    assert st.negotiation["standing"] == []


def test_the_default_vote_accepts_nothing(dg):
    st = kill(dg)
    dg.act(st, "propose", shares=split3(st))
    dg.act(st, "propose")
    dg.act(st, "propose")
    assert st.default_decision() == {"accept": []}


def test_the_negotiation_shows_the_tokens_the_round_and_each_players_attack(dg):
    st = kill(dg)
    neg = st.observation(3)["negotiation"]  # a player not involved sees the haggling too
    assert neg["involved"] == [0, 1, 2] and neg["round"] == 1 and neg["rounds"] == 8
    assert neg["attack"] == {"1": 4, "2": 3, "0": 3}
    assert dg.colours(neg["tokens"]) == Counter(LOOT)


def test_thefts_follow_a_negotiation_that_ran_to_the_deadline(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D15", "tokens": LOOT, "attackers": [(1, "k4"), (2, "thief")]},
                                        *OTHERS], hoards={1: ["gold"]})
    dg.attack(st, "k4", "D15", seat=0)
    dg.fail_negotiation(st)
    assert st.pending() == Pending(2, "theft_victim")
