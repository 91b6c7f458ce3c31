"""A dead dragon: its hidden treasure, the solo kill, who is involved, and the wizards' red tokens."""

from __future__ import annotations

from collections import Counter

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]


def test_the_hidden_treasure_is_not_known_until_the_kill(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold"] * 4, "attackers": [(0, "k4")]}, *OTHERS],
                    bag=["blue", "green", "white", "yellow", "silver", "silver"], pile=[])
    d = st.observation(1)["dragons"][0]
    assert dg.colours(d["tokens"]) == {"gold": 4} and d["hidden"] == 4  # only the count is printed
    dg.attack(st, "thief", "D9", seat=0)  # 6 < 8: still alive, nothing drawn
    assert len(st.bag) == 6 and len(dg.slot(st, "D9").tokens) == 4


def test_hidden_treasure_completes_the_hoard_before_sharing(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold"] * 4, "attackers": [(0, "k4"), (0, "thief")]},
                                        *OTHERS], bag=["blue", "green", "white", "yellow", "silver", "silver"], pile=[])
    dg.attack(st, "k3", "D9", seat=0)  # 9 >= 8: D9's hidden 4 come first from the bag
    kill = dg.events(st, "kill")[0].data
    assert dg.colours(kill["hidden"]) == {"blue": 1, "green": 1, "white": 1, "yellow": 1}
    assert dg.hoard(st, 0) == {"gold": 4, "blue": 1, "green": 1, "white": 1, "yellow": 1}
    assert dg.colours(st.bag) == {"silver": 2} and kill["bag"] == 2


def test_a_solo_kill_puts_the_whole_treasure_behind_the_killers_screen(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["gold", "red", "black", "silver"],
                                         "attackers": [(1, "k4")]}, *OTHERS], current=1,
                    bag=["blue", "blue", "silver"])
    dg.attack(st, "k3", "D6", seat=1)
    assert dg.hoard(st, 1) == {"gold": 1, "red": 1, "black": 1, "silver": 1, "blue": 2}
    assert st.pending() == Pending(2, "attack")  # no negotiation for a solo kill
    assert not dg.events(st, "negotiation")
    assert dg.events(st, "treasure_taken")[0].data["seat"] == 1
    assert [h for h in st.observation(0)["hoard_sizes"]] == [0, 6, 0, 0]


def test_a_solo_kill_with_the_players_own_wizard_takes_the_red_tokens_too(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["red", "red", "gold", "gold"],
                                         "attackers": [(0, "wizard"), (0, "k3")]}, *OTHERS], bag=["red", "red"])
    dg.attack(st, "k4", "D6")  # 8 >= 7
    assert dg.hoard(st, 0) == {"red": 4, "gold": 2}


def test_several_players_involved_must_share_and_only_they_negotiate(dg):
    st = dg.arrange(dg.new(5), dragons=[{"id": "D9", "tokens": ["gold"] * 4, "attackers": [(3, "k4"), (1, "k3")]},
                                        {"id": "D12", "attackers": [(2, "k4")]}, "D16", "D17"])
    dg.attack(st, "k3", "D9", seat=0)  # 10 >= 8
    neg = dg.events(st, "negotiation")[0].data
    assert neg["involved"] == [0, 1, 3]
    asked = set()
    while st.pending().kind in ("propose", "vote"):
        asked.add(st.pending().seat)
        dg.act(st, st.pending().kind, **({} if st.pending().kind == "propose" else {"accept": []}))
    assert asked == {0, 1, 3}


def test_a_player_with_two_adventurers_on_the_dragon_is_involved_once(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold"] * 4, "attackers": [(1, "k4"), (1, "k3")]},
                                        *OTHERS])
    dg.attack(st, "wizard", "D9", seat=0)
    assert dg.events(st, "negotiation")[0].data["involved"] == [0, 1]


def test_the_sharing_happens_before_the_next_dragon_is_drawn(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D9", "tokens": ["gold"] * 4, "attackers": [(1, "k4")]}, *OTHERS],
                    pile=["D1"])
    dg.attack(st, "k4", "D9", seat=0)
    assert st.pending().kind == "propose" and not dg.events(st, "dragon")
    assert st.observation(0)["dragons"][0]["id"] == "D9"  # the dead dragon still lies there during the talks
    dg.fail_negotiation(st)
    assert [e.type for e in st.events].index("split_failed") < [e.type for e in st.events].index("dragon")


# ---- the wizards' red tokens (basic rules) ---------------------------------------------


def lone_wizard(dg, rules="basic", split="negotiation"):
    st = dg.arrange(dg.new(4, rules=rules, split=split), dragons=[
        {"id": "D9", "tokens": ["red", "red", "gold", "silver"], "attackers": [(1, "wizard"), (2, "k4")]}, *OTHERS],
        bag=["red", "blue", "silver", "silver"], hands={} if rules != "basic" else None)
    dg.attack(st, "k3", "D9", seat=0)  # 1 + 4 + 3 = 8; hidden: red, blue, silver, silver
    return st


def test_a_lone_wizard_takes_every_red_token_before_the_negotiation(dg):
    st = lone_wizard(dg)
    assert dg.hoard(st, 1) == {"red": 3}
    assert dg.events(st, "wizard_seizes")[0].data["seat"] == 1
    assert dg.colours(st.negotiation["tokens"]) == {"gold": 1, "silver": 3, "blue": 1}


def test_the_lone_wizard_keeps_its_red_tokens_when_the_negotiation_fails(dg):
    st = lone_wizard(dg)
    dg.fail_negotiation(st)
    assert dg.hoard(st, 1) == {"red": 3}
    assert dg.colours(dg.events(st, "split_failed")[0].data["tokens"]) == {"gold": 1, "silver": 3, "blue": 1}
    assert set(dg.slot(st, "D12").tokens).isdisjoint(st.box) and set(st.hoards[1]).isdisjoint(st.box)


def test_the_lone_wizard_seizes_in_the_strategic_variant_too(dg):
    st = lone_wizard(dg, split="strategic")
    assert dg.hoard(st, 1) == {"red": 3}
    assert "red" not in dg.colours(st.strategic["tokens"])


def test_with_two_wizards_the_red_tokens_are_negotiated(dg):
    st = dg.arrange(dg.new(4), dragons=[
        {"id": "D9", "tokens": ["red", "red", "gold", "silver"], "attackers": [(1, "wizard"), (2, "k4")]}, *OTHERS],
        bag=["silver"] * 4)
    dg.attack(st, "wizard", "D9", seat=0)
    assert not dg.events(st, "kill")  # 1 + 4 + 1 = 6 < 8
    st = dg.arrange(dg.new(4), dragons=[
        {"id": "D9", "tokens": ["red", "red", "gold", "silver"],
         "attackers": [(1, "wizard"), (2, "k4"), (0, "wizard")]}, *OTHERS], bag=["silver"] * 4)
    dg.attack(st, "k3", "D9", seat=0)  # 9 >= 8, two wizards (seats 0 and 1)
    assert not dg.events(st, "wizard_seizes")
    assert dg.colours(st.negotiation["tokens"])["red"] == 2
    assert st.hoards == [[], [], [], []]


def test_a_lone_wizard_without_red_tokens_seizes_nothing(dg):
    st = dg.arrange(dg.new(4), dragons=[
        {"id": "D9", "tokens": ["gold", "silver"], "attackers": [(1, "wizard"), (2, "k4")]}, *OTHERS],
        bag=["silver"] * 4)
    dg.attack(st, "k3", "D9", seat=0)
    assert not dg.events(st, "wizard_seizes") and dg.colours(st.negotiation["tokens"]) == {"gold": 1, "silver": 5}


def test_when_the_wizard_takes_every_token_nothing_is_left_to_negotiate(dg):
    st = dg.arrange(dg.new(4), dragons=[
        {"id": "D9", "tokens": ["red", "red"], "attackers": [(1, "wizard"), (2, "k4")]}, *OTHERS], bag=["red"] * 4)
    dg.attack(st, "k3", "D9", seat=0)
    assert dg.hoard(st, 1) == {"red": 6}
    assert not dg.events(st, "negotiation") and st.pending() == Pending(1, "attack")


def test_advanced_rules_negotiate_the_red_tokens_even_with_a_lone_wizard(dg):
    for rules in ("advanced-a", "advanced-b"):
        st = lone_wizard(dg, rules=rules)
        assert not dg.events(st, "wizard_seizes")
        assert dg.colours(st.negotiation["tokens"])["red"] == 3 and st.hoards[1] == []


def test_kill_event_shows_the_whole_hoard_and_who_was_involved(dg):
    st = lone_wizard(dg)
    kill = dg.events(st, "kill")[0]
    assert kill.to is None and kill.data["involved"] == [0, 1, 2]
    assert Counter(t["colour"] for t in kill.data["tokens"]) == {"red": 3, "gold": 1, "silver": 3, "blue": 1}
