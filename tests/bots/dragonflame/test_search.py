"""The DragonFlame search bot: legal whole games at every table size, reproducible, and sound."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import (
    clear_castles,
    give,
    new,
    put,
    set_banners,
    to_attacks,
    treasure_castle_position,
)

import bots.dragonflame.search as search
from bots.dragonflame.search import SearchBot, choose, outcome, policy, quiet
from ladder.play import play_builtin


@pytest.fixture
def few_sweeps(monkeypatch):
    """A few samples a decision and no clock: quick, and the same on any machine."""
    monkeypatch.setattr(search, "MAX_SWEEPS", 3)
    monkeypatch.setattr(search, "SEARCH_SECONDS", 1e9)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_search_plays_whole_games_legally_at_every_table_size(players, few_sweeps):
    lineup = ["search", "heuristic", "looter", "random", "search"][:players]
    played = play_builtin("dragonflame", lineup, seed=players)
    assert played.faults == [], played.faults[:3]
    assert played.state.pending() is None and len(played.results) == players


def test_the_same_seed_plays_the_same_game(few_sweeps):
    logs = [play_builtin("dragonflame", ["search", "looter", "search"], seed=11).replay.log for _ in range(2)]
    assert logs[0] == logs[1]


def test_the_search_samples_within_its_caps(monkeypatch):
    monkeypatch.setattr(search, "MAX_SWEEPS", 5)
    monkeypatch.setattr(search, "SEARCH_SECONDS", 1e9)
    bots = [SearchBot(), SearchBot()]
    from ladder.play import play_game

    play_game("dragonflame", bots, seed=3)
    assert bots[0].sweeps and all(s == 5 for s in bots[0].sweeps + bots[1].sweeps)


def test_the_search_attacks_the_castle_that_is_clearly_best(few_sweeps):
    state = new(3)
    treasure_castle_position(state)
    bot = SearchBot()
    bot.setup({"game": "dragonflame", "seat": 0, "players": 3, "options": {}, "bot_seed": 1})
    assert bot.decide("attack", state.observation(0)) == {"castle": 2}


def bot_for(seat, state):
    bot = SearchBot()
    bot.setup({"game": "dragonflame", "seat": seat, "players": state.num_players, "options": {}, "bot_seed": 1})
    return bot


def test_a_playout_is_worth_the_seats_beaten_ties_half_plus_a_little_lead():
    assert outcome([30, 20, 10], 0) == pytest.approx(2 + search.LEAD_WEIGHT * 15)
    assert outcome([20, 20, 10], 1) == pytest.approx(1.5 + search.LEAD_WEIGHT * 5)
    assert outcome([5, 20, 10], 0) == pytest.approx(0 - search.LEAD_WEIGHT * 10)


def test_the_heuristics_first_choice_stands_unless_another_leads_it_clearly():
    first = [0.0] * 8
    assert choose([first, [0.5, -0.5] * 4]) == 0  # no lead on average
    assert choose([first, [1.0, -0.9] * 4]) == 0  # a small lead drowned in noise
    assert choose([first, [0.4, 0.6] * 4, [0.9, 1.1] * 4]) == 2  # both clear: the larger lead
    assert choose([[0.0], [3.0]]) == 0  # one sample judges nothing


def test_the_fast_policy_plays_a_whole_game_legally():
    import random

    state = new(4)
    state._emit = quiet
    rng = random.Random(2)
    while state.pending() is not None:
        pending = state.pending()
        decision = policy(state, pending.seat, pending.kind, rng)
        assert state.validate(pending.seat, decision) is None, decision
        state.apply_validated(pending.seat, decision)
    assert len(state.deck) == 1


def test_in_a_playout_an_attacker_cannot_see_the_others_face_down_cards():
    import random

    state = new(3)
    set_banners(state, [1, 2, 3])  # seat 0 attacks first
    to_attacks(state)
    clear_castles(state)
    put(state, 1, ["Copper Bracelet"], by=1)
    put(state, 2, ["Dragon Crown"], up=False, by=1)  # the playout knows it; seat 0 would not
    put(state, 3, ["Knight"], up=False, by=0)  # its own card it knows
    put(state, 4, ["Knight"], up=False, by=2)
    assert policy(state, 0, "attack", random.Random(1)) == {"castle": 1}


def test_plays_are_searched_too(few_sweeps):
    state = new(3)
    bot = bot_for(state.pending().seat, state)
    bot.decide("play", state.observation(state.pending().seat))
    assert bot.sweeps == [3]


@pytest.fixture
def many_sweeps(monkeypatch):
    """Enough samples a decision to judge, no clock: the same on any machine."""
    monkeypatch.setattr(search, "MAX_SWEEPS", 40)
    monkeypatch.setattr(search, "SEARCH_SECONDS", 1e9)


def test_the_search_keeps_a_knight_off_the_castle_it_will_take(many_sweeps):
    state = new(3)
    set_banners(state, [3, 1, 2])  # seat 1 plays and attacks first
    clear_castles(state)
    put(state, 2, ["Dragon Crown"], by=1)
    give(state, 1, ["Knight", "Knight", "Knight"])
    assert bot_for(1, state).decide("play", state.observation(1))["castle"] != 2


def test_the_search_puts_a_good_card_onto_the_castle_it_will_take(many_sweeps):
    state = new(3)
    set_banners(state, [3, 1, 2])
    clear_castles(state)
    put(state, 2, ["Ruby Amulet"], by=2)
    crown = give(state, 1, ["Dragon Crown", "Knight", "Knight"])[0]
    assert bot_for(1, state).decide("play", state.observation(1)) == {"card": crown, "castle": 2}
