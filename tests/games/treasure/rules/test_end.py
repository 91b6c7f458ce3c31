"""The end of the game: only Spiders left, the Spider bonus, the winner and its tie-breaks, the cap."""

from __future__ import annotations

from collections import Counter

from ladder.games.base import Pending


def test_the_game_goes_on_while_anything_but_spiders_is_left(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    dragons = squares(state, "dragon")
    take(state, dragons[:11])
    assert state.pending() is not None and state.end_reason is None


def test_the_game_ends_when_only_the_3_spiders_are_left(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)  # 18 turns, 17 tiles for each seat; seat 0 is up again
    take(state, squares(state, "dragon"))
    assert state.pending() is None and state.is_terminal() and state.end_reason == "only_spiders"
    end = state.events[-1]
    assert end.type == "game_end" and end.data["reason"] == "only_spiders"
    assert "over" in state.validate(0, {"square": [6, 6]})


def test_the_most_dragons_takes_the_3_spiders(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    dragons = squares(state, "dragon")
    take(state, dragons[:7])  # seat 0
    take(state, dragons[7:])  # seat 1
    assert state.spider_bonus == [3, 0]
    assert state.scores() == [17 + 7 + 3, 17 + 5]
    assert state.events[-1].data["spider_bonus_to"] == 0
    assert state.tiles_accounted() == 49 and all(tile is None for tile in state.grid)


def test_a_tie_for_most_dragons_gives_nobody_the_spiders(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    dragons = squares(state, "dragon")
    take(state, dragons[:6])
    take(state, dragons[6:])
    assert state.spider_bonus == [0, 0] and state.events[-1].data["spider_bonus_to"] is None
    assert Counter(state.grid)["spider"] == 3 and state.tiles_accounted() == 49


def test_most_tiles_wins(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    dragons = squares(state, "dragon")
    take(state, dragons[:2])  # seat 0: 19 tiles
    take(state, dragons[2:])  # seat 1: 17 + 10 + 3 Spiders
    assert state.scores() == [19, 30] and state.ranks() == [2, 1]


def test_a_tie_in_tiles_goes_to_the_most_dragons(make_state, give, squares):
    state = make_state(players=3)
    chest, sword, scroll = squares(state, "chest"), squares(state, "sword"), squares(state, "scroll")
    potion, egg, diamond = squares(state, "potion"), squares(state, "egg"), squares(state, "diamond")
    dragon = squares(state, "dragon")
    give(state, 0, chest[:4])
    give(state, 1, sword[:3])
    give(state, 1, sword[3:])
    give(state, 1, scroll[:2])
    give(state, 1, potion[:2])  # seat 1: 10 treasure tiles
    for squares_ in (chest[4:], scroll[2:], potion[2:], egg[:2], egg[2:], *([d] for d in diamond)):
        give(state, 2, squares_)  # seat 2: 20 treasure tiles
    give(state, 1, dragon[:4])
    give(state, 2, dragon[4:5])
    give(state, 0, dragon[5:])  # seat 0: 7 Dragons and the Spiders
    assert state.is_terminal()
    assert state.scores() == [14, 14, 21]
    assert [state.dragons(s) for s in range(3)] == [7, 4, 1]
    assert state.ranks() == [2, 3, 1]


def test_a_tie_in_tiles_and_dragons_is_shared(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    dragons = squares(state, "dragon")
    take(state, dragons[:6])
    take(state, dragons[6:])
    assert state.scores() == [23, 23] and state.ranks() == [1, 1]
    assert state.events[-1].data["ranks"] == [1, 1]


def test_the_safety_cap_ends_the_game_and_scores_it_as_it_stands(make_state, take):
    state = make_state({(0, 0): "dragon", (0, 1): "dragon", (0, 2): "diamond"}, max_turns=3)
    take(state, [(0, 0), (0, 1)])  # turn 1, seat 0: 2 Dragons
    take(state, [(0, 2)])  # turn 2, seat 1: a Diamond
    assert state.pending() == Pending(0, "flip") and state.turn == 3
    take(state, [(3, 3)])
    assert state.pending() is None and state.end_reason == "turn_cap"
    # No Spider bonus: the Spiders are still in the cave.
    assert state.spider_bonus == [0, 0] and state.scores() == [2, 1] and state.ranks() == [1, 2]
    assert state.events[-1].data["reason"] == "turn_cap" and state.tiles_accounted() == 49


def test_breakdown_shows_tiles_by_kind_dragons_bonus_and_total(make_state, clear_treasure, take, squares):
    state = make_state()
    clear_treasure(state)
    take(state, squares(state, "dragon"))
    zero = dict.fromkeys(["chest", "sword", "scroll", "potion", "egg", "diamond", "dragon"], 0)
    seat0 = {**zero, "chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 4, "dragon": 12}
    assert state.breakdown() == [
        {"seat": 0, "tiles": seat0, "dragons": 12, "spider_bonus": 3, "total": 32},
        {"seat": 1, "tiles": {**seat0, "dragon": 0}, "dragons": 0, "spider_bonus": 0, "total": 17},
    ]
