"""What the pages need that the services do not offer (yet): small bounded reads.

The upload use case is ladder/services/uploads.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlalchemy import func
from sqlmodel import Session, select

from ladder.games import available_games, get_game
from ladder.models import Bot, BotVersion, Match, Rating, User, VersionStatus
from ladder.services import bots as bot_service


@cache
def game_titles() -> dict[str, str]:
    return {name: get_game(name).title for name in sorted(available_games())}


def starter_kits() -> list[tuple[str, str, str]]:
    """Per game, (its title, its name, the starter bot it names as its reference): where an author
    starts, as a kit to download (a site user has no checkout of the repository to find files in)."""
    from bots import reference_bot

    out = []
    for name in sorted(available_games()):
        game = get_game(name)
        if reference_bot(name) in game.starter_bots:
            out.append((game.title, name, reference_bot(name)))
    return out


@dataclass(frozen=True)
class RuntimeChoice:
    name: str
    title: str
    entry: str
    version: str  # what this machine has, or why it cannot run it
    accepted: bool
    compiled: bool
    build: str | None  # the recipe, run in a copy of the upload inside the sandbox
    run: str


def runtime_choices(accepted: tuple[str, ...] | None) -> list[RuntimeChoice]:
    """The runtime table as the upload page shows it: which entry point picks which runtime, and
    whether this ladder runs it (its operator's list, and what the machine has)."""
    from ladder.bot import runtimes  # pure: reads dpkg's database, starts nothing

    out = []
    for r in runtimes.RUNTIMES:
        ok, detail = runtimes.available(r)
        allowed = accepted is None or r.name in accepted
        out.append(RuntimeChoice(r.name, r.title, r.entry, detail if ok else "not available here",
                                 ok and allowed, r.compiled, r.build, " ".join(r.run)))
    return out


def recent_matches(*, session: Session, game: str | None = None, limit: int = 50, before: int | None = None) -> list[
        Match]:
    """The newest matches (of `game`), newest first; `before` pages by id (the primary key index)."""
    query = select(Match).order_by(Match.id.desc()).limit(limit)
    if game is not None:
        query = query.where(Match.game == game)
    if before is not None:
        query = query.where(Match.id < before)
    return list(session.exec(query))


@dataclass(frozen=True)
class OwnedBot:
    bot: Bot
    rating: Rating | None
    active: BotVersion | None
    versions: int


def user_bots(*, session: Session, user_id: int) -> list[OwnedBot]:
    bots = bot_service.list_bots(session=session, owner_id=user_id)
    ids = [b.id for b in bots]
    ratings = {r.bot_id: r for r in session.exec(select(Rating).where(Rating.bot_id.in_(ids)))} if ids else {}
    counts = dict(session.exec(
        select(BotVersion.bot_id, func.count()).where(BotVersion.bot_id.in_(ids)).group_by(BotVersion.bot_id)
    ).all()) if ids else {}
    return [OwnedBot(b, ratings.get(b.id), bot_service.active_version(session=session, bot_id=b.id),
                     counts.get(b.id, 0)) for b in bots]


def challenge_candidates(*, session: Session, bot: Bot, limit: int = 200) -> list[tuple[int, str, str, int]]:
    """(active version id, bot name, owner name, rating) for the game's other active bots, best first."""
    query = (
        select(BotVersion.id, Bot.name, User.username, Rating.rating)
        .join(Bot, Bot.id == BotVersion.bot_id).join(User, User.id == Bot.owner_id)
        .outerjoin(Rating, Rating.bot_id == Bot.id)
        .where(BotVersion.status == VersionStatus.ACTIVE, Bot.game == bot.game, Bot.retired == False,  # noqa: E712
               Bot.id != bot.id)
        .order_by(Rating.rating.desc(), Bot.id).limit(limit)
    )
    return [(vid, name, owner, rating or 0) for vid, name, owner, rating in session.exec(query)]


def user_by_name(*, session: Session, username: str) -> User | None:
    username = username.strip().lower()
    if not 1 <= len(username) <= 32 or "\x00" in username:  # no such user; PostgreSQL refuses NUL in text
        return None
    return session.exec(select(User).where(User.username == username.strip().lower())).first()


def version_of(*, session: Session, version_id: int) -> BotVersion | None:
    return session.get(BotVersion, version_id)
