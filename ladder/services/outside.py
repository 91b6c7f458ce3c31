"""Bots played from outside the sandbox: a program on its owner's machine (docs/remote.md).

A remote bot is a `Bot` with `remote` set and one placeholder version (no code, always active), so
seats, results and ratings work as for any bot; the worker plays its seat over the relay
(workers/match/seats/outside.py, found by the job through `remote_seats`). It never plays on the
sandboxed ladder. It plays challenges its owner asks for, and, once its owner opts it in, the
open ladder: rated matches among remote bots only, with their own leaderboard.

Who may connect to which seat is decided here, how many at once in ladder/services/seat_slots.py
(shared by every web process); the web tier (ladder/web/api/seat_socket.py) only carries lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError
from sqlmodel import Session, select

from ladder.config import Settings
from ladder.games import OptionError, get_game
from ladder.models import Bot, BotCreate, BotVersion, Match, MatchStatus, Seat, User, VersionStatus
from ladder.services.common import atomic
from ladder.services.errors import Invalid, NotFound
from ladder.services.limits import check_upload
from ladder.services.matches import queue_challenge

REMOTE_FILENAME = "remote"  # the placeholder version's name: nothing to unpack


@dataclass(frozen=True, slots=True)
class RemoteBot:
    bot: Bot
    version: BotVersion


def remote_bot(*, session: Session, user_id: int, game: str, name: str, open_ladder: bool | None = None,
               settings: Settings | None = None) -> RemoteBot:
    """The user's remote bot `name` for `game`, created on first use. A sandboxed bot of that name
    is refused (its uploads stay what they are). `open_ladder` given: opt in or out. With
    `settings` (every request does), a creation counts against the daily limit of uploads: its
    placeholder version is one, as a sandboxed bot's first upload is (LimitExceeded past it)."""
    try:
        get_game(game)
    except (KeyError, OptionError):
        raise Invalid(f"unknown game {game[:40]!r}") from None
    try:
        BotCreate(name=name, game=game)
    except ValidationError:
        raise Invalid("a bot name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit") \
            from None
    with atomic(session, conflict=f"you already have a bot named {name!r}"):
        bot = session.exec(select(Bot).where(Bot.owner_id == user_id, Bot.game == game, Bot.name == name)).first()
        if bot is not None and not bot.remote:
            raise Invalid(f"{name!r} is one of your sandboxed bots: give the remote one another name")
        if bot is not None and bot.retired:
            raise Invalid(f"{name!r} is retired")
        if bot is None:
            if settings is not None:
                check_upload(session=session, settings=settings, user_id=user_id)
            bot = Bot(name=name, game=game, owner_id=user_id, remote=True,
                      description="Played from its owner's machine (docs/remote.md).")
            session.add(bot)
            session.flush()
            session.add(BotVersion(bot_id=bot.id, number=1, filename=REMOTE_FILENAME, code=b"",
                                   sha256=hashlib.sha256(b"").hexdigest(), size=0, status=VersionStatus.ACTIVE))
        if open_ladder is not None and bot.open_ladder != open_ladder:
            bot.open_ladder = open_ladder
            session.add(bot)
        session.flush()
        version = session.exec(select(BotVersion).where(BotVersion.bot_id == bot.id)).one()
    return RemoteBot(bot, version)


def opponent_versions(*, session: Session, game: str, names: Sequence[str]) -> list[int]:
    """Active versions of sandboxed bots named `owner/name` (a starter bot: `house/careful`).
    A remote opponent is refused: nobody answers for its program being there."""
    if not names:
        raise Invalid("name at least one opponent, as owner/bot (a starter bot: house/careful)")
    versions = []
    for full in names:
        owner, _, name = str(full).partition("/")
        row = session.exec(
            select(BotVersion.id, Bot.remote).join(Bot, Bot.id == BotVersion.bot_id).join(User, User.id == Bot.owner_id)
            .where(User.username == owner.strip().lower(), Bot.name == name, Bot.game == game,
                   BotVersion.status == VersionStatus.ACTIVE, Bot.retired == False,  # noqa: E712
                   Bot.disabled == False)  # noqa: E712
        ).first()
        if row is None:
            raise NotFound(f"no active {game} bot {str(full)[:80]!r} (write it owner/name)")
        if row[1]:
            raise Invalid(f"{full!r} is a remote bot: challenges seat sandboxed opponents")
        versions.append(row[0])
    return versions


def remote_challenge(*, session: Session, user_id: int, game: str, bot_name: str, against: Sequence[str],
                     options: Mapping[str, object] | None = None, seed: int | None = None,
                     sandbox: str = "strict", settings: Settings | None = None) -> tuple[Match, int]:
    """Queue an unranked challenge with the user's remote bot in seat 0: (match, seat)."""
    mine = remote_bot(session=session, user_id=user_id, game=game, name=bot_name, settings=settings)
    opponents = opponent_versions(session=session, game=game, names=against)
    match = queue_challenge(session=session, user_id=user_id, version_ids=[mine.version.id, *opponents],
                            options=options, seed=seed, sandbox=sandbox)
    return match, 0


def remote_seats(*, session: Session, match_id: int) -> set[int]:
    """The seats of a match played from outside (the job hands the runner a relay for them)."""
    return set(session.exec(select(Seat.seat).join(Bot, Bot.id == Seat.bot_id)
                            .where(Seat.match_id == match_id, Bot.remote == True)).all())  # noqa: E712


@dataclass(frozen=True, slots=True)
class SeatAccess:
    match_id: int
    seat: int
    status: str  # the match's: a finished one still replays what is left of its topic


def seat_access(*, session: Session, user_id: int, match_id: int, seat: int) -> SeatAccess:
    """May `user_id` connect a program to this seat? NotFound unless it is their remote bot's (one
    answer for "no such seat" and "not yours": nobody learns which matches others play from home)."""
    row = session.exec(
        select(Match.status).join(Seat, Seat.match_id == Match.id).join(Bot, Bot.id == Seat.bot_id)
        .where(Match.id == match_id, Seat.seat == seat, Bot.owner_id == user_id, Bot.remote == True)  # noqa: E712
    ).first()
    if row is None:
        raise NotFound(f"you have no remote seat {seat} in match {match_id}")
    return SeatAccess(match_id, seat, row)


def in_play(status: str) -> bool:
    return status in (MatchStatus.QUEUED, MatchStatus.RUNNING)
