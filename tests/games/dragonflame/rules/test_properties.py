"""Invariants over many seeded games (random and looter bots) of every table size, and hidden
information: what a seat may not know never changes what it sees. LADDER_DRAGONFLAME_SWEEP_GAMES sets
the games per table size."""

from __future__ import annotations

import random

import pytest
from games.dragonflame.sweep import GAME, check_state, play_checked, sweep_games

from bots.dragonflame.random import RandomBot


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_games_conserve_cards_and_fire_end_and_hide_what_is_hidden(players):
    for i in range(sweep_games()):
        play_checked(players, seed=i * 7919 + players, check_hidden=i < 20)


def random_steps(seed: int, players: int, steps: int):
    state = GAME.new_state(None, seed, players)
    bot = RandomBot()
    bot.setup({"seat": 0, "seed": seed})
    for _ in range(steps):
        pending = state.pending()
        if pending is None:
            break
        state.apply(pending.seat, bot.decide(pending.kind, state.observation(pending.seat)))
    return state


@pytest.mark.parametrize("seed", range(40))
def test_swapping_hidden_cards_changes_no_other_seats_observation(seed):
    rng = random.Random(seed)
    players = 2 + seed % 4
    state = random_steps(seed, players, rng.randrange(0, 60))
    if state.pending() is None:
        return
    owner = rng.randrange(players)
    others = [s for s in range(players) if s != owner]
    before = {s: state.observation(s) for s in others}
    # the deck's order
    rng.shuffle(state.deck)
    # a card in the owner's hand swapped with one in the deck
    if state.hands[owner] and state.deck:
        i, j = rng.randrange(len(state.hands[owner])), rng.randrange(len(state.deck))
        state.hands[owner][i], state.deck[j] = state.deck[j], state.hands[owner][i]
    # a face-down card the owner played (and nobody spied) swapped with one in the deck
    for castle in state.castles:
        for k, (cid, up, by) in enumerate(castle.cards):
            if not up and by == owner and not any(cid in state.spied[s] for s in others):
                castle.cards[k] = (state.deck[0], up, by)
                state.deck[0] = cid
                break
    check_state(state, seed)
    assert {s: state.observation(s) for s in others} == before


def test_same_seed_and_decisions_give_the_same_events():
    first = play_checked(4, 11, check_hidden=False)
    again = play_checked(4, 11, check_hidden=False)
    assert [e.as_json() for e in first.events] == [e.as_json() for e in again.events]
    other = GAME.new_state(None, 12, 4)
    assert other.events[0].as_json() != GAME.new_state(None, 11, 4).events[0].as_json() or \
        other.hands != GAME.new_state(None, 11, 4).hands
