"""The boss of each game: its name from the game, its house copy, and a bot's record against it."""

from __future__ import annotations

from ladder.games import available_games, get_game
from ladder.services import bots
from ladder.services.boss import boss_bot, boss_name, boss_record


def test_every_game_names_a_boss_and_an_unknown_game_none():
    for game in available_games():
        assert boss_name(game) == get_game(game).boss
    assert boss_name("chess") == ""


def test_the_boss_is_the_house_copy_and_a_bot_meets_it_on_its_page(world, session):
    assert boss_bot(session=session, game="treasure") is None  # not seeded yet
    climber, _ = world.bot()
    seeded = {b.builtin: b for b in bots.seed_house_bots(session=session, games=["treasure"])}
    boss = boss_bot(session=session, game="treasure")
    assert boss is not None and boss.id == seeded[get_game("treasure").boss].id != climber.id
    assert boss_record(session=session, bot=boss) is None  # the boss has no boss
    record = boss_record(session=session, bot=climber)
    assert (record.boss_id, record.meetings, record.beaten) == (boss.id, 0, False)
