"""The DragonFlame search bot: legal whole games at every table size, reproducible, and sound."""

from __future__ import annotations

import pytest
from games.dragonflame.helpers import (
    attack,
    clear_castles,
    fetch,
    give,
    new,
    put,
    set_banners,
    to_attacks,
    treasure_castle_position,
)

import bots.dragonflame.search as search
from bots.dragonflame.search import SearchBot, choose, outcome, policy, quiet
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
    logs = [play_builtin("dragonflame", ["search", "looter", "search"], seed=11).replay.log for _ in range(2)]
    assert logs[0] == logs[1]


def test_the_search_samples_within_its_caps(monkeypatch):
    monkeypatch.setattr(search, "MAX_SWEEPS", 5)
    monkeypatch.setattr(search, "SEARCH_SECONDS", 1e9)
    bots = [SearchBot(), SearchBot(), SearchBot()]  # three seats: with two the ranking decides alone
    from ladder.play import play_game

    play_game("dragonflame", bots, seed=3)
    assert bots[0].sweeps and all(s == 5 for bot in bots for s in bot.sweeps)


def test_the_search_attacks_the_castle_that_is_clearly_best(few_sweeps):
    state = new(3)
    treasure_castle_position(state)
    bot = SearchBot()
    bot.setup({"game": "dragonflame", "seat": 0, "players": 3, "options": {}, "bot_seed": 1})
    assert bot.decide("attack", state.observation(0)) == {"castle": 2}


def bot_for(seat, state):
    bot = SearchBot()
    bot.setup({"game": "dragonflame", "seat": seat, "players": state.num_players, "options": {}, "bot_seed": 1})
    return bot


def test_a_playout_is_worth_the_seats_beaten_ties_half_plus_a_little_lead():
    assert outcome([30, 20, 10], 0) == pytest.approx(2 + search.LEAD_WEIGHT * 15)
    assert outcome([20, 20, 10], 1) == pytest.approx(1.5 + search.LEAD_WEIGHT * 5)
    assert outcome([5, 20, 10], 0) == pytest.approx(0 - search.LEAD_WEIGHT * 10)


def test_the_heuristics_first_choice_stands_unless_another_leads_it_clearly():
    first = [0.0] * 8
    assert choose([first, [0.5, -0.5] * 4]) == 0  # no lead on average
    assert choose([first, [1.0, -0.9] * 4]) == 0  # a small lead drowned in noise
    assert choose([first, [0.4, 0.6] * 4, [0.9, 1.1] * 4]) == 2  # both clear: the larger lead
    assert choose([[0.0], [3.0]]) == 0  # one sample judges nothing


def test_the_fast_policy_plays_a_whole_game_legally():
    import random

    state = new(4)
    state._emit = quiet
    rng = random.Random(2)
    while state.pending() is not None:
        pending = state.pending()
        decision = policy(state, pending.seat, pending.kind, rng)
        assert state.validate(pending.seat, decision) is None, decision
        state.apply_validated(pending.seat, decision)
    assert len(state.deck) == 1


def test_in_a_playout_an_attacker_cannot_see_the_others_face_down_cards():
    import random

    state = new(3)
    set_banners(state, [1, 2, 3])  # seat 0 attacks first
    to_attacks(state)
    clear_castles(state)
    put(state, 1, ["Copper Bracelet"], by=1)
    put(state, 2, ["Dragon Crown"], up=False, by=1)  # the playout knows it; seat 0 would not
    put(state, 3, ["Knight"], up=False, by=0)  # its own card it knows
    put(state, 4, ["Knight"], up=False, by=2)
    assert policy(state, 0, "attack", random.Random(1)) == {"castle": 1}


def test_plays_are_searched_too(few_sweeps):
    state = new(3)
    bot = bot_for(state.pending().seat, state)
    bot.decide("play", state.observation(state.pending().seat))
    assert bot.sweeps == [3]


@pytest.fixture
def many_sweeps(monkeypatch):
    """Enough samples a decision to judge, no clock: the same on any machine."""
    monkeypatch.setattr(search, "MAX_SWEEPS", 40)
    monkeypatch.setattr(search, "SEARCH_SECONDS", 1e9)


def test_the_search_keeps_a_knight_off_the_castle_it_will_take(many_sweeps):
    state = new(3)
    set_banners(state, [3, 1, 2])  # seat 1 plays and attacks first
    clear_castles(state)
    put(state, 2, ["Dragon Crown"], by=1)
    give(state, 1, ["Knight", "Knight", "Knight"])
    assert bot_for(1, state).decide("play", state.observation(1))["castle"] != 2


def test_the_search_puts_a_good_card_onto_the_castle_it_will_take(many_sweeps):
    state = new(3)
    set_banners(state, [3, 1, 2])
    clear_castles(state)
    put(state, 2, ["Ruby Amulet"], by=2)
    crown = give(state, 1, ["Dragon Crown", "Knight", "Knight"])[0]
    assert bot_for(1, state).decide("play", state.observation(1)) == {"card": crown, "castle": 2}


# ---- two players: the Duel ranking ------------------------------------------------------------


def duel_ranking(seat, state, kind):
    """The two-seat ranking of `seat`'s decision, best first, as the search starts from it."""
    from ladder.games.dragonflame.rules.forward import Sampler
    from ladder.games.dragonflame.rules.outlook import Outlook

    observation = state.observation(seat)
    hello = {"game": "dragonflame", "seat": seat, "players": 2, "options": {}}
    return search.Duel(Outlook(Sampler(hello, observation, []))).ranked(kind, observation["request"])


def two_player_attack_position():
    """Two players, seat 0 attacks first, every castle empty (the round's cards back in the deck)."""
    state = new(2)
    set_banners(state, [1, 2])
    to_attacks(state)
    clear_castles(state)
    return state


def test_two_seats_the_first_attacker_denies_a_castle_worth_more_to_the_other():
    state = two_player_attack_position()
    state.hoards[1] = [fetch(state, "Coffer of Gems"), fetch(state, "Coffer of Gems")]
    put(state, 1, ["Coffer of Gems", "Coffer of Gems"], by=1)  # 4 to seat 0, 12 to seat 1
    put(state, 2, ["Ruby Amulet", "Golden Ring"], by=1)  # 7 to either
    put(state, 3, ["Knight"], by=1)
    # castle 2 is worth most to seat 0 alone, but leaves castle 1 to the other: a lead of -6
    # against -2 for castle 1 (4, less the other's 7, plus the first turn next round)
    ranked = duel_ranking(0, state, "attack")
    assert ranked[0][1] == {"castle": 1}
    assert [d["castle"] for _w, d in ranked] == [1, 2, 3]


@pytest.mark.parametrize(("last_round", "best"), [(False, 1), (True, 3)])
def test_two_seats_the_banner_a_castle_gives_breaks_a_tie(last_round, best):
    """Castles 1 and 3 hold the same: before the last round castle 1 is better (it keeps green
    banner 1, the first turn); in the last round castle 3 is (its looter scores banner 2, not 1)."""
    state = two_player_attack_position()
    put(state, 1, ["Golden Ring"], by=1)
    put(state, 2, ["Knight"], by=1)
    put(state, 3, ["Golden Ring"], by=1)
    if last_round:  # the deck cannot deal another round: this round's banner scores
        state.discard += state.deck[3:]
        del state.deck[3:]
    assert duel_ranking(0, state, "attack")[0][1] == {"castle": best}


def test_two_seats_a_knight_goes_where_the_other_seat_will_take_it():
    state = new(2)
    set_banners(state, [2, 1])  # seat 1 plays and attacks first
    clear_castles(state)
    put(state, 2, ["Dragon Crown"], by=0)
    put(state, 3, ["Ruby Amulet"], by=0)
    give(state, 1, ["Knight", "Knight", "Knight", "Knight"])
    # seat 1 takes the Crown's castle 2, seat 0 then the Amulet's castle 3: the Knight belongs there
    ranked = duel_ranking(1, state, "play")
    assert ranked[0][1]["castle"] == 3


def test_two_seats_a_flame_that_finishes_the_others_village_is_judged_against_it():
    from ladder.games.dragonflame.rules.village import Cell, Grid

    state = two_player_attack_position()
    state.grid = Grid(2, 3, [Cell(n, s) for n, s in [("Elmstead", 3), ("Field", 0), ("Brightwater", 4),
                                                    ("Dunmore", 5), ("Fernhill", 4), ("Greymoor", 5)]])
    state.grid.cell(0, 0).fire = [1, 1]  # one more token destroys Elmstead: 6 to seat 1, 3 to seat 0
    state.castle(2).cards.append((fetch(state, "Dragonflame", fire=1), True, 1))
    attack(state, 2)
    ranked = duel_ranking(0, state, "flame")
    lines = [d for _w, d in ranked]
    assert lines.index({"side": "left", "index": 0}) > lines.index({"side": "right", "index": 0})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_decision_answers_within_the_clock(players):
    """The real settings (no patched caps): a whole game, each answer well inside the ladder's 1 s."""
    import time

    from ladder.play import play_game

    class Timed(SearchBot):
        def decide(self, kind, observation):
            start = time.monotonic()
            decision = super().decide(kind, observation)
            self.longest = max(getattr(self, "longest", 0.0), time.monotonic() - start)
            return decision

    from bots.dragonflame.looter import LooterBot

    bots = [Timed()] + [LooterBot() for _ in range(players - 1)]
    played = play_game("dragonflame", bots, seed=40 + players)
    assert played.faults == []
    assert bots[0].longest < search.SEARCH_SECONDS + 0.5
    if players == 2:  # two seats: no playouts, the ranking answers at once
        assert bots[0].sweeps == [] and bots[0].longest < 0.2
