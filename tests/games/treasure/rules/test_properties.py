"""Invariants over many games: tiles accounted for, games end, nothing hidden leaks, determinism."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.games.treasure import Treasure
from ladder.games.treasure.rules.tiles import COLS, ROWS


def random_decision(state, rng: random.Random):
    """Any legal decision, stopping often so that games stay short."""
    request = state.observation(state.pending().seat)["request"]
    if request["kind"] == "move_spider":
        return {"square": rng.choice([*request["squares"], None])}
    if request["can_stop"] and rng.random() < 0.5:
        return {"stop": True}
    return {"square": rng.choice(request["squares"])}


def assert_nothing_hidden_shows(state) -> None:
    up = set(state.flipped)
    for seat in range(state.num_players):
        obs = state.observation(seat)
        for r in range(ROWS):
            for c in range(COLS):
                i = r * COLS + c
                shown = obs["grid"][r][c]
                if state.grid[i] is None:
                    assert shown == "empty"
                elif i in up:
                    assert shown == state.grid[i]
                else:
                    assert shown == "down", f"face-down tile on {[r, c]} shown to seat {seat}"
        assert [f["square"] for f in obs["flipped"]] == [[i // COLS, i % COLS] for i in state.flipped]


def play_random(seed: int, players: int, rng: random.Random, check_every_step: bool):
    state = Treasure().new_state(None, seed, players)
    decisions = []
    while not state.is_terminal():
        decision = random_decision(state, rng)
        decisions.append((state.pending().seat, decision))
        before = len(state.events)
        state.apply(*decisions[-1])
        assert state.tiles_accounted() == 49
        for event in state.events[before:]:
            assert event.to is None
            if event.type == "flip":  # a flip shows only the tile just turned face up
                r, c = event.data["square"]
                assert state.grid[r * COLS + c] == event.data["kind"]
        if check_every_step:
            assert_nothing_hidden_shows(state)
    return state, decisions


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), choices=st.integers(0, 2**32 - 1))
def test_random_games_account_for_49_tiles_end_and_hide_face_down_tiles(seed, players, choices):
    state, _ = play_random(seed, players, random.Random(choices), check_every_step=True)
    assert state.end_reason in ("only_spiders", "turn_cap")
    assert state.events[-1].type == "game_end"
    assert sum(state.scores()) + sum(t is not None for t in state.grid) == 49


def test_every_seeded_random_game_ends_in_the_cave_not_at_the_cap():
    for seed in range(25):
        state, _ = play_random(seed, 2 + seed % 5, random.Random(seed), check_every_step=False)
        assert state.end_reason == "only_spiders", seed
        assert all(t in (None, "spider") for t in state.grid)
        assert sum(state.spider_bonus) in (0, 3)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), choices=st.integers(0, 2**32 - 1))
def test_same_seed_and_decisions_give_the_same_events(seed, players, choices):
    first, decisions = play_random(seed, players, random.Random(choices), check_every_step=False)
    again = Treasure().new_state(None, seed, players)
    for seat, decision in decisions:
        again.apply(seat, decision)
    assert [e.as_json() for e in again.events] == [e.as_json() for e in first.events]
    assert again.scores() == first.scores() and again.ranks() == first.ranks()


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120), choices=st.integers(0, 2**32 - 1))
def test_swapping_face_down_tiles_changes_no_observation(seed, steps, choices):
    rng = random.Random(choices)
    state = Treasure().new_state(None, seed, 3)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.pending().seat, random_decision(state, rng))
    if len(state.face_down()) < 2:
        return  # a finished game whose Spiders went to the bonus
    a, b = rng.sample(state.face_down(), 2)
    before = [state.observation(s) for s in range(3)]
    state.grid[a], state.grid[b] = state.grid[b], state.grid[a]
    assert [state.observation(s) for s in range(3)] == before
