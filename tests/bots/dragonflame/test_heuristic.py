"""The DragonFlame heuristic bot: legal whole games at every table size, and its judgement."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import (
    clear_castles,
    fetch,
    give,
    new,
    put,
    set_banners,
    treasure_castle_position,
    village_to_finish_position,
)

from bots.dragonflame.heuristic import HeuristicBot
from ladder.games.dragonflame.rules.outlook import card_worth
from ladder.play import play_builtin


def bot_for(seat, state):
    bot = HeuristicBot()
    bot.setup({"game": "dragonflame", "seat": seat, "players": state.num_players, "options": {}, "bot_seed": 3})
    return bot


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_heuristic_plays_whole_games_legally_at_every_table_size(players):
    lineup = ["heuristic", "looter", "random", "heuristic", "looter"][:players]
    for seed in range(2):
        played = play_builtin("dragonflame", lineup, seed=seed)
        assert played.faults == [], played.faults[:3]
        assert played.state.pending() is None and len(played.results) == players


def test_card_worth_follows_the_scoring_and_the_relics():
    state = new(5)
    sage, sage2, knight, bane = (fetch(state, n) for n in (
        "Statue of the Sage", "Statue of the Sage", "Knight", "Knight's Bane"))
    assert card_worth([], [sage], 15) == 5
    assert card_worth([sage], [sage2], 15) == -5  # two of a type score nothing
    assert card_worth([], [knight], 15) == -3
    assert card_worth([bane], [knight], 15) == 0  # the Bane discards it at the end


def test_the_heuristic_attacks_the_castle_worth_most_to_it():
    state = new(3)
    treasure_castle_position(state)
    assert bot_for(0, state).decide("attack", state.observation(0)) == {"castle": 2}


def test_a_knight_goes_where_someone_else_will_take_it():
    state = new(3)
    set_banners(state, [3, 1, 2])  # seat 0 plays and attacks last
    clear_castles(state)
    put(state, 2, ["Dragon Crown"], by=1)
    give(state, 1, ["Knight", "Knight", "Knight"])
    decision = bot_for(1, state).decide("play", state.observation(1))
    assert decision["castle"] != 2  # seat 1 attacks first and takes the Crown: not with a Knight


def test_a_good_card_goes_onto_the_castle_it_will_take():
    state = new(3)
    set_banners(state, [3, 1, 2])
    clear_castles(state)
    put(state, 2, ["Ruby Amulet"], by=2)
    crown = give(state, 1, ["Dragon Crown", "Knight", "Knight"])[0]
    assert bot_for(1, state).decide("play", state.observation(1)) == {"card": crown, "castle": 2}


def test_the_heuristic_burns_where_it_destroys_a_village_it_leads():
    state = new(3)
    village_to_finish_position(state)
    decision = bot_for(0, state).decide("flame", state.observation(0))
    assert decision in ({"side": "left", "index": 2}, {"side": "bottom", "index": 0})
