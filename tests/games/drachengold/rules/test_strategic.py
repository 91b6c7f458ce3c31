"""The strategic variant: the weakest fighter divides into as many shares as fighters; the strongest
chooses first, then the next; the divider takes the last share. Equal totals: first placed is stronger."""

from __future__ import annotations

from collections import Counter

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]
LOOT = ["gold", "gold", "silver", "silver", "blue", "white", "purple"]


def kill(dg, attackers, last, players=4, loot=LOOT, dragon="D15", bag=None, **options):
    """`last` = (seat, adventurer) whose attack kills `dragon`."""
    st = dg.arrange(dg.new(players, split="strategic", **options),
                    dragons=[{"id": dragon, "tokens": loot, "attackers": attackers}, *OTHERS], current=last[0],
                    bag=bag)
    dg.attack(st, last[1], dragon, seat=last[0])
    return st


def tokens(st):
    return [t["id"] for t in st.strategic["tokens"]]


def test_the_weakest_fighter_divides_into_one_share_per_fighter(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))  # 1: 4, 2: 3, 0: 3 -> 10
    assert st.pending() == Pending(0, "divide")
    assert st.observation(0)["request"] == {"kind": "divide", "shares": 3}
    assert dg.events(st, "divide")[0].data["divider"] == 0


def test_the_strongest_chooses_first_then_the_next_and_the_divider_takes_the_last(dg):
    st = kill(dg, [(2, "k4"), (1, "k3"), (3, "wizard")], (0, "thief"), players=4)
    # totals: 2 -> 4, 1 -> 3, 0 -> 2, 3 -> 1: seat 3 divides, 2 chooses, then 1, then 0
    t = tokens(st)
    shares = [t[0:1], t[1:3], t[3:4], t[4:]]
    dg.act(st, "divide", by=3, shares=shares)
    dg.act(st, "choose", by=2, share=1)
    assert st.observation(1)["request"]["remaining"] == [0, 2, 3]
    dg.act(st, "choose", by=1, share=3)
    dg.act(st, "choose", by=0, share=0)
    assert st.pending().kind != "choose"
    for seat, share in ((2, 1), (1, 3), (0, 0), (3, 2)):
        assert sorted(dg.ids(st.hoards[seat])) == sorted(shares[share])


def test_equal_totals_the_first_placed_is_stronger(dg):
    # seats 2, 1 and 0 all total 3, placed in that order: seat 2 is the strongest of them
    st = kill(dg, [(2, "k3"), (1, "k3"), (0, "wizard"), (3, "wizard")], (0, "thief"))  # 10
    # totals 2 -> 3, 1 -> 3, 0 -> 3, 3 -> 1: order 2, 1, 0; seat 3 divides
    assert dg.events(st, "divide")[0].data == {"dragon": "D15", "divider": 3, "order": [2, 1, 0],
                                               "tokens": st.strategic["tokens"]}


def test_when_the_weakest_tie_the_later_placed_divides(dg):
    st = kill(dg, [(0, "k4"), (1, "k3"), (2, "k3")], (0, "wizard"), dragon="D15")  # 0 -> 5, 1 -> 3, 2 -> 3
    assert dg.events(st, "divide")[0].data["divider"] == 2
    assert dg.events(st, "divide")[0].data["order"] == [0, 1]


def test_might_counts_in_the_total_attack(dg):
    st = kill(dg, [(1, "k4"), (2, "wizard", 3)], (0, "k3"))  # 2 -> 1 + 3 = 4 beats 0 -> 3; 4 + 4 + 3 = 11
    data = dg.events(st, "divide")[0].data
    assert data["divider"] == 0 and data["order"] == [1, 2]


def test_each_share_must_hold_a_token_when_there_are_enough(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    t = tokens(st)
    assert "at least one token" in st.validate(0, {"shares": [t, [], []]})
    assert st.validate(0, {"shares": [t[:5], t[5:6], t[6:]]}) is None


def test_shares_may_be_empty_only_when_tokens_are_fewer_than_fighters(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"), loot=["gold", "silver"], bag=[])
    t = tokens(st)
    assert len(t) == 2 and st.validate(0, {"shares": [t, [], []]}) is None
    dg.act(st, "divide", shares=[[], t, []])
    dg.act(st, "choose", by=1, share=1)
    dg.act(st, "choose", by=2, share=0)
    assert len(st.hoards[1]) == 2 and st.hoards[0] == st.hoards[2] == []


def test_the_division_must_hold_every_token_exactly_once(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    t = tokens(st)
    assert "every token" in st.validate(0, {"shares": [t[:5], t[5:6], t[6:7] + t[:1]]})
    assert "twice" in st.validate(0, {"shares": [t[:5], t[5:6], t[6:7] + t[6:7]]})
    assert "every token" in st.validate(0, {"shares": [t[:4], t[5:6], t[6:]]})
    assert "exactly 3" in st.validate(0, {"shares": [t[:5], t[5:]]})


def test_a_share_already_taken_cannot_be_chosen(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    t = tokens(st)
    dg.act(st, "divide", shares=[t[:5], t[5:6], t[6:]])
    dg.act(st, "choose", by=1, share=0)
    assert "remaining shares [1, 2]" in st.validate(2, {"share": 0})


def test_the_division_and_the_choices_are_public(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    t = tokens(st)
    dg.act(st, "divide", shares=[t[:5], t[5:6], t[6:]])
    assert dg.events(st, "division")[0].to is None
    assert st.observation(3)["strategic"]["shares"] == [t[:5], t[5:6], t[6:]]
    dg.act(st, "choose", share=2)
    assert dg.events(st, "chosen")[0].data == {"dragon": "D15", "seat": 1, "share": 2}


def test_the_default_division_deals_every_token_and_keeps_shares_non_empty(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    default = st.default_decision()
    assert st.validate(0, default) is None
    assert sorted(t for share in default["shares"] for t in share) == sorted(tokens(st))


def test_thefts_follow_the_strategic_split(dg):
    st = kill(dg, [(1, "k4"), (2, "k3"), (0, "wizard")], (0, "thief"))
    t = tokens(st)
    dg.act(st, "divide", shares=[t[:5], t[5:6], t[6:]])
    dg.act(st, "choose", share=0)
    dg.act(st, "choose", share=1)
    assert st.pending() == Pending(0, "theft_victim")  # thief with its own wizard: it will choose
    assert st.observation(0)["request"]["candidates"] == [1, 2]


def test_a_solo_kill_needs_no_division(dg):
    st = kill(dg, [(0, "k4"), (0, "k3"), (0, "wizard")], (0, "thief"), bag=[])
    assert not dg.events(st, "divide") and Counter(dg.hoard(st, 0)) == Counter(LOOT)


def test_the_first_placement_counts_even_after_a_recall(dg):
    """Seat 0 placed on D15 before seat 1, then recalled its knight and sent it back after seat 1's:
    'the one who first placed a character on this Dragon' is still seat 0."""
    st = dg.arrange(dg.new(3, split="strategic", rules="advanced-a"),
                    dragons=[{"id": "D15", "tokens": LOOT, "attackers": [(0, "k3"), (1, "k3")]}, *OTHERS],
                    hands={0: ["recall"]}, current=0)
    recall = next(f"m{c}" for c in st.hands[0] if st.card_kinds[c] == "recall")
    dg.act(st, "magic", 0, card=recall, adventurer="k3")
    dg.attack(st, "k3", "D15", seat=0)  # 6 of 10; under the dragon now: seat 1's knight, then seat 0's
    assert [s for s, _, _ in dg.slot(st, "D15").attackers] == [1, 0]
    dg.attack(st, "k4", "D12", seat=1)
    dg.attack(st, "k4", "D15", seat=2)  # 10: killed; totals 2 -> 4, 0 -> 3, 1 -> 3
    data = dg.events(st, "divide")[0].data
    assert data["order"] == [2, 0] and data["divider"] == 1
