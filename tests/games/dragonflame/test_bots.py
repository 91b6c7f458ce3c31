"""The starter bots: random plays legally, looter values castles and fire and beats random."""

from __future__ import annotations

from collections import Counter

from games.dragonflame.helpers import (
    clear_castles,
    fetch,
    new,
    put,
    set_banners,
    to_attacks,
    treasure_castle_position,
    village_to_finish_position,
)

from bots.dragonflame.looter import LooterBot, hoard_value
from bots.dragonflame.random import RandomBot
from ladder.play import play_builtin


def bot_for(cls, seat, state):
    bot = cls()
    bot.setup({"game": "dragonflame", "seat": seat, "players": state.num_players, "options": {}, "seed": 3})
    return bot


def test_random_bot_chooses_among_the_listed_choices():
    state = new(3)
    bot = bot_for(RandomBot, state.pending().seat, state)
    picks = [bot.decide("play", state.observation(state.pending().seat)) for _ in range(100)]
    assert all(state.validate(state.pending().seat, p) is None for p in picks)
    assert len({(p["card"], p["castle"]) for p in picks}) > 6


def test_looter_attacks_the_castle_worth_most_to_it():
    state = new(3)
    treasure_castle_position(state)
    assert bot_for(LooterBot, 0, state).decide("attack", state.observation(0)) == {"castle": 2}


def test_looter_does_not_want_a_second_princess_or_another_statue_of_a_type():
    princess = {"category": "princess", "name": "Princess"}
    sage = {"category": "statue", "name": "Statue of the Sage"}
    assert hoard_value([princess, princess], 15) == hoard_value([princess], 15)
    assert hoard_value([sage, sage], 15) < hoard_value([sage], 15)


def test_looter_burns_where_it_destroys_a_village_it_leads():
    state = new(3)
    village_to_finish_position(state)
    decision = bot_for(LooterBot, 0, state).decide("flame", state.observation(0))
    assert decision in ({"side": "left", "index": 2}, {"side": "bottom", "index": 0})


def test_looter_spies_on_the_castle_with_most_unseen_cards():
    state = new(5)
    set_banners(state, [1, 2, 3, 4, 5])
    state.hoards[0].append(fetch(state, "Spyglass"))
    to_attacks(state)
    clear_castles(state)
    put(state, 2, ["Knight"], up=False, by=1)
    put(state, 5, ["Knight", "Curse"], up=False, by=3)
    assert bot_for(LooterBot, 0, state).decide("spy", state.observation(0)) == {"castle": 5}


def test_looter_beats_random_over_40_two_player_games():
    wins = Counter()
    for seed in range(40):
        names = ["looter", "random"] if seed % 2 == 0 else ["random", "looter"]
        played = play_builtin("dragonflame", names, seed=seed)
        ranks = played.state.ranks()
        for seat, name in enumerate(names):
            wins[name] += ranks[seat] == 1 and ranks.count(1) == 1
    assert wins["looter"] >= 36, wins
