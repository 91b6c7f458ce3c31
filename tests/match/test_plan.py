"""ladder/match/plan.py: a plan checks its table and resolves its options once, when it is made, and
`ladder match`'s bot arguments become typed seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.games import OptionError, get_game
from ladder.match import HouseBot, LocalCode, TimeControl, local_plan, local_seat, plan


def test_a_plan_holds_the_game_object_and_every_option_resolved():
    game = get_game("treasure")
    made = plan(game, [HouseBot("a", "random"), HouseBot("b", "careful")], seed=4)
    assert made.game is game and made.options == game.resolve_options({})
    assert made.names == ["a", "b"] and made.clock == TimeControl() and made.strikes == 3
    with pytest.raises(TypeError):
        made.options["extra"] = 1  # resolved once: nobody changes them on the way


def test_a_bad_table_or_option_is_refused_when_the_plan_is_made():
    with pytest.raises(OptionError, match="players"):
        plan("treasure", [HouseBot("a", "random")] * 9, seed=1)
    with pytest.raises(OptionError, match="unknown option"):
        plan("treasure", [HouseBot("a", "random")] * 2, seed=1, options={"nope": 1})


def test_bot_arguments_become_typed_seats_named_as_given():
    assert local_seat("builtin:careful") == HouseBot("builtin:careful", "careful")
    assert local_seat("bots/mine.py", "me") == LocalCode("me", Path("bots/mine.py"))
    made = local_plan("treasure", ["builtin:random", "x.zip"], seed=2, sandbox="none")
    assert [type(s) for s in made.seats] == [HouseBot, LocalCode] and made.names == ["builtin:random", "x.zip"]
