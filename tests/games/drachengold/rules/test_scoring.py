"""Scoring: basic, advanced-a (printings 000/001) and advanced-b (printing 002), and the ranks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.games.drachengold.rules.data import DECK
from ladder.games.drachengold.rules.scoring import score_hoards, score_totals

GEMS = ["green", "blue", "purple", "yellow", "white"]


def score(rules, *hoards):
    return score_hoards([dict(h) for h in hoards], DECK["scoring"][rules], DECK["gems"])


def totals(rules, *hoards):
    # every test below reads both: the breakdown's totals and the scorecard's totals-only scoring
    whole = [b["total"] for b in score(rules, *hoards)]
    assert score_totals([dict(h) for h in hoards], DECK["scoring"][rules], DECK["gems"]) == whole
    return whole


ALL = ["basic", "advanced-a", "advanced-b"]


@pytest.mark.parametrize("rules", ALL)
def test_silver_is_worth_1(rules):
    assert totals(rules, {"silver": 5}, {}, {}) == [5, 0, 0]


@pytest.mark.parametrize("rules", ALL)
def test_gold_is_worth_3(rules):
    assert totals(rules, {"gold": 4}, {}, {}) == [12, 0, 0]


@pytest.mark.parametrize("rules", ALL)
def test_red_magic_object_tokens_are_worth_1(rules):
    assert totals(rules, {"red": 3}, {}, {}) == [3, 0, 0]


@pytest.mark.parametrize(("rules", "points"), [("basic", 7), ("advanced-a", 19), ("advanced-b", 15)])
def test_the_black_diamond(rules, points):
    assert score(rules, {"black": 1}, {}, {})[0]["black"] == points
    assert totals(rules, {"black": 1}, {}, {}) == [points, 0, 0]


def test_the_gem_colours_are_green_blue_purple_yellow_and_white():
    assert sorted(DECK["gems"]) == sorted(GEMS)


@pytest.mark.parametrize(("players", "bonus"), [(3, 15), (4, 12), (5, 12), (6, 10)])
def test_basic_majority_bonus_by_player_count(players, bonus):
    for gem in GEMS:
        hoards = [{gem: 2}, {gem: 1}] + [{}] * (players - 2)
        b = score("basic", *hoards)
        assert b[0]["majorities"] == {gem: bonus} and b[1]["majorities"] == {}
        assert b[0]["total"] == bonus


def test_black_is_no_majority_colour():
    assert score("basic", {"black": 1}, {}, {})[0]["majorities"] == {}


def test_basic_tied_leaders_each_score_the_full_bonus():
    assert totals("basic", {"blue": 2}, {"blue": 2}, {"blue": 2}, {"blue": 1}) == [12, 12, 12, 0]


def test_nobody_scores_a_colour_nobody_holds():
    assert totals("basic", {"silver": 1}, {}, {}) == [1, 0, 0]
    assert totals("advanced-a", {"silver": 1}, {}, {}) == [1, 0, 0]


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
@pytest.mark.parametrize(("players", "bonus"), [(3, 12), (4, 10), (5, 10), (6, 8)])
def test_advanced_majority_bonus_by_player_count(rules, players, bonus):
    hoards = [{"green": 3}, {"green": 1}] + [{}] * (players - 2)
    assert totals(rules, *hoards)[:2] == [bonus, 0]


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
@pytest.mark.parametrize(("players", "half"), [(3, 6), (4, 5), (5, 5), (6, 4)])
def test_advanced_two_tied_leaders_score_half_each(rules, players, half):
    hoards = [{"purple": 2}, {"purple": 2}] + [{"purple": 1}] + [{}] * (players - 3)
    assert totals(rules, *hoards)[:3] == [half, half, 0]


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_advanced_three_or_more_tied_leaders_score_nothing(rules):
    assert totals(rules, {"yellow": 1}, {"yellow": 1}, {"yellow": 1}, {}) == [0, 0, 0, 0]
    assert totals(rules, {"yellow": 2}, {"yellow": 2}, {"yellow": 2}, {"yellow": 2}) == [0, 0, 0, 0]


def test_advanced_a_scores_5_for_each_full_set_of_the_five_gems():
    one_set = dict.fromkeys(GEMS, 1)
    two_sets = {**dict.fromkeys(GEMS, 2), "white": 3}
    b = score("advanced-a", one_set, two_sets, {**one_set, "white": 0}, dict.fromkeys(GEMS, 4))
    assert [x["sets"] for x in b] == [5, 10, 0, 20]


def test_advanced_b_scores_5_once_for_at_least_one_of_each_gem():
    b = score("advanced-b", dict.fromkeys(GEMS, 1), dict.fromkeys(GEMS, 3), {**dict.fromkeys(GEMS, 1), "blue": 0},
              {})
    assert [x["sets"] for x in b] == [5, 5, 0, 0]


def test_basic_has_no_set_bonus():
    assert [x["sets"] for x in score("basic", dict.fromkeys(GEMS, 2), {}, {})] == [0, 0, 0]


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_the_cursed_black_diamond_owner_scores_no_majority_and_no_set(rules):
    owner = {"black": 1, **dict.fromkeys(GEMS, 1), "silver": 2}
    b = score(rules, owner, {}, {}, {"blue": 1})  # owner alone on top of green, purple, yellow, white
    assert b[0]["cursed"] and b[0]["majorities"] == {} and b[0]["sets"] == 0
    assert b[0]["total"] == DECK["scoring"][rules]["black"] + 2


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_when_the_cursed_owner_alone_has_the_most_nobody_scores_that_colour(rules):
    b = score(rules, {"black": 1, "green": 3}, {"green": 2}, {"green": 1}, {})
    assert [x["majorities"] for x in b] == [{}, {}, {}, {}]


@pytest.mark.parametrize("rules", ["advanced-a", "advanced-b"])
def test_a_cursed_owner_tied_on_top_leaves_the_other_leader_half_the_bonus(rules):
    # Not "solely the most": the colour is scored, and two players tie for it (4 players: 10 / 2).
    b = score(rules, {"black": 1, "blue": 2}, {"blue": 2}, {"blue": 1}, {})
    assert b[0]["majorities"] == {} and b[1]["majorities"] == {"blue": 5}


def test_basic_rules_have_no_curse():
    b = score("basic", {"black": 1, "green": 3}, {"green": 2}, {})
    assert not b[0]["cursed"] and b[0]["majorities"] == {"green": 15} and b[0]["total"] == 22


def test_a_whole_advanced_a_example_adds_up():
    # 4 players. Seat 0: 2 silver, 1 gold, 2 full sets plus an extra blue (leads blue alone).
    s0 = {"silver": 2, "gold": 1, **dict.fromkeys(GEMS, 2), "blue": 3}
    s1 = {"red": 2, "green": 2, "purple": 2}  # ties seat 0 on green and purple
    s2 = {"black": 1, "yellow": 4, "white": 1}  # cursed, alone on top of yellow: nobody scores yellow
    s3 = {"white": 2}  # ties seat 0 on white
    b = score("advanced-a", s0, s1, s2, s3)
    assert b[0]["majorities"] == {"blue": 10, "green": 5, "purple": 5, "white": 5}
    assert b[0]["total"] == 2 + 3 + 10 + 5 + 5 + 5 + 2 * 5
    assert b[1]["total"] == 2 + 5 + 5
    assert b[2]["total"] == 19
    assert b[3]["total"] == 5


def test_the_game_scores_the_hoards_with_the_chosen_rules(dg):
    # Seat 0: black diamond and the only green; seat 1: a gold. Basic: 7 + 12 for green. Advanced:
    # cursed, alone on top of green, so nobody scores green.
    for rules, expected in (("basic", [19, 3, 0, 0]), ("advanced-a", [19, 3, 0, 0]), ("advanced-b", [15, 3, 0, 0])):
        st = dg.arrange(dg.new(4, rules=rules), dragons=["D9", "D12", "D16", "D17"],
                        hoards={0: ["black", "green"], 1: ["gold"]})
        assert st.scores() == expected, rules
    st = dg.arrange(dg.new(3, rules="basic"), dragons=["D9"], hoards={0: ["green"]})
    assert st.scores() == [15, 0, 0]  # 3 players


def test_the_highest_score_wins_and_tied_players_share_the_rank(dg):
    st = dg.arrange(dg.new(4), dragons=["D9", "D12", "D16", "D17"],
                    hoards={0: ["gold"], 1: ["gold", "silver"], 2: ["silver"] * 4, 3: []})
    assert st.scores() == [3, 4, 4, 0]
    assert st.ranks() == [3, 1, 1, 4]


def test_the_breakdown_shows_each_source_and_the_counts(dg):
    st = dg.arrange(dg.new(3, rules="advanced-a"), dragons=["D9", "D12", "D16", "D17"],
                    hoards={0: ["silver", "gold", "red", *GEMS]})
    b = st.breakdown()[0]
    assert (b["silver"], b["gold"], b["red"], b["black"], b["sets"]) == (1, 3, 1, 0, 5)
    assert b["majorities"] == dict.fromkeys(GEMS, 12)
    assert b["counts"] == {"silver": 1, "gold": 1, "red": 1, **dict.fromkeys(GEMS, 1)}
    assert b["total"] == 1 + 3 + 1 + 5 + 60


COLOURS = ["silver", "gold", "red", "black", *GEMS]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ALL), st.lists(st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 4)),
                                      min_size=3, max_size=6))
def test_the_totals_alone_are_the_breakdowns_totals(rules, hoards):
    assert score_totals(hoards, DECK["scoring"][rules], DECK["gems"]) == \
        [b["total"] for b in score_hoards(hoards, DECK["scoring"][rules], DECK["gems"])]
