"""Bots played from outside the sandbox: a program on its owner's machine (docs/remote.md).

A remote bot is a `Bot` with `remote` set and one placeholder version (no code, always active), so
seats, results and ratings work as for any bot; the worker plays its seat over the relay
(workers/match/outside_seat.py, found by the job through `remote_seats`). It never plays on the
sandboxed ladder. It plays challenges its owner asks for, and, once its owner opts it in, the
open ladder: rated matches among remote bots only, with their own leaderboard.

Who may connect to which seat, and how many at once, is decided here; the web tier
(ladder/web/seats.py) only carries lines.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError
from sqlmodel import Session, select

from ladder.games import OptionError, get_game
from ladder.models import Bot, BotCreate, BotVersion, Match, MatchStatus, Seat, User, VersionStatus
from ladder.services.common import atomic
from ladder.services.errors import Invalid, NotFound
from ladder.services.matches import queue_challenge

REMOTE_FILENAME = "remote"  # the placeholder version's name: nothing to unpack


@dataclass(frozen=True, slots=True)
class RemoteBot:
    bot: Bot
    version: BotVersion


def remote_bot(*, session: Session, user_id: int, game: str, name: str, open_ladder: bool | None = None) -> RemoteBot:
    """The user's remote bot `name` for `game`, created on first use. A sandboxed bot of that name
    is refused (its uploads stay what they are). `open_ladder` given: opt in or out."""
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
                   BotVersion.status == VersionStatus.ACTIVE, Bot.retired == False)  # noqa: E712
        ).first()
        if row is None:
            raise NotFound(f"no active {game} bot {str(full)[:80]!r} (write it owner/name)")
        if row[1]:
            raise Invalid(f"{full!r} is a remote bot: challenges seat sandboxed opponents")
        versions.append(row[0])
    return versions


def remote_challenge(*, session: Session, user_id: int, game: str, bot_name: str, against: Sequence[str],
                     options: Mapping[str, object] | None = None, seed: int | None = None,
                     sandbox: str = "strict") -> tuple[Match, int]:
    """Queue an unranked challenge with the user's remote bot in seat 0: (match, seat)."""
    mine = remote_bot(session=session, user_id=user_id, game=game, name=bot_name)
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


class SeatSlots:
    """The live connections of one web process: at most `per_user` and `per_address` at once, and
    one per seat (a new connection to a seat replaces the old one, which is told so). Counted in
    memory: a hostile client cannot open more than these on one process, whatever it sends."""

    def __init__(self, per_user: int, per_address: int):
        self.per_user, self.per_address = per_user, per_address
        self.lock = threading.Lock()
        self.by_seat: dict[tuple[int, int], object] = {}
        self.users: dict[int, int] = {}
        self.addresses: dict[str, int] = {}

    def refusal(self, user_id: int, address: str) -> str | None:
        """Why a new connection would be refused now (checked before the handshake)."""
        with self.lock:
            return self._refusal(user_id, address)

    def _refusal(self, user_id: int, address: str) -> str | None:
        if self.users.get(user_id, 0) >= self.per_user:
            return f"you have {self.per_user} programs connected, the most allowed at once"
        if self.addresses.get(address, 0) >= self.per_address:
            return f"{self.per_address} programs are connected from your address, the most allowed at once"
        return None

    def take(self, key: tuple[int, int], user_id: int, address: str, conn: object) -> tuple[str | None, object]:
        """Hold a place for `conn` on seat `key`: (refusal, replaced connection or None)."""
        with self.lock:
            old = self.by_seat.get(key)
            if old is None:
                why = self._refusal(user_id, address)
                if why is not None:
                    return why, None
            else:  # the old connection's place passes to the new one
                self._count(old.user_id, old.address, -1)  # type: ignore[attr-defined]
            self.by_seat[key] = conn
            self._count(user_id, address, +1)
            return None, old

    def give_back(self, key: tuple[int, int], conn: object) -> bool:
        """Release `conn`'s place; False when it had been replaced already."""
        with self.lock:
            if self.by_seat.get(key) is not conn:
                return False
            del self.by_seat[key]
            self._count(conn.user_id, conn.address, -1)  # type: ignore[attr-defined]
            return True

    def _count(self, user_id: int, address: str, step: int) -> None:
        for table, key in ((self.users, user_id), (self.addresses, address)):
            table[key] = table.get(key, 0) + step
            if table[key] <= 0:
                del table[key]
