"""Who played and how they placed, for every list of matches (home page, match list, bot page), and
the API's filtered list of matches.

One query per list, whatever its length: the seats of all listed matches with their bots' names.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, or_
from sqlmodel import Session, select

from ladder.models import Bot, Match, PersonSeat, Seat, User


def in_person(username: str) -> str:
    """A person's seat, by the name the replay and its viewer give it (services/match_plan.py): the
    seat's bot is the house's stand-in "person", which is not who played."""
    return f"{username} (in person)"


@dataclass(frozen=True, slots=True)
class ListedSeat:
    seat: int
    bot_id: int
    bot_name: str
    rank: int | None  # None until the match is finished

    @property
    def won(self) -> bool:
        return self.rank == 1


def standing_order(seat: ListedSeat) -> tuple[bool, int, int]:
    """Rank order once ranked (ties by seat); seat order before."""
    return seat.rank is None, seat.rank or 0, seat.seat


def seats_by_match(*, session: Session, match_ids: list[int]) -> dict[int, list[ListedSeat]]:
    """Per match id, its seats in rank order (seat order while it has no ranks)."""
    if not match_ids:
        return {}
    out: dict[int, list[ListedSeat]] = {}
    rows = session.exec(
        select(Seat.match_id, Seat.seat, Seat.bot_id, Bot.name, Seat.rank, User.username)
        .join(Bot, Bot.id == Seat.bot_id)
        .outerjoin(PersonSeat, and_(PersonSeat.match_id == Seat.match_id, PersonSeat.seat == Seat.seat))
        .outerjoin(User, User.id == PersonSeat.user_id)
        .where(Seat.match_id.in_(match_ids))
    )
    for match_id, seat, bot_id, name, rank, person in rows:
        out.setdefault(match_id, []).append(ListedSeat(seat, bot_id, in_person(person) if person else name, rank))
    for seats in out.values():
        seats.sort(key=standing_order)
    return out


@dataclass(frozen=True, slots=True)
class MatchFilter:
    """Which matches a list shows; every field optional (None: any)."""

    game: str | None = None
    bot_id: int | None = None  # a seat played by this bot
    owner_id: int | None = None  # a seat played by one of this user's bots, or by the user in person
    status: str | None = None
    since: datetime | None = None  # created at or after
    until: datetime | None = None  # created before
    before: int | None = None  # ids below this one: the next page of a newest-first list


def list_matches(*, session: Session, where: MatchFilter, limit: int) -> list[Match]:
    """The newest matches that pass `where`, newest first, at most `limit`; page on with
    `before` = the smallest id returned."""
    query = select(Match).order_by(Match.id.desc()).limit(limit)
    if where.game is not None:
        query = query.where(Match.game == where.game)
    if where.status is not None:
        query = query.where(Match.status == where.status)
    if where.before is not None:
        query = query.where(Match.id < where.before)
    if where.since is not None:
        query = query.where(Match.created_at >= where.since)
    if where.until is not None:
        query = query.where(Match.created_at < where.until)
    if where.bot_id is not None:
        query = query.where(Match.id.in_(select(Seat.match_id).where(Seat.bot_id == where.bot_id)))
    if where.owner_id is not None:
        query = query.where(or_(
            Match.id.in_(select(Seat.match_id).join(Bot, Bot.id == Seat.bot_id).where(Bot.owner_id == where.owner_id)),
            Match.id.in_(select(PersonSeat.match_id).where(PersonSeat.user_id == where.owner_id))))
    return list(session.exec(query))


def recent_matches(*, session: Session, game: str | None = None, limit: int = 50, before: int | None = None) -> list[
        Match]:
    """The newest matches (of `game`), newest first; `before` pages by id (the primary key index)."""
    query = select(Match).order_by(Match.id.desc()).limit(limit)
    if game is not None:
        query = query.where(Match.game == game)
    if before is not None:
        query = query.where(Match.id < before)
    return list(session.exec(query))


def matches_by_id(*, session: Session, match_ids: list[int]) -> dict[int, Match]:
    """The matches of these ids (a bot page's validation games), by id; one query."""
    return {m.id: m for m in session.exec(select(Match).where(Match.id.in_(match_ids)))} if match_ids else {}
