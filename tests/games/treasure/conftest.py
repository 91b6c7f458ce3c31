"""Helpers for Treasure tests: states with a known cave, whole turns, and bot games.

`make_state({(0, 0): "dragon", (0, 1): "spider"})` puts those tiles on those squares and fills the
other squares with the rest of the 49 tiles in data-file order (Gold Chests first), through the
game's `layout` hook, so every test state still holds exactly the game's tiles.
"""

from __future__ import annotations

import pytest
from games.treasure.layouts import build_layout

from bots import load_builtin
from ladder.games.treasure import Treasure, TreasureState
from ladder.games.treasure.rules.tiles import COLS


@pytest.fixture
def make_state():
    def make(placed=None, players: int = 2, max_turns: int | None = None, seed: int = 1) -> TreasureState:
        extra = {} if max_turns is None else {"max_turns": max_turns}
        return Treasure().new_state(None, seed, players, layout=build_layout(placed or {}), **extra)

    return make


def squares_of(state: TreasureState, kind: str) -> list[tuple[int, int]]:
    return [divmod(i, COLS) for i, tile in enumerate(state.grid) if tile == kind]


@pytest.fixture
def take():
    """One whole turn for whoever is to play: flip these squares in order, then stop."""

    def turn(state: TreasureState, squares) -> int:
        seat = state.pending().seat
        for square in squares:
            state.apply(seat, {"square": list(square)})
            assert state.flipped, f"the turn ended early at {square}"
        state.apply(seat, {"stop": True})
        return seat

    return turn


@pytest.fixture
def give(take):
    """Let the seats before `seat` pass (each flips a Spider and leaves it), then `seat` takes."""

    def turn_for(state: TreasureState, seat: int, squares) -> None:
        while state.pending().seat != seat:
            passer = state.pending().seat
            state.apply(passer, {"square": list(squares_of(state, "spider")[0])})
            if state.pending().kind == "move_spider":
                state.apply(passer, {"square": None})
        assert take(state, squares) == seat

    return turn_for


@pytest.fixture
def clear_treasure(take):
    """Take every set of every treasure kind, one set per turn, players in turn order."""

    def clear(state: TreasureState) -> None:
        for kind, size in state.observation(0)["set_sizes"].items():
            where = squares_of(state, kind)
            for start in range(0, len(where), size):
                take(state, where[start : start + size])

    return clear


def play_game(names, seed: int, after_events=None) -> tuple[TreasureState, list]:
    """A whole game between built-in bots (by name), delivering each seat the events it may see.
    `after_events(state, bots)` runs whenever the bots have caught up with the events."""
    state = Treasure().new_state(None, seed, len(names))
    bots = [load_builtin("treasure", name)() for name in names]
    for seat, bot in enumerate(bots):
        bot.setup({"game": "treasure", "seat": seat, "players": len(names), "options": {}, "seed": seed})
    seen = 0
    while True:
        for event in state.events[seen:]:
            for seat, bot in enumerate(bots):
                if event.visible_to(seat):
                    bot.on_event(event.as_json())
        seen = len(state.events)
        if after_events is not None:
            after_events(state, bots)
        pending = state.pending()
        if pending is None:
            return state, bots
        decision = bots[pending.seat].decide(pending.kind, state.observation(pending.seat))
        assert state.validate(pending.seat, decision) is None, (decision, state.validate(pending.seat, decision))
        state.apply(pending.seat, decision)


@pytest.fixture
def play():
    return play_game


@pytest.fixture
def squares():
    return squares_of
