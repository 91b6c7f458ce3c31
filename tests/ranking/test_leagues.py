"""The leagues' pure rules: a game's ladder of leagues, a meeting with the boss, the promotion test."""

from __future__ import annotations

import math
import random

import pytest

from ladder.games import available_games, get_game
from ladder.ranking.leagues import (
    ABOVE,
    BELOW,
    DEFAULT_NAMES,
    MOST_LEAGUES,
    PROMOTE,
    TIE,
    WINDOW,
    league_ladder,
    meeting,
    meetings_needed,
    promoted,
    recorded,
    weighed,
)


def test_every_game_declares_leagues_of_its_own_house_bots_with_an_open_top():
    for name in available_games():
        game = get_game(name)
        if not game.leagues:
            continue
        leagues = league_ladder(game.leagues, DEFAULT_NAMES)
        assert 4 <= len(leagues) <= MOST_LEAGUES
        assert leagues[-1].open and all(not lg.open for lg in leagues[:-1])
        assert all(bot in game.starter_bots for lg in leagues for bot in lg.house)
        # the game's boss is the last league's boss: the strongest house bot guards the top
        assert leagues[-2].boss == game.boss
        assert [lg.name for lg in leagues] == list(DEFAULT_NAMES[:len(leagues)])


def test_a_ladder_refuses_what_would_make_a_league_without_a_boss_or_a_bot_in_two():
    with pytest.raises(ValueError, match="open one"):
        league_ladder((("a",), ("b",)), DEFAULT_NAMES)
    with pytest.raises(ValueError, match="has a boss"):
        league_ladder(((), ("b",), ()), DEFAULT_NAMES)
    with pytest.raises(ValueError, match="two leagues"):
        league_ladder((("a",), ("a", "b"), ()), DEFAULT_NAMES)
    with pytest.raises(ValueError, match="names"):
        league_ladder((("a",), ("b",), ()), ("Low", "High"))
    assert league_ladder((), DEFAULT_NAMES) == ()


def test_a_meeting_is_how_the_bot_finished_against_the_boss_and_the_record_keeps_the_newest():
    assert (meeting(1, 2), meeting(3, 2), meeting(2, 2)) == (ABOVE, BELOW, TIE)
    record, played = "", ""
    for i in range(WINDOW + 5):
        outcome = (ABOVE, BELOW, TIE)[i % 3]
        record, played = recorded(record, outcome), played + outcome
    assert record == played[5:] and len(record) == WINDOW


def test_nine_meetings_above_the_boss_in_a_row_promote_and_eight_do_not():
    evidence = 0.0
    for _ in range(8):
        evidence = weighed(evidence, ABOVE)
    assert not promoted(evidence) and meetings_needed(evidence) == 1
    assert promoted(weighed(evidence, ABOVE)) and meetings_needed(weighed(evidence, ABOVE)) == 0
    assert meetings_needed(0.0) == 9  # ceil(log(0.9/0.05) / log(0.7/0.5)) = ceil(8.59)


def test_the_evidence_is_the_log_likelihood_ratio_of_seventy_against_fifty_percent():
    evidence = 0.0
    for outcome in (ABOVE, ABOVE, BELOW, TIE):
        evidence = weighed(evidence, outcome)
    win, loss = math.log(0.7 / 0.5), math.log(0.3 / 0.5)
    assert evidence == pytest.approx(2 * win + loss + (win + loss) / 2)
    assert pytest.approx(math.log(0.9 / 0.05)) == PROMOTE


def test_the_test_starts_again_when_it_has_accepted_that_the_bot_is_not_better():
    evidence = 0.0
    for _ in range(4):  # 4 x log(0.6) = -2.04: above the restart bound, log(0.1 / 0.95) = -2.25
        evidence = weighed(evidence, BELOW)
    assert evidence < 0
    assert weighed(evidence, BELOW) == 0.0  # -2.55 reached the bound: a fresh start, not a deeper hole


def _promoted_within(share: float, meetings: int, careers: int, seed: int) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(careers):
        evidence = 0.0
        for _ in range(meetings):
            evidence = weighed(evidence, ABOVE if rng.random() < share else BELOW)
            if promoted(evidence):
                hits += 1
                break
    return hits / careers


def test_the_rule_separates_a_bot_as_good_as_the_boss_from_a_clearly_better_one():
    # the figures the module's docstring quotes, from the same simulation (fixed seeds)
    assert _promoted_within(0.4, 100, 4000, 2) < 0.03
    assert _promoted_within(0.5, 100, 4000, 2) < 0.2
    assert _promoted_within(0.7, 100, 4000, 2) > 0.95
    assert _promoted_within(0.8, 50, 4000, 2) > 0.99
