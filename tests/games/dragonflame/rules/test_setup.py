"""Components and setting up, for 3-5 players and for 2 (rules 003, the edition's data)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest
from games.dragonflame.helpers import GAME, new

from ladder.games.base import OptionError
from ladder.games.dragonflame.rules.data import CARD_BY_ID, CARDS, VILLAGES, castle_limit, deck_for


def test_two_to_five_players():
    for n in range(2, 6):
        assert new(n).num_players == n
    for n in (1, 6):
        with pytest.raises(OptionError):
            GAME.new_state(None, 1, n)


def test_components_match_the_rulebook():
    assert len(CARDS) == 91
    assert len(VILLAGES) == 9
    castles = sum(len(p) for p in json.loads(resources.files("ladder.games.dragonflame.rules")
                                             .joinpath("data.json").read_text())["banners"].values())
    assert castles == 14  # red 1-6, blue 1-6, green 1-2
    state = new(5)
    assert sum(state.fire) == 75 and len(state.fire) == 5


def test_the_deck_holds_the_editions_91_cards():
    by = Counter(c.category for c in CARDS)
    assert by == {"dragonflame": 16, "knight": 8, "curse": 3, "princess": 4, "statue": 15, "chest": 20,
                  "jewelry": 15, "relic": 10}
    assert Counter(c.fire for c in CARDS if c.category == "dragonflame") == {1: 6, 2: 6, 3: 4}
    assert Counter(c.value for c in CARDS if c.category == "jewelry") == {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}
    assert sorted(Counter(c.name for c in CARDS if c.category == "statue").values()) == [3] * 5
    chests = Counter(c.name for c in CARDS if c.category == "chest")
    assert sorted(chests.values()) == [5] * 4 and "Stash of Silver Pieces" in chests
    assert Counter(c.name for c in CARDS if c.category == "relic") == {
        "Spyglass": 2, "Ring of Fire": 2, "Knight's Bane": 2, "Curse Breaker": 2, "Lucky Chest": 2}


def test_marks_are_18_v_and_8_ii_spread_over_the_categories():
    marks = Counter(c.mark for c in CARDS)
    assert (marks["V"], marks["II"]) == (18, 8)
    v = Counter(c.category for c in CARDS if c.mark == "V")
    assert v == {"dragonflame": 3, "knight": 1, "curse": 1, "princess": 1, "statue": 3, "chest": 4,
                 "jewelry": 3, "relic": 2}
    assert all(v[cat] <= n for cat, n in Counter(c.category for c in CARDS).items())


def test_the_data_is_read_from_the_data_file():
    raw = json.loads(resources.files("ladder.games.dragonflame.rules").joinpath("data.json").read_text())
    assert sum(k["count"] for k in raw["deck"]) == len(CARDS)
    assert [c.id for c in CARDS] == [f"c{i}" for i in range(91)] and CARD_BY_ID["c0"].category == "dragonflame"


@pytest.mark.parametrize("players", [3, 4])
def test_v_cards_are_removed_below_five_players(players):
    state = new(players)
    assert len(state.box) == 18 and all(CARD_BY_ID[c].mark == "V" for c in state.box)
    assert len(state.deck) + sum(map(len, state.hands)) == 73


def test_five_players_keep_every_card():
    state = new(5)
    assert state.box == [] and len(state.deck) + sum(map(len, state.hands)) == 91


def test_two_players_remove_v_and_ii_cards():
    state = new(2)
    assert len(state.box) == 26 and {CARD_BY_ID[c].mark for c in state.box} == {"V", "II"}
    assert len(deck_for(2)) == 65


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_by_three_grid_with_a_field_in_the_centre(players):
    grids = set()
    for seed in range(8):
        grid = new(players, seed).grid
        assert (grid.rows, grid.cols) == (3, 3) and grid.cell(1, 1).name == "Field"
        assert sorted(c.name for c in grid.cells) == sorted(v.name for v in VILLAGES)
        grids.add(tuple(c.name for c in grid.cells))
    assert len(grids) > 4  # shuffled around the centre


def test_two_player_grid_is_2x3_without_ashton_and_kindleton():
    for seed in range(5):
        grid = new(2, seed).grid
        names = [c.name for c in grid.cells]
        assert (grid.rows, grid.cols) == (2, 3) and names.count("Field") == 1
        assert "Ashton" not in names and "Kindleton" not in names and len(names) == 6


@pytest.mark.parametrize("players", [3, 4, 5])
def test_castles_of_each_colour_are_players_plus_one_lowest_numbers(players):
    state = new(players)
    assert [(c.colour, c.number) for c in state.castles] == [("blue", k) for k in range(1, players + 2)]
    reds = sorted([b[1] for b in state.banners] + [state.set_aside[1]])
    assert reds == list(range(1, players + 2))
    assert all(colour == "red" for colour, _n in state.banners) and state.set_aside[0] == "red"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_gets_a_red_banner_at_random_and_one_is_set_aside(players):
    deals = {tuple(new(players, seed).banners) for seed in range(12)}
    assert len(deals) > 3
    assert all("green" not in str(d) for d in deals)


def test_castle_limit_is_number_plus_two():
    assert [castle_limit(n) for n in range(1, 7)] == [3, 4, 5, 6, 7, 8]
    assert [c.limit for c in new(5).castles] == [3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_has_15_fire_tokens(players):
    assert new(players).fire == [15] * players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_three_cards_each_from_a_shuffled_deck(players):
    a, b = new(players, 1), new(players, 2)
    assert all(len(h) == 3 for h in a.hands)
    assert a.hands != b.hands
    assert sorted(a.deck + [c for h in a.hands for c in h]) == sorted(b.deck + [c for h in b.hands for c in h])
    again = new(players, 1)
    assert again.hands == a.hands and again.deck == a.deck


def test_two_players_use_green_banners_and_blue_castles_1_to_3():
    state = new(2)
    assert [(c.colour, c.number) for c in state.castles] == [("blue", 1), ("blue", 2), ("blue", 3)]
    assert sorted(state.banners) == [("green", 1), ("green", 2)] and state.set_aside is None
    assert {tuple(new(2, seed).banners) for seed in range(10)} == {(("green", 1), ("green", 2)),
                                                                    (("green", 2), ("green", 1))}


def test_two_players_get_four_cards():
    state = new(2)
    assert [len(h) for h in state.hands] == [4, 4]
    assert [b["pattern"] for b in map(state.banner_json, sorted(range(2), key=lambda s: state.banners[s]))] == [
        "UUUD", "UDDD"]


def test_banner_patterns_say_face_up_and_down():
    state = new(5)
    state.banners = [("red", n) for n in (1, 2, 3, 4, 6)]
    assert [state.banner_json(s)["pattern"] for s in range(5)] == ["UUU", "UUD", "UDD", "DDD", "DDD"]


def test_a_given_deck_is_dealt_from_its_end_and_must_hold_the_games_cards():
    ids = [c.id for c in deck_for(3)]
    state = GAME.new_state(None, 1, 3, deck=ids)
    dealt = [c for seat in state.order for c in state.hands[seat]]
    assert dealt == ids[::-1][:9] and state.deck == ids[:-9]
    with pytest.raises(ValueError, match="exactly the 73 cards"):
        GAME.new_state(None, 1, 3, deck=ids[:-1])
