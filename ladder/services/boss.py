"""The boss of each game (issue #24): its strongest house bot, `Game.boss`, the one to climb past.
Each leaderboard names it, and a bot's page says whether that bot has finished above it more often
than not in their rated meetings."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.games import OptionError, get_game
from ladder.models import Bot, HeadToHead, User


def boss_name(game: str) -> str:
    """The boss's builtin name, "" for a game without one."""
    try:
        return get_game(game).boss
    except OptionError:  # a game no longer registered keeps its board, without a boss
        return ""


def boss_bot(*, session: Session, game: str) -> Bot | None:
    """The house's copy of the boss: None for a game without one, or a boss the ladder has not seeded."""
    name = boss_name(game)
    if not name:
        return None
    return session.exec(
        select(Bot).join(User, User.id == Bot.owner_id)
        .where(Bot.game == game, Bot.builtin == name, User.is_system == True)  # noqa: E712
        .order_by(Bot.id)
    ).first()


@dataclass(frozen=True, slots=True)
class BossRecord:
    """A bot's rated meetings with its game's boss: has it finished above the boss more often than not?"""

    boss_id: int
    boss_name: str
    meetings: int
    above: int
    below: int
    ties: int

    @property
    def beaten(self) -> bool:
        return 2 * self.above > self.meetings


def boss_record(*, session: Session, bot: Bot) -> BossRecord | None:
    """None for the boss itself, a game without one, or a boss the ladder has not seeded."""
    boss = boss_bot(session=session, game=bot.game)
    if boss is None or boss.id == bot.id:
        return None
    pair = session.get(HeadToHead, (bot.id, boss.id))
    if pair is None:
        return BossRecord(boss.id, boss.name, 0, 0, 0, 0)
    return BossRecord(boss.id, boss.name, pair.meetings, pair.wins, pair.losses, pair.ties)
