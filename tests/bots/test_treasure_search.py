"""Treasure's search bot: its copy of the careful policy, its rollouts' objective (this seat's gain
against the other seats'), and a search cut short keeping the careful choice."""

from __future__ import annotations

from collections import Counter

import pytest
from games.treasure.layouts import build_layout

import bots.treasure_search as search
from bots.treasure_careful import CarefulBot
from bots.treasure_search import SearchBot, careful_choice, clone, edge, play, view
from ladder.games.treasure import Treasure
from ladder.games.treasure.tiles import COLS

SETS = {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}


def hello(seat: int, players: int) -> dict:
    return {"game": "treasure", "seat": seat, "players": players, "options": {}, "seed": 9}


def kind_of(decision: dict, state, known: set[int]) -> str:
    """A decision as careful_choice names it: stop, unseen, or the kind of a remembered tile."""
    if decision.get("stop"):
        return "stop"
    row, col = decision["square"]
    square = row * COLS + col
    return state.grid[square] if square in known else "unseen"


def careful_games(seeds, players=3, check=None):
    """Seeded games of careful bots; `check(state, known, bot, decision)` at every flip decision.
    `known` is every square whose tile was seen: all flips are public, so every seat knows it."""
    for seed in seeds:
        state = Treasure().new_state(None, seed, players)
        bots = [CarefulBot() for _ in range(players)]
        for seat, bot in enumerate(bots):
            bot.setup(hello(seat, players))
        known: set[int] = set()
        fed = 0
        while state.pending() is not None:
            for event in state.events[fed:]:
                for bot in bots:
                    bot.on_event(event.as_json())
            fed = len(state.events)
            pending = state.pending()
            bot = bots[pending.seat]
            decision = bot.decide(pending.kind, state.observation(pending.seat))
            if pending.kind == "flip" and check is not None:
                check(state, known, bot, decision)
            if decision.get("square") is not None and pending.kind == "flip":
                known.add(decision["square"][0] * COLS + decision["square"][1])
            state.apply(pending.seat, decision)


def test_the_copied_careful_policy_decides_as_the_careful_bot():
    compared = Counter()

    def check(state, known, bot, decision):
        kinds, _, unseen, pool = view(state, known)
        hand = Counter(state.grid[i] for i in state.flipped)
        copied = careful_choice(SETS, hand, state.dragon_run, kinds, len(unseen), pool)
        assert copied == kind_of(decision, state, known), (state.turn, decision)
        compared[copied if copied in ("stop", "unseen") else "known"] += 1

    careful_games(range(6), check=check)
    # the games reached every kind of decision
    assert compared["stop"] > 20 and compared["unseen"] > 50 and compared["known"] > 10, compared


def test_a_search_cut_short_by_the_clock_keeps_the_careful_choice(monkeypatch):
    monkeypatch.setattr(search, "TIME_BUDGET", -1.0)  # every search stops after its first sample
    checked = []

    def check(state, known, bot, decision):
        seat = state.pending().seat
        searcher = SearchBot()
        searcher.setup(hello(seat, state.num_players))
        for event in state.events:
            searcher.on_event(event.as_json())
        mine = searcher.decide("flip", state.observation(seat))
        assert kind_of(mine, state, known) == kind_of(decision, state, known)
        checked.append(mine)

    careful_games([11], check=check)
    assert len(checked) > 30


def test_the_rollout_value_is_this_seats_gain_against_the_others_mean():
    state = Treasure().new_state(None, 1, 3)
    state.hoards[0] = Counter(diamond=3, dragon=1)
    state.hoards[1] = Counter(sword=3)
    state.hoards[2] = Counter(diamond=1)
    # a Dragon weighs 1.25 while the game goes on: 4.25 against the mean of 3 and 1
    assert edge(state, 0) == pytest.approx(4.25 - 2)
    assert edge(state, 1) == pytest.approx(3 - (4.25 + 1) / 2)


def test_a_rollout_plays_on_a_copy_and_counts_what_the_next_seat_takes():
    # seat 0 has a Diamond and a lone Scroll face up; the other Scroll lies unseen at (0, 2)
    state = Treasure().new_state(None, 1, 2, layout=layout({0: "diamond", 1: "scroll", 2: "scroll", 3: "dragon"}))
    state.apply(0, {"square": [0, 0]})
    state.apply(0, {"square": [0, 1]})
    twin = clone(state)
    play(twin, None)  # stop: the Diamond is won, the Scroll goes back face down, now known to all
    assert twin.hoards[0] == Counter(diamond=1) and state.hoards[0] == Counter()
    assert state.flipped == [0, 1] and twin.grid[1] == "scroll"
    known = {0, 1}
    kinds, where, unseen, _ = view(twin, known)
    assert kinds == Counter(scroll=1) and where == {"scroll": 1} and 2 in unseen
    bot = SearchBot()
    bot.setup(hello(0, 2))
    for event in state.events:
        bot.on_event(event.as_json())
    # the rollout of a stop counts the Diamond, minus what seat 1 then wins in its turn
    value = bot.rollout(state, "stop", {0, 1}, SETS, search.random.Random(3))
    order = list(range(49))
    search.random.Random(3).shuffle(order)
    while twin.turn == 2 and twin.pending() is not None:
        square = search.careful_move(twin, known, SETS, order)
        if square is not None:
            known.add(square)
        play(twin, square)
    taken = sum(twin.hoards[1].values()) + 0.25 * twin.hoards[1]["dragon"]
    assert value == pytest.approx(1 - taken)
    assert state.flipped == [0, 1] and state.hoards == [Counter(), Counter()]  # the root is untouched


def layout(placed: dict[int, str]) -> list[str]:
    """build_layout by square index."""
    return build_layout({divmod(i, COLS): kind for i, kind in placed.items()})


def test_a_pass_stops_after_its_remembered_tile_and_only_in_its_own_turn():
    # seat 0 turned a Diamond and lost it to a Dragon: seat 1 remembers the Diamond at (0, 0)
    state = Treasure().new_state(None, 1, 2, layout=layout({0: "diamond", 1: "dragon", 2: "scroll"}))
    state.apply(0, {"square": [0, 0]})
    state.apply(0, {"square": [0, 1]})
    state.apply(1, {"square": [0, 2]})  # seat 1 holds a lone Scroll
    bot = SearchBot()
    bot.setup(hello(1, 2))
    for event in state.events:
        bot.on_event(event.as_json())
    bot.stop_next, bot.stop_turn = True, state.turn  # as after choosing "pass:scroll" this turn
    assert bot.decide("flip", state.observation(1)) == {"stop": True}
    stale, fresh = SearchBot(), SearchBot()
    for twin in (stale, fresh):
        twin.setup(hello(1, 2))
        for event in state.events:
            twin.on_event(event.as_json())
    stale.stop_next, stale.stop_turn = True, state.turn - 2  # a pass of an earlier turn no longer binds
    assert stale.decide("flip", state.observation(1)) == fresh.decide("flip", state.observation(1))
