"""The memory bot (expected-value stops) and the search bot (the forward model): legal, remembering,
and the search reproducible from its seed."""

from __future__ import annotations

from collections import Counter

import pytest

from bots.forward import ForwardModel
from bots.treasure.memory import MemoryBot, flip_value, stop_value
from bots.treasure.search import SearchBot

SETS = {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}


def feed(bot, state, seat=0):
    bot.setup({"game": "treasure", "seat": seat, "players": state.num_players, "options": {}, "seed": 5})
    for event in state.events:
        bot.on_event(event.as_json())


@pytest.mark.parametrize("bot_class", [MemoryBot, SearchBot])
def test_collects_a_remembered_diamond_then_stops(make_state, bot_class):
    placed = {(2, 2): "diamond", (2, 3): "dragon", (4, 0): "scroll", (4, 1): "scroll"}
    state = make_state(placed)
    state.apply(0, {"square": [2, 2]})
    state.apply(0, {"square": [2, 3]})  # a Dragon after the Diamond: seat 0 loses both
    for square in ([4, 0], [4, 1], [2, 2]):
        state.apply(1, {"square": square})
    bot = bot_class()
    feed(bot, state, seat=1)
    # 3 sure tiles against an unseen square that is a Dragon or a Spider 14 times in 45
    assert bot.decide("flip", state.observation(1)) == {"stop": True}


@pytest.mark.parametrize("bot_class", [MemoryBot, SearchBot])
def test_takes_remembered_dragons_in_a_run(make_state, bot_class):
    placed = {(1, 1): "dragon", (2, 2): "dragon", (3, 3): "dragon", (0, 0): "diamond"}
    state = make_state(placed)
    for square in [(1, 1), (2, 2), (3, 3), (0, 0)]:
        state.apply(0, {"square": list(square)})  # the Diamond breaks seat 0's Dragon run
    bot = bot_class()
    for _ in range(3):
        feed(bot, state, seat=1)
        decision = bot.decide("flip", state.observation(1))
        assert decision["square"] in ([1, 1], [2, 2], [3, 3])
        state.apply(1, decision)
    feed(bot, state, seat=1)
    assert bot.decide("flip", state.observation(1)) == {"stop": True}
    state.apply(1, {"stop": True})
    assert state.hoards[1] == Counter(dragon=3)


def test_the_expected_value_counts_only_whole_sets():
    pool = Counter(chest=8, dragon=12, spider=3)
    # one Chest in hand: a flip can at best make 2 of a set of 4, so stopping and flipping are worth 0
    assert stop_value(Counter(chest=1), False, Counter(), SETS) == 0
    assert flip_value(Counter(chest=1), False, Counter(chest=2), pool, SETS, 1) == pytest.approx(8 / 23 * 4)
    # a flip that ends the turn is worth nothing: with only Dragons and Spiders left, a hunt stops
    assert flip_value(Counter(diamond=2), False, Counter(), Counter(dragon=5, spider=1), SETS, 3) == 0


def test_memory_bot_plays_legal_games_and_beats_random(play):
    ranks = Counter()
    for seed in range(6):
        names = ["memory", "random"] if seed % 2 == 0 else ["random", "memory"]
        state, _ = play(names, seed)  # the fixture asserts every decision is legal
        ranks[names[state.ranks().index(1)]] += 1
    assert ranks["memory"] >= 5, ranks


def test_search_bot_decides_the_same_from_the_same_seed(play, monkeypatch):
    # the sample cap decides; the time budget is only a safety stop, which a loaded machine could hit
    monkeypatch.setattr("bots.treasure.search.TIME_BUDGET", 1e9)
    first, _ = play(["search", "memory", "careful"], 4)
    second, _ = play(["search", "memory", "careful"], 4)
    assert [e.as_json() for e in first.events] == [e.as_json() for e in second.events]
    assert first.pending() is None


@pytest.mark.parametrize("names", [["search", "random"], ["careful", "search", "memory", "random"],
                                   ["search", "random", "careful", "search", "random", "memory"]])
def test_search_bot_plays_legal_games_from_2_to_6_seats_and_searches_the_endgame(play, monkeypatch, names):
    # the fixture asserts every decision is legal; the endgame search must have run on the forward model
    monkeypatch.setattr("bots.treasure.search.TIME_BUDGET", 1e9)
    sampled = []
    real = ForwardModel.sample
    monkeypatch.setattr(ForwardModel, "sample", lambda self, obs, rng: sampled.append(1) or real(self, obs, rng))
    state, _ = play(names, 3)
    assert state.pending() is None and state.end_reason == "only_spiders"
    assert sampled
