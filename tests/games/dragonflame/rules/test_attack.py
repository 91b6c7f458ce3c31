"""Attacking in banner order, looting, revealing, the second Princess or Curse, the round's end."""

from __future__ import annotations

from games.dragonflame.helpers import all_cards, attack, clear_castles, fetch, new, put, set_banners, to_attacks

from ladder.games.dragonflame.rules.data import CARD_BY_ID


def at_attack(players: int = 3, banners=None, seed: int = 1):
    state = new(players, seed)
    set_banners(state, banners or list(range(1, players + 1)))
    to_attacks(state)
    clear_castles(state)
    return state


def names(ids):
    return [CARD_BY_ID[c].name for c in ids]


def test_attacks_follow_banner_order():
    state = at_attack(4, [2, 4, 1, 3])
    seen = []
    for number in (1, 2, 3, 4):
        seen.append(attack(state, number))
    assert seen == [2, 0, 3, 1]


def test_attacker_returns_banner_and_takes_castle_and_cards():
    state = at_attack(3)
    loot = put(state, 3, ["Golden Ring", "Knight"], by=1)
    attack(state, 3)
    assert state.hoards[0] == loot and state.taken[0].number == 3 and state.castle(3).attacker == 0
    event = next(e for e in reversed(state.events) if e.type == "attack")
    assert event.data["banner"]["number"] == 1 and event.data["castle"] == {"colour": "blue", "number": 3}
    assert state.validate(1, {"castle": 3}) == "castle 3 was already attacked this round"


def test_looted_face_down_cards_are_revealed_to_all():
    state = at_attack(3)
    hidden = put(state, 2, ["Curse", "Princess"], up=False, by=2)
    attack(state, 2)
    event = next(e for e in reversed(state.events) if e.type == "attack")
    assert event.to is None and [c["id"] for c in event.data["cards"]] == hidden
    assert [c["id"] for c in state.observation(1)["hoards"][0]] == hidden


def test_dragonflame_is_resolved_before_the_next_attack():
    state = at_attack(3)
    flame = put(state, 2, ["Dragonflame"], by=1)[0]
    attack(state, 2)
    assert state.pending().seat == 0 and state.pending().kind == "flame"
    assert state.validate(1, {"castle": 1}).startswith("it is seat 0's decision (flame)")
    state.apply(0, {"side": "top", "index": 0})
    assert flame in state.discard and state.pending() == type(state.pending())(1, "attack")


def test_a_second_princess_is_discarded():
    state = at_attack(3)
    first, second = put(state, 4, ["Princess", "Princess"], by=1)
    attack(state, 4)
    assert first in state.hoards[0] and second in state.discard
    assert any(e.type == "second_discarded" and e.data["card"]["id"] == second for e in state.events)


def test_a_second_curse_is_discarded():
    state = at_attack(3)
    state.hoards[0].append(fetch(state, "Curse"))
    again = put(state, 1, ["Curse", "Golden Ring"], by=1)
    attack(state, 1)
    assert again[0] in state.discard and names(state.hoards[0]) == ["Curse", "Golden Ring"]


def test_the_unattacked_castle_is_discarded_and_set_aside():
    state = at_attack(3)
    up = put(state, 4, ["Golden Ring"], by=1)
    down = put(state, 4, ["Knight"], up=False, by=2)
    for number in (1, 2, 3):
        attack(state, number)
    assert up[0] in state.discard and down[0] in state.discard
    event = next(e for e in state.events if e.type == "castle_discarded")
    assert event.data == {"castle": {"colour": "blue", "number": 4}, "face_up": [CARD_BY_ID[up[0]].as_json()],
                          "face_down": 1}
    assert state.set_aside == ("blue", 4)


def test_returned_banners_and_the_set_aside_castle_are_next_rounds_castles():
    state = at_attack(3)
    red_aside = state.set_aside
    for number in (3, 1, 2):
        attack(state, number)
    assert sorted(c.number for c in state.castles) == [1, 2, 3, 4]
    assert all(c.colour == "red" for c in state.castles) and red_aside[1] == 4


def test_looted_castles_become_next_rounds_banners():
    state = at_attack(3)
    for number in (3, 1, 4):
        attack(state, number)
    assert state.banners == [("blue", 3), ("blue", 1), ("blue", 4)]
    assert state.order == [1, 0, 2] and state.pending().seat == 1 and state.round == 2
    assert [state.banner_json(s)["pattern"] for s in range(3)] == ["UDD", "UUU", "DDD"]


def test_a_new_round_deals_three_more_cards():
    state = at_attack(4)
    deck = len(state.deck)
    for number in (1, 2, 3, 4):
        attack(state, number)
    assert [len(h) for h in state.hands] == [3] * 4 and len(state.deck) == deck - 12
    assert state.events[-4].type == "hand" and state.events[-4].to == (0,)


def test_attack_round_keeps_every_card_in_one_place():
    state = at_attack(5)
    before = all_cards(state)
    for number in (6, 5, 4, 3, 2):
        attack(state, number)
        while state.pending().kind == "flame":
            state.apply(state.pending().seat, state.default_decision())
    assert all_cards(state) == before


def test_two_player_banner_handover():
    state = at_attack(2, [2, 1])
    attack(state, 3)  # seat 1 (banner 1) loots the largest castle
    attack(state, 2)
    assert state.banners == [("green", 1), ("green", 2)]
    assert [(c.colour, c.number) for c in state.castles] == [("blue", 1), ("blue", 2), ("blue", 3)]
    assert state.order == [0, 1] and all(len(h) == 4 for h in state.hands)


def test_two_player_banners_stay_green_and_castles_blue_all_game():
    state = new(2, 5)
    while state.pending() is not None:
        assert {c for c, _n in state.banners} == {"green"}
        assert [c.number for c in state.castles] == [1, 2, 3]
        state.apply(state.pending().seat, state.default_decision())
