"""The DragonFlame search bot: legal whole games at every table size, reproducible, and sound."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import new, treasure_castle_position

import bots.dragonflame_search as search
from bots.dragonflame_search import SearchBot
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
    logs = [play_builtin("dragonflame", ["search", "looter", "search"], seed=11).replay["log"] for _ in range(2)]
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
