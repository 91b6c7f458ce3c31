"""Magic Object cards (advanced rules): the house set, one card per turn before the attack, the wizard's
card draws for red tokens, and each card's effect."""

from __future__ import annotations

import pytest

from ladder.games.base import Pending

OTHERS = ["D12", "D16", "D17"]


def adv(dg, hands, dragons=None, rules="advanced-a", players=4, **kw):
    st = dg.new(players, rules=rules)
    return dg.arrange(st, dragons=dragons or ["D9", *OTHERS], hands=hands, **kw)


def card(st, seat, kind):
    return next(f"m{c}" for c in st.hands[seat] if st.card_kinds[c] == kind)


def play(dg, st, kind, by=0, **extra):
    return dg.act(st, "magic", by, card=card(st, by, kind), **extra)


# ---- when cards are played ---------------------------------------------------------------


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_a_card_may_be_played_at_the_start_of_the_own_turn_before_the_attack(dg, rules):
    st = adv(dg, {0: ["might"]}, rules=rules)
    assert st.pending() == Pending(0, "magic")
    assert [c["kind"] for c in st.observation(0)["request"]["cards"]] == ["might"]
    dg.act(st, "magic", card=None)
    assert st.pending() == Pending(0, "attack") and len(st.hands[0]) == 1


def test_a_magic_decision_without_card_is_refused_not_played_as_no_card(dg):
    # the schema requires "card" ({"card": null} plays none); {"bogus": 1} was taken for "no card"
    st = adv(dg, {0: ["might"]})
    for lacking in ({}, {"bogus": 1}, {"adventurer": "k4"}):
        assert 'needs "card"' in st.validate(0, lacking)
    assert st.validate(0, {"card": None, "bogus": 1}) is None  # a bot's own extra field is ignored
    assert st.pending() == Pending(0, "magic") and len(st.hands[0]) == 1


def test_basic_rules_never_ask_for_a_card(dg):
    st = dg.new(4, rules="basic")
    dg.run_bots(st, ["random"] * 4)
    assert not any(e.type == "card_played" for e in st.events)
    assert "magic" not in {e.data.get("kind") for e in st.events}


def test_at_most_one_card_per_turn(dg):
    st = adv(dg, {0: ["might", "second_wind", "scry"]})
    play(dg, st, "scry")
    assert st.pending() == Pending(0, "attack")
    dg.attack(st, "k4", "D17")
    assert st.pending() == Pending(1, "attack")  # seat 1 has no card: straight to its attack


def test_no_question_without_a_playable_card(dg):
    st = adv(dg, {0: ["ward"], 1: []})
    assert st.pending() == Pending(0, "attack")


def test_a_player_who_loses_the_turn_plays_no_card(dg):
    st = adv(dg, {0: ["recall"]}, dragons=[{"id": "D17", "attackers": [(0, "k4"), (0, "k3")]},
                                           {"id": "D16", "attackers": [(0, "thief"), (0, "wizard")]}, "D9", "D12"])
    assert st.pending() == Pending(1, "attack") and len(st.hands[0]) == 1


def test_a_played_card_is_discarded_and_public(dg):
    st = adv(dg, {0: ["second_wind"]})
    play(dg, st, "second_wind")
    assert st.hands[0] == [] and len(st.magic_discard) == 1
    played = dg.events(st, "card_played")[0]
    assert played.to is None and played.data["kind"] == "second_wind"
    assert st.observation(1)["hand_sizes"][0] == 0


def test_the_cards_in_a_hand_are_private(dg):
    st = adv(dg, {0: ["scry", "might"], 1: ["windfall"]})
    assert [c["kind"] for c in st.observation(0)["hand"]] == ["scry", "might"]
    obs = st.observation(1)
    assert obs["hand_sizes"][0] == 2 and "scry" not in str(obs) and "might" not in str(obs)


def wizard_solo_kill(dg, hands):
    """Seat 0 kills D6 alone with its wizard; D6's treasure holds one red token."""
    return adv(dg, hands, dragons=[{"id": "D6", "tokens": ["red"], "attackers": [(0, "wizard"), (0, "k3")]},
                                   *OTHERS], bag=["silver", "silver"])


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out(dg):
    st = wizard_solo_kill(dg, {})
    st.magic_discard, st.magic_deck = st.magic_deck, []
    dg.attack(st, "k4", "D6")
    assert dg.events(st, "magic_reshuffle")[0].data == {"cards": 24}
    assert len(st.hands[0]) == 1 and len(st.magic_deck) == 23 and st.magic_discard == []


def test_no_card_is_drawn_when_deck_and_discard_are_both_empty(dg):
    every = ["recall", "banish", "might", "second_wind", "double_strike", "ward", "scry", "windfall"] * 3
    st = wizard_solo_kill(dg, {3: every})
    assert st.magic_deck == [] and st.magic_discard == []
    dg.attack(st, "k4", "D6")
    assert st.hands[0] == [] and dg.events(st, "magic_empty")[0].data == {"seat": 0}


# ---- the wizard's cards ---------------------------------------------------------------


def shared_kill(dg, rules="advanced-a"):
    """Seat 0 (wizard + k3) and seat 1 (k4, then its thief: 1 + 4 + 3 + 2 = 10) kill D15."""
    st = adv(dg, {}, rules=rules, dragons=[{"id": "D15", "tokens": ["red", "red", "red", "gold"],
                                            "attackers": [(0, "wizard"), (1, "k4"), (0, "k3")]}, *OTHERS], current=1)
    dg.attack(st, "thief", "D15", seat=1)
    return st


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_a_wizards_owner_draws_one_card_per_red_token_in_its_share(dg, rules):
    st = shared_kill(dg, rules)
    reds = [t["id"] for t in st.negotiation["tokens"] if t["colour"] == "red"]
    gold = [t["id"] for t in st.negotiation["tokens"] if t["colour"] == "gold"]
    dg.agree(st, {0: reds[:2], 1: reds[2:] + gold})
    assert len(st.hands[0]) == 2  # two red tokens, two cards
    assert st.hands[1] == []  # a red token without a wizard in the fight draws nothing
    assert [e.data["why"] for e in dg.events(st, "card_drawn")] == ["wizard", "wizard"]


def test_a_failed_negotiation_draws_no_card(dg):
    st = shared_kill(dg)
    dg.fail_negotiation(st)
    assert st.hands[0] == [] and st.hands[1] == []


def test_a_solo_kill_with_the_wizard_draws_for_each_red_token(dg):
    st = adv(dg, {}, dragons=[{"id": "D6", "tokens": ["red", "red", "silver"],
                               "attackers": [(0, "wizard"), (0, "k3")]}, *OTHERS], bag=["red", "silver"])
    dg.attack(st, "k4", "D6")  # 8 >= 7; hidden: red, silver
    assert dg.hoard(st, 0)["red"] == 3 and len(st.hands[0]) == 3


def test_the_basic_rules_draw_no_card_for_red_tokens(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["red", "red", "silver"],
                                         "attackers": [(0, "wizard"), (0, "k3")]}, *OTHERS], bag=["red", "silver"])
    dg.attack(st, "k4", "D6")
    assert dg.hoard(st, 0)["red"] == 3 and st.hands[0] == [] and not dg.events(st, "card_drawn")


# ---- each card ------------------------------------------------------------------------


def test_recall_brings_an_attacking_adventurer_back_face_up_and_ready(dg):
    st = adv(dg, {0: ["recall"]}, dragons=[{"id": "D17", "attackers": [(0, "k4"), (1, "k4")]}, "D9", "D12", "D16"])
    assert st.observation(0)["request"]["recall"] == ["k4"]
    play(dg, st, "recall", adventurer="k4")
    assert [(s, a) for s, a, _ in dg.slot(st, "D17").attackers] == [(1, "k4")]
    assert "k4" in st.observation(0)["request"]["adventurers"]
    dg.attack(st, "k4", "D9")  # sent again the same turn
    assert st.advs[0]["k4"].dragon == "D9"


def test_recall_takes_back_only_the_players_own_adventurers(dg):
    st = adv(dg, {0: ["recall"]}, dragons=[{"id": "D17", "attackers": [(1, "k4")]}, "D9", "D12", "D16"])
    assert "Recall needs" in st.validate(0, {"card": card(st, 0, "recall"), "adventurer": "k4"})


def test_banish_sends_any_attacking_adventurer_home_face_down(dg):
    st = adv(dg, {0: ["banish"]}, dragons=[{"id": "D17", "attackers": [(2, "k4"), (1, "k3")]}, "D9", "D12", "D16"])
    assert st.observation(0)["request"]["banish"] == [{"seat": 2, "adventurer": "k4"}, {"seat": 1, "adventurer": "k3"}]
    play(dg, st, "banish", seat=2, adventurer="k4")
    assert [(s, a) for s, a, _ in dg.slot(st, "D17").attackers] == [(1, "k3")]
    assert st.advs[2]["k4"].dragon is None and not st.advs[2]["k4"].up
    assert dg.events(st, "card_played")[0].data["target"] == 2


def test_a_banished_adventurers_owner_is_no_longer_in_the_fight(dg):
    st = adv(dg, {0: ["banish"]}, dragons=[{"id": "D6", "tokens": ["gold"], "attackers": [(2, "k4"), (0, "k3")]},
                                           "D9", "D12", "D16"], bag=["silver", "silver"])
    play(dg, st, "banish", seat=2, adventurer="k4")
    dg.attack(st, "k4", "D6")  # 3 + 4 = 7: seat 0 alone
    assert dg.hoard(st, 0) == {"gold": 1, "silver": 2} and not dg.events(st, "negotiation")


def test_might_adds_3_to_the_adventurer_sent_this_turn(dg):
    st = adv(dg, {0: ["might"]}, dragons=[{"id": "D9", "attackers": [(1, "k3")]}, *OTHERS],
             bag=["silver"] * 10)
    play(dg, st, "might")
    dg.attack(st, "k3", "D9")  # 3 + (3 + 3) = 9 >= 8
    assert dg.events(st, "attack")[0].data["bonus"] == 3 and dg.events(st, "kill")


def test_might_stays_with_the_adventurer_on_that_dragon(dg):
    st = adv(dg, {0: ["might"]}, dragons=["D18", *OTHERS])
    play(dg, st, "might")
    dg.attack(st, "wizard", "D18")  # 1 + 3 = 4
    dg.attack(st, "k4", "D18", seat=1)  # 8 < 11
    d = next(d for d in st.observation(2)["dragons"] if d["id"] == "D18")
    assert d["total"] == 8 and d["attackers"][0] == {"seat": 0, "adventurer": "wizard", "attack": 4}
    dg.attack(st, "k3", "D18", seat=2)  # 11: the bonus still counts
    assert dg.events(st, "kill")[0].data["dragon"] == "D18"


def test_might_lasts_one_attack_only(dg):
    st = adv(dg, {0: ["might"]}, dragons=["D18", *OTHERS])
    play(dg, st, "might")
    dg.attack(st, "wizard", "D18")
    for seat in (1, 2, 3):
        dg.attack(st, "wizard", "D12", seat=seat)
    dg.attack(st, "k4", "D17", seat=0)
    assert [e.data["bonus"] for e in dg.events(st, "attack")] == [3, 0, 0, 0, 0]


def test_second_wind_turns_every_face_down_adventurer_face_up(dg):
    st = adv(dg, {0: ["second_wind"]}, dragons=[{"id": "D17", "attackers": [(0, "k4")]}, "D9", "D12", "D16"],
             down={0: ["k3", "thief"]})
    play(dg, st, "second_wind")
    assert sorted(st.observation(0)["request"]["adventurers"]) == ["k3", "thief", "wizard"]
    assert st.advs[0]["k4"].dragon == "D17"
    assert dg.events(st, "card_played")[0].data["adventurers"] == ["k3", "thief"]


def test_double_strike_sends_a_second_adventurer_after_the_first(dg):
    st = adv(dg, {0: ["double_strike"]})
    play(dg, st, "double_strike")
    dg.attack(st, "k4", "D17")
    assert st.pending() == Pending(0, "attack")  # the second attack is not optional
    assert st.observation(0)["request"]["adventurers"] == ["k3", "thief", "wizard"]
    dg.attack(st, "k3", "D17")
    assert st.pending() == Pending(1, "attack")
    assert dg.events(st, "attack")[-1].data["total"] == 7


def test_double_strike_checks_for_a_kill_after_each_attack(dg):
    st = adv(dg, {0: ["double_strike"]}, dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS],
             bag=["silver"] * 12, pile=["D1"])
    play(dg, st, "double_strike")
    dg.attack(st, "k3", "D6")  # first blow: 7 kills D6 alone
    assert dg.events(st, "kill")[0].data["dragon"] == "D6"
    assert st.pending() == Pending(0, "attack")
    assert st.observation(0)["request"] == {"kind": "attack", "adventurers": ["thief", "wizard"],
                                            "dragons": ["D1", *OTHERS]}
    dg.attack(st, "thief", "D1")  # 2 < 5
    dg.attack(st, "k4", "D1", seat=1)  # 6 >= 5: the second blow counted, seat 1's kills it
    assert [e.data["dragon"] for e in dg.events(st, "kill")] == ["D6", "D1"]


def test_double_strike_does_not_refresh_the_adventurers(dg):
    st = adv(dg, {0: ["double_strike"]}, dragons=["D9", *OTHERS], down={0: ["k4", "k3", "thief"]})
    play(dg, st, "double_strike")
    dg.attack(st, "wizard", "D17")
    assert st.pending() == Pending(1, "attack")  # nothing face up left: no second attack, no refresh
    assert all(not a.up for a in st.advs[0].values() if a.dragon is None)


def test_ward_is_not_played_but_stops_the_next_theft_against_its_holder(dg):
    st = adv(dg, {1: ["ward"]}, dragons=[{"id": "D15", "tokens": ["gold"],
                                          "attackers": [(1, "k4"), (1, "k3"), (1, "wizard")]}, *OTHERS],
             hoards={1: ["white"]})
    assert st.pending() == Pending(0, "attack")  # Ward is never offered as a play
    dg.attack(st, "thief", "D15")  # 4 + 3 + 1 + 2 = 10
    dg.fail_negotiation(st)
    dg.act(st, "theft_victim", victim=1)
    assert dg.hoard(st, 1) == {"white": 1} and st.hoards[0] == []
    assert dg.events(st, "ward")[0].data == {"seat": 1, "thief": 0}
    assert st.hands[1] == [] and len(st.magic_discard) == 1


def test_a_ward_stops_one_theft_only(dg):
    st = adv(dg, {1: ["ward"]}, dragons=[{"id": "D15", "tokens": ["gold"],
                                          "attackers": [(2, "thief"), (1, "k4"), (1, "k3")]}, *OTHERS],
             hoards={1: ["white", "blue"]})
    dg.attack(st, "thief", "D15")  # 2 + 4 + 3 + 2 = 11
    dg.fail_negotiation(st)
    dg.act(st, "theft_victim", by=2, victim=1)  # warded
    dg.act(st, "theft_victim", by=0, victim=1)  # goes through
    assert len(st.hoards[1]) == 1 and len(st.hoards[0]) == 1 and st.hoards[2] == []


def test_scry_shows_the_next_two_dragons_of_the_pile_to_its_player_only(dg):
    st = adv(dg, {0: ["scry"]}, pile=["D3", "D11", "D1", "D2"])
    play(dg, st, "scry")
    (event,) = dg.events(st, "scry")
    assert event.to == (0,) and event.data == {"seat": 0, "dragons": ["D3", "D11"]}
    assert [d["id"] for d in st.pile] == ["D3", "D11", "D1", "D2"]  # the pile is not disturbed


def test_windfall_draws_two_tokens_from_the_bag_into_the_hoard(dg):
    st = adv(dg, {0: ["windfall"]}, bag=["red", "gold", "silver"])
    play(dg, st, "windfall")
    assert dg.hoard(st, 0) == {"red": 1, "gold": 1} and len(st.bag) == 1
    assert dg.events(st, "card_played")[0].data["count"] == 2
    assert dg.events(st, "windfall")[0].to == (0,)
    assert st.hands[0] == []  # a red token from Windfall draws no card


def test_windfall_can_empty_the_bag_and_start_the_end(dg):
    st = adv(dg, {0: ["windfall"]}, dragons=[{"id": "D6", "attackers": [(0, "k4")]}, *OTHERS], bag=["gold"],
             pile=["D1", "D2"])
    play(dg, st, "windfall")
    assert st.bag == [] and dg.hoard(st, 0) == {"gold": 1}
    dg.attack(st, "k3", "D6")  # a kill after the bag ran dry: not replaced
    assert st.table[0] is None and [d["id"] for d in st.pile] == ["D1", "D2"]
