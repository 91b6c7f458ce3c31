"""Set-up: components, the first four dragons and their known treasure, the pile, the market card's
place, the adventurers, the screens, Magic Object cards (advanced) and the options."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from ladder.games.base import OptionError, Pending
from ladder.games.drachengold import Drachengold
from ladder.games.drachengold.rules.data import DECK, TOKEN_COLOURS, token_id

# The ladder's deck, copied from ../shared/design/drachengold.md (the spec, not the engine).
DESIGN_DECK = {
    "D1": (5, 2, 1), "D2": (5, 1, 2), "D3": (6, 3, 1), "D4": (6, 0, 5), "D5": (6, 2, 3), "D6": (7, 4, 2),
    "D7": (7, 3, 3), "D8": (7, 5, 1), "D9": (8, 4, 4), "D10": (8, 6, 2), "D11": (8, 0, 9), "D12": (9, 7, 2),
    "D13": (9, 5, 5), "D14": (9, 8, 2), "D15": (10, 11, 0), "D16": (10, 6, 6), "D17": (11, 9, 4),
    "D18": (11, 8, 6),
}


def all_tokens(st):
    return list(st.bag) + [t for s in st.table if s for t in s.tokens] + [t for h in st.hoards for t in h] + st.box


def test_the_bag_holds_126_tokens_in_the_printed_mix():
    assert Counter(TOKEN_COLOURS) == {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12,
                                      "purple": 12, "yellow": 12, "white": 6, "black": 1}


def test_every_token_starts_in_the_bag_or_on_a_face_up_dragon(dg):
    st = dg.new(4, seed=3)
    assert sorted(all_tokens(st)) == list(range(126))
    assert st.box == [] and all(h == [] for h in st.hoards)


def test_the_deck_has_18_dragons_as_the_design_table_fixes():
    assert {d["id"]: (d["strength"], d["known"], d["hidden"]) for d in DECK["dragons"]} == DESIGN_DECK


def test_dragon_numbers_stay_inside_the_published_ranges():
    for d in DECK["dragons"]:
        assert 5 <= d["strength"] <= 11 and 0 <= d["known"] <= 11 and 0 <= d["hidden"] <= 9
    # 142 tokens of treasure for 126 in the bag: the bag runs out before the pile.
    assert sum(d["known"] + d["hidden"] for d in DECK["dragons"]) == 142


def test_each_player_has_two_knights_a_thief_and_a_wizard_with_attack_4_3_2_1(dg):
    st = dg.new(6)
    for seat in range(6):
        advs = st.observation(0)["adventurers"][seat]
        assert [(a["id"], a["role"], a["attack"]) for a in advs] == [
            ("k4", "knight", 4), ("k3", "knight", 3), ("thief", "thief", 2), ("wizard", "wizard", 1)]


def test_adventurers_start_face_up_in_front_of_their_owner(dg):
    st = dg.new(5)
    for advs in st.observation(2)["adventurers"]:
        assert all(a["face"] == "up" and a["dragon"] is None for a in advs)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players(dg, players):
    st = dg.new(players)
    assert len(st.hoards) == players and len(st.advs) == players


@pytest.mark.parametrize("players", [1, 2, 7])
def test_other_player_counts_are_refused(dg, players):
    with pytest.raises(OptionError):
        dg.new(players)


def test_four_dragons_are_turned_up_from_the_shuffled_pile(dg):
    st = dg.new(4, seed=5)
    assert len([s for s in st.table if s]) == 4
    assert len(st.pile) == 14
    ids = [s.dragon["id"] for s in st.table] + [d["id"] for d in st.pile]
    assert sorted(ids) == sorted(DESIGN_DECK)


def test_the_dragon_pile_is_shuffled_by_the_seed(dg):
    orders = {tuple(d["id"] for d in dg.new(4, seed=s).pile) for s in range(6)}
    assert len(orders) == 6
    assert tuple(d["id"] for d in DECK["dragons"][4:]) not in orders


def test_same_seed_gives_the_same_set_up(dg):
    a, b = dg.new(4, seed=9), dg.new(4, seed=9)
    assert a.bag == b.bag and [d["id"] for d in a.pile] == [d["id"] for d in b.pile]
    assert [s.tokens for s in a.table] == [s.tokens for s in b.table]


def test_each_face_up_dragon_gets_its_known_treasure_from_the_bag(dg):
    st = dg.new(4, seed=11)
    for slot in st.table:
        assert len(slot.tokens) == slot.dragon["known"]
    assert len(st.bag) == 126 - sum(s.dragon["known"] for s in st.table)


def test_the_known_treasure_is_drawn_at_random(dg):
    draws = {tuple(sorted(TOKEN_COLOURS[t] for s in dg.new(4, seed=s).table for t in s.tokens)) for s in range(6)}
    assert len(draws) > 1


def test_the_dragons_face_up_are_public_with_their_tokens_but_the_pile_only_as_a_count(dg):
    st = dg.new(4, seed=2)
    obs = st.observation(3)
    assert [d["id"] for d in obs["dragons"]] == [s.dragon["id"] for s in st.table]
    assert [len(d["tokens"]) for d in obs["dragons"]] == [s.dragon["known"] for s in st.table]
    assert obs["pile"] == 14 and obs["bag"] == len(st.bag)
    pile_ids = {d["id"] for d in st.pile}
    assert not pile_ids & set(str(obs).split("'"))


def test_the_market_card_waits_between_the_7th_and_8th_remaining_dragons():
    assert DECK["market_after"] == 7 and DECK["table_size"] == 4 and len(DECK["dragons"]) - 4 == 14


def test_screens_start_empty(dg):
    obs = dg.new(4).observation(1)
    assert obs["hoard"] == [] and obs["hoard_sizes"] == [0, 0, 0, 0]


def test_seat_0_begins_the_first_turn(dg):
    for seed in range(3):
        assert dg.new(4, seed=seed).pending() == Pending(0, "attack")


def test_basic_rules_deal_no_magic_object_cards(dg):
    st = dg.new(4, rules="basic")
    assert st.hands == [[], [], [], []] and st.card_kinds == []


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_advanced_rules_deal_one_magic_object_card_to_each_player(dg, rules):
    st = dg.new(5, rules=rules)
    assert [len(h) for h in st.hands] == [1] * 5
    assert len(st.magic_deck) == 24 - 5
    assert st.observation(0)["hand_sizes"] == [1] * 5


def test_the_house_set_is_24_cards_three_of_each_of_eight_kinds(dg):
    st = dg.new(3, rules="advanced-b")  # printing 002 says 17 cards; the design doc's 24 win
    assert Counter(st.card_kinds) == {k: 3 for k in ("recall", "banish", "might", "second_wind", "double_strike",
                                                      "ward", "scry", "windfall")}


def test_the_magic_object_deck_is_shuffled_by_the_seed(dg):
    decks = {tuple(dg.new(4, seed=s, rules="advanced-a").magic_deck) for s in range(5)}
    assert len(decks) == 5


def test_a_player_may_look_at_its_own_card_only(dg):
    st = dg.new(4, rules="advanced-a")
    for seat in range(4):
        obs = st.observation(seat)
        assert [c["kind"] for c in obs["hand"]] == [st.card_kinds[st.hands[seat][0]]]
        others = {f"m{st.hands[s][0]}" for s in range(4) if s != seat}
        assert not others & set(str(obs).replace("'", " ").split())


def test_options_default_to_basic_negotiation_8_rounds_and_3_market_rounds():
    assert Drachengold().resolve_options({}) == {"rules": "basic", "split": "negotiation",
                                                  "negotiation_rounds": 8, "market_rounds": 3}


@pytest.mark.parametrize("bad", [{"rules": "expert"}, {"split": "dice"}, {"negotiation_rounds": 0},
                                 {"market_rounds": 0}, {"negotiation_rounds": True}, {"colour": "red"}])
def test_bad_options_are_refused_with_a_reason(bad):
    with pytest.raises(OptionError, match=r"\S"):
        Drachengold().resolve_options(bad)


def test_every_token_has_a_stable_id_and_colour(dg):
    st = dg.arrange(dg.new(4), dragons=[{"id": "D6", "tokens": ["black", "white"], "attackers": [(0, "k4")]},
                                        "D12", "D16", "D17"], bag=["gold", "red"])
    on_dragon = {t["id"]: t["colour"] for t in st.observation(0)["dragons"][0]["tokens"]}
    dg.attack(st, "k3", "D6")
    in_hoard = {t["id"]: t["colour"] for t in st.observation(0)["hoard"]}
    assert on_dragon.items() <= in_hoard.items()  # same ids, same colours, after the move
    assert {f"t{i}" for i in range(126)} == {token_id(i) for i in range(126)}


def test_the_deck_is_read_from_the_data_file():
    path = resources.files("ladder.games.drachengold.rules").joinpath("deck.json")
    assert json.loads(path.read_text()) == DECK
