"""Every scoring category of the rules: villages, banners, statues, chests, jewelry, princess,
knights, curse; and the breakdown adds up to the score."""

from __future__ import annotations

from collections import Counter

from games.dragonflame.helpers import fetch, new

from ladder.games.dragonflame.rules.data import CARDS
from ladder.games.dragonflame.rules.scoring import chest_points, hoard_points
from ladder.games.dragonflame.rules.village import Cell, village_glory


def hoard(names):
    """Card ids for these names, each card used once (from the full 91-card list)."""
    free = list(CARDS)
    out = []
    for name in names:
        card = next(c for c in free if c.name == name)
        free.remove(card)
        out.append(card.id)
    return out


def test_a_destroyed_village_pays_by_damage():
    assert village_glory(Cell("Dunmore", 5, [2, 0, 2, 1, 0]), 3) == [6, 3, 10]
    assert village_glory(Cell("Brightwater", 4, [0, 1, 2, 3]), 4) == [8, 4, 2, 0]
    assert village_glory(Cell("Ashton", 3, [1, 1, 1]), 2) == [0, 6]


def test_a_damage_tie_goes_to_the_first_burner():
    assert village_glory(Cell("Dunmore", 5, [1, 0, 0, 1, 2]), 3) == [6, 10, 3]
    assert village_glory(Cell("Ashton", 3, [2, 0, 1]), 3) == [3, 0, 6]


def test_a_village_not_destroyed_scores_nothing():
    assert village_glory(Cell("Greymoor", 5, [0, 0, 0, 0]), 2) == [0, 0]
    assert village_glory(Cell("Field", 0, []), 2) == [0, 0]


def test_village_glory_reaches_the_breakdown():
    state = new(3)
    state.grid.cells[0] = Cell("Ashton", 3, [1, 1, 0])
    assert state.breakdown()[1]["villages"] == 6 and state.breakdown()[0]["villages"] == 3


def test_the_banner_held_at_the_end_scores_its_number():
    state = new(4)
    state.banners = [("red", 5), ("red", 1), ("red", 3), ("red", 2)]
    assert [row["banner"] for row in state.breakdown()] == [5, 1, 3, 2]


def test_statues_score_five_each_unless_two_of_a_type():
    assert hoard_points(hoard(["Statue of the Sage", "Statue of the Wyrm"]))["statues"] == 10
    assert hoard_points(hoard(["Statue of the Sage", "Statue of the Sage", "Statue of the Wyrm"]))["statues"] == 5


def test_chests_score_the_set_size_each():
    # the rulebook's example: four Stash of Silver Pieces are worth four each
    assert hoard_points(hoard(["Stash of Silver Pieces"] * 4))["chests"] == 16


def test_only_one_chest_set_scores_the_rest_cost_one_each():
    cards = hoard(["Coffer of Gems"] * 3 + ["Casket of Pearls"] * 2 + ["Chest of Gold Coins"])
    assert hoard_points(cards)["chests"] == 9 - 2 - 1
    assert chest_points(Counter({"a": 2, "b": 3})) == 9 - 2


def test_jewelry_scores_its_number():
    assert hoard_points(hoard(["Dragon Crown", "Copper Bracelet", "Golden Ring"]))["jewelry"] == 9


def test_princess_scores_one_per_different_treasure_name():
    cards = hoard(["Princess", "Coffer of Gems", "Coffer of Gems", "Statue of the Sage", "Statue of the Sage",
                   "Golden Ring", "Ruby Amulet", "Knight", "Spyglass"])
    assert hoard_points(cards)["princess"] == 4
    assert hoard_points(cards[1:])["princess"] == 0


def test_knights_cost_three_each():
    assert hoard_points(hoard(["Knight"] * 3))["knights"] == -9


def test_curse_costs_two_per_different_chest_name():
    cards = hoard(["Curse", "Coffer of Gems", "Coffer of Gems", "Casket of Pearls", "Golden Ring"])
    assert hoard_points(cards)["curse"] == -4
    assert hoard_points(hoard(["Curse"]))["curse"] == 0


def test_treasure_categories_are_chests_statues_and_jewelry():
    cards = hoard(["Princess", "Dragonflame", "Knight", "Curse", "Spyglass", "Golden Ring"])
    assert hoard_points(cards)["princess"] == 1


def test_the_breakdown_adds_up_to_the_score():
    state = new(3, 4)
    state.hoards[0] = [fetch(state, n) for n in ("Princess", "Coffer of Gems", "Knight", "Golden Ring")]
    row = state.breakdown()[0]
    assert row["total"] == sum(v for k, v in row.items() if k != "total") == state.scores()[0]
    assert set(row) == {"villages", "banner", "statues", "chests", "jewelry", "princess", "knights", "curse", "total"}
