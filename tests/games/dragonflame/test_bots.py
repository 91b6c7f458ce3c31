"""The starter bots: random plays legally, looter values castles and fire and beats random."""

from __future__ import annotations

from collections import Counter

from games.dragonflame.helpers import attack, clear_castles, fetch, new, put, set_banners, to_attacks

from bots.dragonflame_looter import LooterBot, hoard_value
from bots.dragonflame_random import RandomBot
from ladder.games.dragonflame.village import Cell, Grid
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
    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    put(state, 1, ["Knight", "Knight"], by=1)
    put(state, 2, ["Golden Ring", "Dragon Crown"], by=1)
    put(state, 3, ["Curse"], by=1)
    put(state, 4, ["Copper Bracelet"], up=False, by=2)
    assert bot_for(LooterBot, 0, state).decide("attack", state.observation(0)) == {"castle": 2}


def test_looter_does_not_want_a_second_princess_or_another_statue_of_a_type():
    princess = {"category": "princess", "name": "Princess"}
    sage = {"category": "statue", "name": "Statue of the Sage"}
    assert hoard_value([princess, princess], 15) == hoard_value([princess], 15)
    assert hoard_value([sage, sage], 15) < hoard_value([sage], 15)


def test_looter_burns_where_it_destroys_a_village_it_leads():
    state = new(3)
    set_banners(state, [1, 2, 3])
    to_attacks(state)
    clear_castles(state)
    state.grid = Grid(3, 3, [Cell(n, s) for n, s in [("Ashton", 3), ("Brightwater", 4), ("Dunmore", 5),
                                                      ("Elmstead", 3), ("Field", 0), ("Fernhill", 4),
                                                      ("Greymoor", 5), ("Kindleton", 4), ("Field", 0)]])
    state.grid.cell(2, 0).fire = [0, 0, 0, 1]  # Greymoor: one space left, seat 0 leads
    state.castle(2).cards.append((fetch(state, "Dragonflame", fire=1), True, 1))
    attack(state, 2)
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
