"""Leagues over the database (issue #46): which league each bot plays in, the tables the scheduler
makes within leagues, the meetings with a league's boss recorded with a match's result, the
promotions, and what the pages and the API show. The rules are ladder/ranking/leagues.py (pure).

A house bot's league is the one its game declares; a contestant's is its LeagueMember row (none:
the first league). Ratings stay one Elo list per game across leagues: a league is where a bot
plays and what it must beat to move on, not a second rating.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_
from sqlmodel import Session, select

from ladder.games import OptionError, get_game
from ladder.models import Bot, BotVersion, LeagueMember, LeagueMove, Match, Rating, User, utcnow
from ladder.ranking.leagues import League, league_ladder, meeting, meetings_needed, promoted, recorded, weighed
from ladder.ranking.matchmaking import Candidate, Table, TableSize, make_tables, owner_key
from ladder.ranking.ratings import ranks_with_forfeits


def leagues_of(game: str, names: Sequence[str]) -> tuple[League, ...]:
    """A game's leagues under the operator's names; () for a game without leagues."""
    return league_ladder(_declared(game), names)


def _declared(game: str) -> tuple[tuple[str, ...], ...]:
    """The game's leagues' house bots; () for a game without leagues or no longer registered."""
    try:
        return get_game(game).leagues
    except OptionError:
        return ()


def house_league(game: str, builtin: str | None) -> int | None:
    """The league a house bot plays in (None: a house bot no league declares)."""
    for index, bots in enumerate(_declared(game)):
        if builtin in bots:
            return index
    return None


# --- the scheduler's tables -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """One candidate version: its bot, and the league it plays in."""

    bot_id: int
    league: int
    house: bool
    builtin: str | None


def place(*, session: Session, game: str, version_ids: Collection[int]) -> dict[int, Placed]:
    """The league of each candidate version's bot (versions of bots not found are left out)."""
    if not version_ids:
        return {}
    rows = session.exec(
        select(BotVersion.id, Bot.id, Bot.builtin, User.is_system, LeagueMember.league)
        .join(Bot, Bot.id == BotVersion.bot_id).join(User, User.id == Bot.owner_id)
        .outerjoin(LeagueMember, LeagueMember.bot_id == Bot.id)
        .where(BotVersion.id.in_(sorted(version_ids)))
    ).all()
    out = {}
    for vid, bot_id, builtin, system, member in rows:
        declared = house_league(game, builtin) if system else None
        house = declared is not None
        league = declared if house else (member or 0)
        out[vid] = Placed(bot_id, league, house, builtin if system else None)
    return out


def league_tables(
    *, session: Session, game: str, candidates: Sequence[Candidate], sizes: TableSize, rng: random.Random,
    now: float, count: int, exclude: Collection[Hashable], house_owner: Hashable | None,
) -> list[tuple[Table, int | None]]:
    """Up to `count` tables for one scheduler tick, each made within one league, with its league.

    - A league's boss sits at each of its tables (a house bot is code, not a contestant with a
      queue: it may play several tables at once), so every league game is a meeting with the boss.
    - Only leagues with a contestant (a bot that is not the house's) play: the house bots' games
      among themselves would be work for nobody, except on a ladder with no contestant at all,
      where the house bots play one flat ladder (a fresh ladder shows games; league None).
    - A league with fewer bots than a full table borrows the nearest leagues' (the one below
      first), who fill seats but never seed a table: a lone Legend bot still plays.
    - The leagues take turns, from a random one, so none starves the others of the tick's tables.
    """
    leagues = _declared(game)
    placed = place(session=session, game=game, version_ids=[c.bot for c in candidates])
    candidates = [c for c in candidates if c.bot in placed]
    contested = sorted({placed[c.bot].league for c in candidates if not placed[c.bot].house})
    if not leagues or not contested:
        return [(t, None) for t in make_tables(candidates, sizes, rng, now, count, exclude=exclude,
                                               house_owner=house_owner)]
    by_league: dict[int, list[Candidate]] = {}
    for c in candidates:
        by_league.setdefault(placed[c.bot].league, []).append(c)
    booked = set(exclude)
    tables: list[tuple[Table, int | None]] = []
    active = _rotated(contested, rng)
    while active and len(tables) < count:
        for league in list(active):
            if len(tables) >= count:
                break
            table = _league_table(league, leagues, by_league, placed, sizes, rng, now, booked, house_owner)
            if table is None:
                active.remove(league)
                continue
            tables.append((table, league))
            host = _boss(league, leagues, by_league, placed)
            booked.update(b for b in table.bots if host is None or b != host.bot)
    return tables


def _rotated(items: list[int], rng: random.Random) -> list[int]:
    start = rng.randrange(len(items))
    return items[start:] + items[:start]


def _boss(league: int, leagues: Sequence[Sequence[str]], by_league: dict[int, list[Candidate]],
          placed: dict[int, Placed]) -> Candidate | None:
    bots = leagues[league] if league < len(leagues) else ()
    if not bots:
        return None
    return next((c for c in by_league.get(league, ()) if placed[c.bot].house and placed[c.bot].builtin == bots[0]),
                None)


def _league_table(league: int, leagues: Sequence[Sequence[str]], by_league: dict[int, list[Candidate]],
                  placed: dict[int, Placed], sizes: TableSize, rng: random.Random, now: float,
                  booked: set[Hashable], house_owner: Hashable | None) -> Table | None:
    members = by_league.get(league, [])
    host = _boss(league, leagues, by_league, placed)
    pool = list(members)
    # borrow from the nearest leagues, below first, while the league cannot fill a table of its size
    for distance in range(1, len(leagues)):
        if _keys(pool, house_owner, booked) >= sizes.default:
            break
        for other in (league - distance, league + distance):
            pool.extend(by_league.get(other, ()))
    seeds = {c.bot for c in members if not (placed[c.bot].house and c is host)}
    made = make_tables(pool, sizes, rng, now, 1, exclude=booked, house_owner=house_owner, host=host, seeds=seeds)
    return made[0] if made else None


def _keys(pool: Sequence[Candidate], house_owner: Hashable | None, booked: Collection[Hashable]) -> int:
    """How many seats the pool's free bots can fill at one table (one per owner; house bots each)."""
    return len({owner_key(c, house_owner) for c in pool if c.bot not in booked})


# --- a result's meetings with the boss -------------------------------------------------------


def record_meetings(session: Session, match: Match, seats: Sequence, now: datetime) -> list[LeagueMove]:
    """A rated league table's meetings with its boss, inside the result's transaction (which holds
    the rating clock, so no two results update one bot's record at once). Each contestant of the
    table's league adds the meeting to its record, and is promoted when the rule says so.
    `seats` carry bot_id, rank and forfeited (services.results.PlayedSeat)."""
    leagues = _declared(match.game)
    if match.league is None or not 0 <= match.league < len(leagues) or not leagues[match.league]:
        return []
    boss_name = leagues[match.league][0]
    bot_ids = [s.bot_id for s in seats]
    rows = {bot_id: (builtin, system) for bot_id, builtin, system in session.exec(
        select(Bot.id, Bot.builtin, User.is_system).join(User, User.id == Bot.owner_id).where(Bot.id.in_(bot_ids)))}
    ranks = ranks_with_forfeits([s.rank for s in seats], [s.forfeited for s in seats])
    boss_rank = next((rank for s, rank in zip(seats, ranks, strict=True)
                      if rows[s.bot_id][1] and rows[s.bot_id][0] == boss_name), None)
    if boss_rank is None:  # the boss was not at this table (disabled, say): nothing to count
        return []
    contestants = [(s.bot_id, rank) for s, rank in zip(seats, ranks, strict=True)
                   if not (rows[s.bot_id][1] and house_league(match.game, rows[s.bot_id][0]) is not None)]
    members = {m.bot_id: m for m in session.exec(
        select(LeagueMember).where(LeagueMember.bot_id.in_([b for b, _ in contestants])).with_for_update())}
    moves = []
    for bot_id, rank in contestants:
        member = members.get(bot_id)
        if member is None:
            member = LeagueMember(bot_id=bot_id, game=match.game, league=0, entered_at=now)
            session.add(member)
        if member.league != match.league:  # borrowed into another league's table: not its meeting
            continue
        outcome = meeting(rank, boss_rank)
        member.record = recorded(member.record, outcome)
        member.evidence = weighed(member.evidence, outcome)
        if promoted(member.evidence) and member.league + 1 < len(leagues):
            move = LeagueMove(bot_id=bot_id, game=match.game, from_league=member.league,
                              to_league=member.league + 1, at=now, match_id=match.id, record=member.record)
            session.add(move)
            moves.append(move)
            member.league, member.record, member.evidence, member.entered_at = member.league + 1, "", 0.0, now
    session.flush()
    return moves


# --- what the pages and the API show ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Progress:
    """A contestant against its league's boss."""

    record: str  # the newest meetings, oldest first (ladder.ranking.leagues ABOVE/BELOW/TIE)
    evidence: float  # the promotion test's, since it last started
    needed: int  # meetings above the boss in a row that would promote it now

    @property
    def meetings(self) -> int:
        return len(self.record)

    @property
    def above(self) -> int:
        return self.record.count("A")

    @property
    def below(self) -> int:
        return self.record.count("B")

    @property
    def ties(self) -> int:
        return self.record.count("T")


@dataclass(frozen=True, slots=True)
class BotLeague:
    """A bot's place among its game's leagues (the bot page's panel, the API's `league`)."""

    league: League
    next: League | None  # None: the top league
    boss_id: int | None  # the house's copy of this league's boss (None: open league, or not seeded)
    house: bool  # a house bot: its league is declared, it is never promoted
    progress: Progress | None  # None for a house bot and in the open league
    entered_at: datetime | None
    moves: tuple[LeagueMove, ...]


def _boss_ids(session: Session, game: str, leagues: Sequence[League]) -> dict[int, int]:
    names = {lg.boss: lg.index for lg in leagues if lg.boss}
    rows = session.exec(
        select(Bot.id, Bot.builtin).join(User, User.id == Bot.owner_id)
        .where(Bot.game == game, Bot.builtin.in_(list(names)), User.is_system == True)  # noqa: E712
        .order_by(Bot.id)
    ).all()
    out: dict[int, int] = {}
    for bot_id, builtin in rows:
        out.setdefault(names[builtin], bot_id)
    return out


def bot_league(*, session: Session, bot: Bot, names: Sequence[str]) -> BotLeague | None:
    """None for a game without leagues, a remote bot (the open ladder has none) and a house bot
    no league declares."""
    leagues = leagues_of(bot.game, names)
    if not leagues or bot.remote:
        return None
    owner = session.get(User, bot.owner_id)
    house_index = house_league(bot.game, bot.builtin) if owner is not None and owner.is_system else None
    member = None if house_index is not None else session.get(LeagueMember, bot.id)
    index = house_index if house_index is not None else (member.league if member else 0)
    league = leagues[index]
    moves = tuple(session.exec(select(LeagueMove).where(LeagueMove.bot_id == bot.id).order_by(LeagueMove.id)))
    progress = None
    if house_index is None and not league.open:
        record, evidence = (member.record, member.evidence) if member else ("", 0.0)
        progress = Progress(record, evidence, meetings_needed(evidence))
    return BotLeague(league, leagues[index + 1] if index + 1 < len(leagues) else None,
                     _boss_ids(session, bot.game, leagues).get(index), house_index is not None, progress,
                     member.entered_at if member else None, moves)


@dataclass(frozen=True, slots=True)
class Member:
    bot_id: int
    name: str
    owner: str
    rating: int | None
    games: int
    house: bool
    boss: bool
    progress: Progress | None


@dataclass(frozen=True, slots=True)
class LeagueStanding:
    league: League
    boss_id: int | None
    members: tuple[Member, ...]  # by rating, best first: the first `limit`
    total: int  # members in all


def standings(*, session: Session, game: str, names: Sequence[str], limit: int = 50) -> list[LeagueStanding]:
    """Each league's members by rating (house bots included), the first `limit` of each."""
    leagues = leagues_of(game, names)
    if not leagues:
        return []
    bosses = _boss_ids(session, game, leagues)
    base = (select(Bot.id, Bot.name, User.username, Rating.rating, Rating.games, Bot.builtin, User.is_system,
                   LeagueMember.league, LeagueMember.record, LeagueMember.evidence)
            .join(User, User.id == Bot.owner_id).outerjoin(Rating, Rating.bot_id == Bot.id)
            .outerjoin(LeagueMember, LeagueMember.bot_id == Bot.id)
            .where(Bot.game == game, Bot.retired == False, Bot.remote == False,  # noqa: E712
                   Bot.disabled == False,  # noqa: E712
                   or_(User.suspended == False, User.suspended_until <= utcnow())))  # noqa: E712
    out = []
    for lg in leagues:
        house = list(lg.house)
        in_league = or_(
            (User.is_system == True) & Bot.builtin.in_(house),  # noqa: E712
            (User.is_system == False) & (func.coalesce(LeagueMember.league, 0) == lg.index),  # noqa: E712
        )
        total = session.exec(select(func.count()).select_from(base.where(in_league).subquery())).one()
        rows = session.exec(base.where(in_league).order_by(Rating.rating.desc().nulls_last(), Bot.id).limit(limit))
        members = []
        for bot_id, name, owner, rating, games, builtin, system, _, record, evidence in rows:
            is_house = bool(system) and builtin in lg.house
            progress = None if is_house or lg.open else Progress(record or "", evidence or 0.0,
                                                                 meetings_needed(evidence or 0.0))
            members.append(Member(bot_id, name, owner, rating, games or 0, is_house,
                                  is_house and builtin == lg.boss, progress))
        out.append(LeagueStanding(lg, bosses.get(lg.index), tuple(members), total))
    return out


def recent_moves(*, session: Session, game: str, limit: int = 20) -> list[tuple[LeagueMove, str]]:
    """The newest promotions with the bot's name."""
    return list(session.exec(
        select(LeagueMove, Bot.name).join(Bot, Bot.id == LeagueMove.bot_id)
        .where(LeagueMove.game == game).order_by(LeagueMove.id.desc()).limit(limit)
    ))
