"""The starter bots: always legal, the careful one remembers the board and beats the random one."""

from __future__ import annotations

from collections import Counter

import pytest

from bots.treasure.careful import CarefulBot
from bots.treasure.random import RandomBot
from ladder.games.treasure.rules.tiles import COLS


def feed(bot, state, seat=0):
    bot.setup({"game": "treasure", "seat": seat, "players": state.num_players, "options": {}, "seed": 5})
    for event in state.events:
        bot.on_event(event.as_json())


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_bots_play_legal_games_to_the_end(play, players):
    for seed in range(3):
        state, _ = play(["random"] * players, seed)  # play() checks every decision is legal
        assert state.end_reason == "only_spiders" and state.tiles_accounted() == 49


def test_random_bot_stops_only_once_a_tile_is_flipped(make_state):
    bot = RandomBot()
    state = make_state()
    feed(bot, state)
    first = [bot.decide("flip", state.observation(0)) for _ in range(200)]
    assert all("square" in d for d in first) and len({tuple(d["square"]) for d in first}) > 20
    state.apply(0, {"square": [0, 0]})
    later = Counter("stop" in bot.decide("flip", state.observation(0)) for _ in range(400))
    assert later[True] > 50 and later[False] > 50


def test_careful_bot_memory_matches_the_cave(play):
    most_known = []

    def check(state, bots):
        if state.is_terminal():
            return  # the Spider bonus empties the cave without a flip
        for bot in (b for b in bots if isinstance(b, CarefulBot)):
            for (r, c), kind in bot.known.items():
                assert state.grid[r * COLS + c] == kind, (r, c, kind)
            most_known.append(len(bot.known))

    for seed in range(20):
        state, _ = play(["careful", "random", "careful"], seed, after_events=check)
        assert state.end_reason == "only_spiders"
    assert max(most_known) >= 15  # it does remember, and what it remembers is right


def test_careful_bot_collects_a_diamond_it_has_seen_before_stopping(make_state):
    placed = {(2, 2): "diamond", (2, 3): "dragon", (4, 0): "scroll", (4, 1): "scroll"}
    state = make_state(placed)
    state.apply(0, {"square": [2, 2]})
    state.apply(0, {"square": [2, 3]})  # a Dragon after the Diamond: seat 0 loses both
    state.apply(1, {"square": [4, 0]})
    state.apply(1, {"square": [4, 1]})
    bot = CarefulBot()
    feed(bot, state, seat=1)
    # 2 Scrolls and the known Diamond are 3 sure tiles: not worth a 14-in-45 risk, so take them.
    assert bot.decide("flip", state.observation(1)) == {"square": [2, 2]}
    state.apply(1, {"square": [2, 2]})
    feed(bot, state, seat=1)
    assert bot.decide("flip", state.observation(1)) == {"stop": True}
    state.apply(1, {"stop": True})
    assert state.hoards[1] == Counter(scroll=2, diamond=1)


def test_careful_bot_runs_for_dragons_it_has_seen(make_state):
    placed = {(1, 1): "dragon", (2, 2): "dragon", (3, 3): "dragon", (0, 0): "diamond"}
    state = make_state(placed)
    for square in [(1, 1), (2, 2), (3, 3), (0, 0)]:
        state.apply(0, {"square": list(square)})  # the Diamond breaks seat 0's Dragon run
    bot = CarefulBot()
    for square in [(1, 1), (2, 2), (3, 3)]:
        feed(bot, state, seat=1)
        # Three sure Dragons beat gambling on unseen squares; once in the run, it takes them all.
        assert bot.decide("flip", state.observation(1)) == {"square": list(square)}
        state.apply(1, {"square": list(square)})
    feed(bot, state, seat=1)
    assert bot.decide("flip", state.observation(1)) == {"stop": True}
    state.apply(1, {"stop": True})
    assert state.hoards[1] == Counter(dragon=3)


def test_careful_bot_stops_when_the_risk_outweighs_the_gain(make_state):
    placed = {(0, c): "diamond" for c in range(5)}
    state = make_state(placed)
    bot = CarefulBot()
    for c in range(5):
        state.apply(0, {"square": [0, c]})
    feed(bot, state)
    # 5 Diamonds at stake; an unseen square is a Dragon or Spider 15 times in 44.
    assert bot.decide("flip", state.observation(0)) == {"stop": True}


def test_careful_bot_keeps_flipping_with_nothing_at_stake(make_state):
    state = make_state({(0, 0): "chest"})
    bot = CarefulBot()
    state.apply(0, {"square": [0, 0]})
    feed(bot, state)
    decision = bot.decide("flip", state.observation(0))
    assert "square" in decision and decision["square"] != [0, 0]


def test_careful_bot_leaves_the_spider(make_state):
    state = make_state({(1, 1): "diamond", (5, 5): "spider"})
    state.apply(0, {"square": [1, 1]})
    state.apply(0, {"stop": True})
    state.apply(1, {"square": [5, 5]})
    bot = CarefulBot()
    feed(bot, state, seat=1)
    assert bot.decide("move_spider", state.observation(1)) == {"square": None}


def test_careful_beats_random_over_200_seeded_games(play):
    wins = {"careful": 0, "random": 0}
    tiles = Counter()
    for seed in range(200):
        names = ["careful", "random"] if seed % 2 == 0 else ["random", "careful"]
        state, _ = play(names, seed)
        ranks = state.ranks()
        for seat, name in enumerate(names):
            tiles[name] += state.scores()[seat]
            wins[name] += ranks[seat] == 1 and ranks.count(1) == 1
    assert wins["careful"] >= 180, wins
    assert tiles["careful"] / 200 >= tiles["random"] / 200 + 20, tiles
