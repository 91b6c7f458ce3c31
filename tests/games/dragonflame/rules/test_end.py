"""The end: when one card is left in the deck; scores, ranks, and the game_end event."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import new


def play_default(state):
    while state.pending() is not None:
        state.apply(state.pending().seat, state.default_decision())
    return state


@pytest.mark.parametrize(("players", "rounds"), [(2, 8), (3, 8), (4, 6), (5, 6)])
def test_the_game_ends_with_one_card_left_in_the_deck(players, rounds):
    state = play_default(new(players))
    assert len(state.deck) == 1 and state.round == rounds and state.end_reason == "deck"
    assert state.events[-1].type == "game_end" and state.events[-1].data["deck"] == 1


def test_the_game_goes_on_while_the_deck_can_deal():
    state = new(4)
    while state.round == 1:
        state.apply(state.pending().seat, state.default_decision())
    assert state.pending() is not None and len(state.deck) == 73 - 24


def test_most_glory_wins():
    state = play_default(new(3, 2))
    scores = state.scores()
    ranks = state.ranks()
    assert ranks[scores.index(max(scores))] == 1
    assert all((ranks[a] < ranks[b]) == (scores[a] > scores[b]) for a in range(3) for b in range(3))
    assert state.events[-1].data["scores"] == scores and state.events[-1].data["ranks"] == ranks


def test_equal_glory_shares_a_rank():
    state = play_default(new(2, 1))
    state.final = [{**row, "total": 10} for row in state.final]
    assert state.ranks() == [1, 1]


def test_the_banner_at_the_end_is_the_last_castle_looted():
    state = new(3, 3)
    while state.pending() is not None:
        state.apply(state.pending().seat, state.default_decision())
    end = state.events[-1].data
    last_attacks = [e.data for e in state.events if e.type == "attack"][-3:]
    numbers = {a["seat"]: a["castle"]["number"] for a in last_attacks}
    assert [row["banner"] for row in end["breakdown"]] == [numbers[s] for s in range(3)]


def test_a_finished_game_takes_no_decision():
    state = play_default(new(2))
    assert state.validate(0, {"castle": 1}) == "the game is over"
    assert state.observation(0)["over"] and state.observation(0)["scores"] == state.scores()
