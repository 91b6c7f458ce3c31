"""The open ladder's lobby and matchmaking (docs/remote.md, "The open ladder").

A remote bot (ladder/services/outside.py) its owner opted in waits in the lobby while its client
keeps saying so (`wait`, a heartbeat at least every EXPIRY_S); the state is rows of `lobby`, so
every web process and the scheduler see the same lobby. A scheduler tick (`pair`, run by the
worker's beat like the sandboxed ladder's tables: workers/queue/lobby.py) first settles the
matches it made before, then pairs the waiting bots of a game into rated matches with the
sandboxed ladder's matchmaking (ladder.ranking.matchmaking.make_tables over `matchmaking_pool(remote=True)`:
Elo-near tables, never two bots of one owner at a table), queued through the normal match path, so
a worker plays them with every seat an OutsideSeat. The next `wait` tells each client its match and
seat; it connects as for a challenge.

A client that is paired and never connects is a no-show: the seat's clock hands it to the fallback
(workers/match/seats/outside.py, a `startup` fault within its start-up allowance), and settling
counts it; after MAX_NO_SHOWS in a row the bot leaves the lobby for BENCH_S.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import Session, select

from ladder.games import get_game
from ladder.models import Bot, BotVersion, LobbyEntry, Match, MatchKind, MatchStatus, VersionStatus, utcnow
from ladder.ranking.matchmaking import TableSize, make_tables
from ladder.services.common import atomic, unit_of_work
from ladder.services.errors import Conflict, Invalid, NotFound, ServiceError
from ladder.services.limits import LimitExceeded
from ladder.services.matches import matchmaking_pool, queue_match

EXPIRY_S = 30  # a waiting client not heard from this long has gone: it is not paired
MAX_NO_SHOWS = 3  # paired this many times in a row without connecting: out of the lobby
BENCH_S = 600  # for this long


@dataclass(frozen=True, slots=True)
class LobbyState:
    """What a waiting client is told."""

    bot_id: int
    status: str  # "waiting" or "matched"
    match_id: int | None = None
    seat: int | None = None
    no_shows: int = 0

    def as_json(self) -> dict:
        return {"bot": self.bot_id, "status": self.status, "match": self.match_id, "seat": self.seat,
                "no_shows": self.no_shows}


def _own_remote_bot(session: Session, user_id: int, bot_id: int) -> Bot:
    """The user's bot, or NotFound (one answer for "no such bot" and "not yours")."""
    bot = session.get(Bot, bot_id)
    if bot is None or bot.owner_id != user_id:
        raise NotFound(f"you have no bot {bot_id}")
    return bot


def set_open(*, session: Session, user_id: int, bot_id: int, open_ladder: bool) -> Bot:
    """Opt the user's remote bot in or out of the open ladder. Out also leaves the lobby."""
    if type(open_ladder) is not bool:
        raise Invalid('"open" is true or false')
    with atomic(session):
        bot = _own_remote_bot(session, user_id, bot_id)
        if not bot.remote:
            raise Invalid(f"{bot.name!r} is a sandboxed bot: only a bot played from home joins the open ladder")
        if bot.retired:
            raise Invalid(f"{bot.name!r} is retired")
        bot.open_ladder = open_ladder
        session.add(bot)
        if not open_ladder:
            session.exec(update(LobbyEntry).where(LobbyEntry.bot_id == bot.id).values(waiting=False)
                         .execution_options(synchronize_session=False))
    session.refresh(bot)
    return bot


def wait(*, session: Session, user_id: int, bot_id: int, address: str, per_user: int, per_address: int,
         now: datetime | None = None) -> LobbyState:
    """The client of the user's opted-in remote bot says it waits (or still waits: a heartbeat).
    Matched: its match and seat, again on every call until the match is over; from then on it
    waits (the next tick settles the entry and may pair it again)."""
    now = now or utcnow()
    with atomic(session):
        bot = _own_remote_bot(session, user_id, bot_id)
        if not bot.remote:
            raise Invalid(f"{bot.name!r} is a sandboxed bot: it plays the sandboxed ladder, not the open one")
        if bot.retired:
            raise Invalid(f"{bot.name!r} is retired")
        if not bot.open_ladder:
            raise Conflict(f"{bot.name!r} is not on the open ladder: opt it in first")
        entry = session.get(LobbyEntry, bot.id)
        if entry is not None and entry.benched_until is not None and entry.benched_until > now:
            left = int((entry.benched_until - now).total_seconds()) + 1
            raise LimitExceeded(f"{bot.name!r} missed its last {entry.no_shows} matches: it may wait again in "
                                f"{left} s", left)
        fresh = now - timedelta(seconds=EXPIRY_S)
        if entry is None or not entry.waiting or entry.seen_at < fresh:  # a new wait: within the limits
            others = select(func.count()).select_from(LobbyEntry).where(
                LobbyEntry.waiting == True, LobbyEntry.seen_at >= fresh, LobbyEntry.bot_id != bot.id)  # noqa: E712
            if session.exec(others.where(LobbyEntry.user_id == user_id)).one() >= per_user:
                raise LimitExceeded(f"you have {per_user} bots in the lobby, the most allowed at once", EXPIRY_S)
            if session.exec(others.where(LobbyEntry.address == address)).one() >= per_address:
                raise LimitExceeded(f"{per_address} bots wait from your address, the most allowed at once",
                                    EXPIRY_S)
        if entry is None:
            entry = LobbyEntry(bot_id=bot.id, user_id=user_id, game=bot.game, address=address)
        entry.waiting, entry.seen_at, entry.address = True, now, address
        session.add(entry)
        state = _state(session, entry)
    return state


OVER = (MatchStatus.FINISHED, MatchStatus.FAILED)


def _state(session: Session, entry: LobbyEntry) -> LobbyState:
    # a match that is over but not settled yet (settling waits for the scheduler's next tick) is
    # not news: told "matched" again, a client played it once and reported it once per ask
    if entry.match_id is not None and session.get(Match, entry.match_id).status not in OVER:
        return LobbyState(entry.bot_id, "matched", entry.match_id, entry.seat, entry.no_shows)
    return LobbyState(entry.bot_id, "waiting", no_shows=entry.no_shows)


def leave(*, session: Session, user_id: int, bot_id: int) -> None:
    """The client stops waiting (a match already made for it is still played)."""
    with atomic(session):
        bot = _own_remote_bot(session, user_id, bot_id)
        session.exec(update(LobbyEntry).where(LobbyEntry.bot_id == bot.id).values(waiting=False)
                     .execution_options(synchronize_session=False))


def entry_of(*, session: Session, bot_id: int) -> LobbyEntry | None:
    return session.get(LobbyEntry, bot_id)


# --- the scheduler's side ----------------------------------------------------------------------------


Showed = Callable[[int, int], bool]  # (match id, seat) -> did a program ever connect to it


def settle(*, session: Session, game: str, showed: Showed, now: datetime | None = None) -> list[int]:
    """Entries whose match is over go back to waiting; a seat never connected to counts a no-show
    (MAX_NO_SHOWS in a row: the bot leaves the lobby for BENCH_S), one connected to clears them.
    The bot ids that no-showed."""
    now = now or utcnow()
    rows = session.exec(
        select(LobbyEntry, Match.status).join(Match, Match.id == LobbyEntry.match_id)
        .where(LobbyEntry.game == game, Match.status.in_(OVER))
    ).all()
    session.commit()
    missed = []
    for entry, status in rows:
        # a failed match (ours) proves nothing about the client: it is neither a show nor a no-show
        came = None if status == MatchStatus.FAILED else showed(entry.match_id, entry.seat)
        with atomic(session):
            if came is False:
                entry.no_shows += 1
                missed.append(entry.bot_id)
                if entry.no_shows >= MAX_NO_SHOWS:
                    entry.waiting, entry.benched_until = False, now + timedelta(seconds=BENCH_S)
            elif came:
                entry.no_shows = 0
            entry.match_id = entry.seat = None
            session.add(entry)
    return missed


def waiting_bots(*, session: Session, game: str, now: datetime | None = None) -> set[int]:
    """Bot ids that wait now: opted in, heard from within EXPIRY_S, no match of theirs open."""
    now = now or utcnow()
    return set(session.exec(
        select(LobbyEntry.bot_id).join(Bot, Bot.id == LobbyEntry.bot_id)
        .where(LobbyEntry.game == game, LobbyEntry.waiting == True, LobbyEntry.match_id == None,  # noqa: E711,E712
               LobbyEntry.seen_at >= now - timedelta(seconds=EXPIRY_S),
               Bot.remote == True, Bot.open_ladder == True, Bot.retired == False,  # noqa: E712
               Bot.disabled == False)  # noqa: E712
    ).all())


def pair(*, session: Session, game: str, rng: random.Random, sandbox: str, showed: Showed,
         now: datetime | None = None) -> list[int]:
    """One tick for `game`: settle, then queue rated open-ladder matches among the waiting bots
    (as many tables as they fill) and tell each entry its match and seat. The new match ids."""
    now = now or utcnow()
    settle(session=session, game=game, showed=showed, now=now)
    waiting = waiting_bots(session=session, game=game, now=now)
    if not waiting:
        return []
    pool = matchmaking_pool(session=session, game=game, remote=True)
    bot_of = dict(session.exec(select(BotVersion.id, BotVersion.bot_id)
                               .where(BotVersion.bot_id.in_(sorted(waiting)),
                                      BotVersion.status == VersionStatus.ACTIVE)).all())
    session.commit()
    candidates = [c for c in pool.candidates if c.bot in bot_of]
    sizes = TableSize.of(get_game(game))
    tables = make_tables(candidates, sizes, rng, now.timestamp(), max(1, len(candidates) // sizes.minimum),
                         exclude=pool.busy)
    made = []
    for table in tables:
        try:
            made.append(_queue(session, game, [bot_of[c.bot] for c in table.seats], table, sandbox))
        except ServiceError:  # a bot retired or left between the pool and the table: the rest go on
            session.rollback()
    return made


def _queue(session: Session, game: str, bots: Sequence[int], table, sandbox: str) -> int:
    """The match and the entries' seats in one transaction: a client never hears of a match that
    was not queued, and a match is never queued for a client that left meanwhile."""
    with unit_of_work(session):
        match = queue_match(session=session, game=game, seats=table, kind=MatchKind.LADDER, sandbox=sandbox)
        for seat, bot_id in enumerate(bots):
            taken = session.exec(
                update(LobbyEntry).where(LobbyEntry.bot_id == bot_id, LobbyEntry.waiting == True,  # noqa: E712
                                         LobbyEntry.match_id == None)  # noqa: E711
                .values(match_id=match.id, seat=seat).execution_options(synchronize_session=False)
            ).rowcount
            if taken != 1:
                raise Conflict(f"bot {bot_id} left the lobby")
    return match.id


def lobby_counts(*, session: Session, now: datetime | None = None) -> dict[str, int]:
    """How many bots wait now, per game (the open ladder's page shows it)."""
    now = now or utcnow()
    return dict(session.exec(
        select(LobbyEntry.game, func.count()).where(
            LobbyEntry.waiting == True, LobbyEntry.seen_at >= now - timedelta(seconds=EXPIRY_S))  # noqa: E712
        .group_by(LobbyEntry.game)
    ).all())
