"""Read-only data for pages and the API: leaderboard, bot page, match page, replay and logs.

Each query reads a bounded number of rows through an index (ratings by game and rating; seats by
bot and match; rating changes by bot and sequence; head-to-head by bot and meetings), so a page
costs the same with a thousand matches stored or a million.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlalchemy.orm import aliased, defer
from sqlmodel import Session, select

from ladder.models import (
    Bot,
    BotLog,
    BotVersion,
    HeadToHead,
    Match,
    MatchStatus,
    PersonSeat,
    Rating,
    RatingChange,
    Replay,
    Seat,
    User,
)
from ladder.ranking.ratings import INITIAL_DEVIATION, half_width, is_provisional, is_uncertain
from ladder.services import replay_names
from ladder.services.boss import BossRecord, boss_bot, boss_name, boss_record
from ladder.services.common import fetch
from ladder.services.errors import Forbidden, Invalid, NotFound
from ladder.services.event_hold import HELD, is_held
from ladder.services.match_lists import ListedSeat, in_person, seats_by_match

MAX_PER_PAGE = 200


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    bot_id: int
    bot_name: str
    owner_id: int
    owner_name: str
    house: bool  # a starter bot: the fixed reference points
    rating: int  # milli-points
    games: int
    wins: int
    provisional: bool
    last_played_at: datetime | None
    boss: bool = False  # the game's strongest house bot (Game.boss): the one to climb past
    deviation: int = INITIAL_DEVIATION  # milli-points: how sure the rating is (ladder/ranking/ratings.py)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def half_width(self) -> int:  # the +- shown: the rating's 95% interval, milli-points
        return half_width(self.deviation)

    @property
    def uncertain(self) -> bool:  # shown with "?" (ladder/ranking/ratings.py is_uncertain)
        return is_uncertain(self.deviation)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    game: str
    rows: list[LeaderboardRow]
    page: int
    per_page: int
    total: int
    # The game's boss wherever it stands: each leaderboard names it, even on pages it is not on.
    boss: BossStanding | None = None

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


def leaderboard(*, session: Session, game: str, page: int = 1, per_page: int = 50,
                remote: bool = False) -> LeaderboardPage:
    """One page of a game's leaderboard: bots not retired, best rating first (ties: older bot first).
    `remote`: the open ladder's, of bots played from outside (ladder/services/outside.py), rated apart."""
    if page < 1 or not 1 <= per_page <= MAX_PER_PAGE:
        raise Invalid(f"page must be >= 1 and per_page in 1..{MAX_PER_PAGE}")
    where = (Rating.game == game, Bot.retired == False, Bot.remote == remote)  # noqa: E712
    counted = select(func.count()).select_from(Rating).join(Bot, Bot.id == Rating.bot_id)
    total = session.exec(counted.where(*where)).one()
    boss = boss_name(game)
    query = (
        select(Rating.bot_id, Bot.name, Bot.owner_id, User.username, User.is_system, Rating.rating, Rating.games,
               Rating.wins, Rating.last_played_at, Bot.builtin, Rating.deviation)
        .join(Bot, Bot.id == Rating.bot_id).join(User, User.id == Bot.owner_id)
        .where(*where).order_by(Rating.rating.desc(), Rating.bot_id)
        .offset((page - 1) * per_page).limit(per_page)
    )
    first = (page - 1) * per_page + 1
    rows = [
        LeaderboardRow(rank, bot, name, owner_id, owner, system, rating, games, wins, is_provisional(games), last,
                       boss=bool(system and boss and builtin == boss), deviation=deviation)
        for rank, (bot, name, owner_id, owner, system, rating, games, wins, last, builtin, deviation)
        in enumerate(session.exec(query), start=first)
    ]
    standing = boss_standing(session=session, game=game)
    return LeaderboardPage(game, rows, page, per_page, total, standing)


@dataclass(frozen=True, slots=True)
class BossStanding:
    """Where the game's boss stands on its leaderboard (rank None: retired or not yet rated)."""

    bot_id: int
    name: str
    rank: int | None
    rating: int | None  # milli-points


def boss_standing(*, session: Session, game: str) -> BossStanding | None:
    """None for a game without a boss or a boss the ladder has not seeded."""
    boss = boss_bot(session=session, game=game)
    if boss is None:
        return None
    rating = session.get(Rating, boss.id) if not boss.retired else None
    rank, _ = leaderboard_place(session=session, rating=rating)
    return BossStanding(boss.id, boss.name, rank, rating.rating if rating else None)


def leaderboard_place(*, session: Session, rating: Rating | None) -> tuple[int | None, int]:
    """(rank, bots on the board) for a rated, live bot, in `leaderboard`'s order: better rating
    first, ties to the older bot. Two counts over the game's ratings, no rows read."""
    if rating is None:
        return None, 0
    remote = bool(session.exec(select(Bot.remote).where(Bot.id == rating.bot_id)).first())
    live = (Rating.game == rating.game, Bot.retired == False, Bot.remote == remote)  # noqa: E712
    counted = select(func.count()).select_from(Rating).join(Bot, Bot.id == Rating.bot_id).where(*live)
    ahead = session.exec(counted.where(
        (Rating.rating > rating.rating) | ((Rating.rating == rating.rating) & (Rating.bot_id < rating.bot_id))
    )).one()
    return ahead + 1, session.exec(counted).one()


@dataclass(frozen=True, slots=True)
class RatingPoint:
    sequence: int
    match_id: int
    before: int
    delta: int
    after: int
    at: datetime | None = None  # None when the caller asked for no times (bot_page's history_times)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The columns of a match the bot page shows (named like Match's, so templates read either)."""

    id: int
    kind: str
    status: str
    created_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class SeatSummary:
    rank: int | None
    score: int | None
    status: str | None


@dataclass(frozen=True, slots=True)
class RecentMatch:
    match: MatchSummary
    seat: SeatSummary
    seats: int
    delta: int | None = None  # the bot's Elo change in it, milli-points; None when it was not rated
    opponents: tuple[ListedSeat, ...] = ()  # the other seats, in rank order


@dataclass(frozen=True, slots=True)
class HeadToHeadRow:
    opponent_id: int
    opponent_name: str
    owner_name: str
    meetings: int
    wins: int
    losses: int
    ties: int


@dataclass(frozen=True, slots=True)
class BotPage:
    bot: Bot
    owner: User
    rating: Rating | None
    versions: list[BotVersion]  # newest first, code not loaded
    history: list[RatingPoint]  # oldest first, the last `history` points
    recent: list[RecentMatch]  # newest first
    head_to_head: list[HeadToHeadRow]  # most frequent opponents first
    rank: int | None = None  # its place on its game's leaderboard; None when not on it (unrated, retired)
    board_size: int = 0  # how many bots that leaderboard has
    boss: BossRecord | None = None  # its record against the game's boss


def bot_page(
    *, session: Session, bot_id: int, history: int = 200, recent: int = 20, opponents: int = 20,
    history_times: bool = True,
) -> BotPage:
    """Everything the bot page shows, in eight bounded, index-backed queries.

    The rows that grow with a bot's history (rating points, recent matches, opponents) are read as
    plain columns into small dataclasses, through the session's Core connection: building ORM
    entities for them, or even the ORM's per-row bookkeeping for plain columns, cost more than the SQL.
    With `history_times=False` the rating points come without their times (`at` is None): the
    page's chart shows none, and turning 200 timestamps into aware datetimes was half of what
    reading the history cost.
    """
    head = session.exec(
        select(Bot, User, Rating).join(User, User.id == Bot.owner_id)
        .outerjoin(Rating, Rating.bot_id == Bot.id).where(Bot.id == bot_id)
    ).first()
    if head is None:
        raise NotFound(f"no bot {bot_id}")
    bot, owner, rating = head
    versions = list(session.exec(
        select(BotVersion).options(defer(BotVersion.code)).where(BotVersion.bot_id == bot_id)
        .order_by(BotVersion.number.desc())
    ))
    rows = session.connection().execute  # Core rows: see the docstring
    columns = [RatingChange.sequence, RatingChange.match_id, RatingChange.before, RatingChange.after,
               *([RatingChange.created_at] if history_times else [])]
    changes = rows(
        select(*columns).where(RatingChange.bot_id == bot_id).order_by(RatingChange.sequence.desc()).limit(history)
    ).all()
    points = [RatingPoint(c[0], c[1], c[2], c[3] - c[2], c[3], *c[4:]) for c in reversed(changes)]
    others = aliased(Seat)
    table_size = select(func.count()).where(others.match_id == Seat.match_id).scalar_subquery()
    recent_rows = rows(
        select(Match.id, Match.kind, Match.status, Match.created_at, Match.finished_at,
               Seat.rank, Seat.score, Seat.status, table_size, RatingChange.delta, Seat.seat)
        .join(Match, Match.id == Seat.match_id)
        .outerjoin(RatingChange, (RatingChange.match_id == Seat.match_id) & (RatingChange.bot_id == bot_id))
        .where(Seat.bot_id == bot_id)
        .order_by(Seat.match_id.desc()).limit(recent)
    ).all()
    tables = seats_by_match(session=session, match_ids=[r[0] for r in recent_rows])
    opponent, opponent_owner = aliased(Bot), aliased(User)
    h2h = [
        HeadToHeadRow(*row)
        for row in rows(
            select(HeadToHead.opponent_id, opponent.name, opponent_owner.username, HeadToHead.meetings,
                   HeadToHead.wins, HeadToHead.losses, HeadToHead.ties)
            .join(opponent, opponent.id == HeadToHead.opponent_id)
            .join(opponent_owner, opponent_owner.id == opponent.owner_id)
            .where(HeadToHead.bot_id == bot_id)
            .order_by(HeadToHead.meetings.desc(), HeadToHead.opponent_id).limit(opponents)
        )
    ]
    rank, board_size = leaderboard_place(session=session, rating=rating) if not bot.retired else (None, 0)
    return BotPage(
        bot=bot, owner=owner, rating=rating, versions=versions, history=points, rank=rank, board_size=board_size,
        recent=[RecentMatch(MatchSummary(*r[:5]), SeatSummary(*r[5:8]), r[8], r[9],
                            tuple(s for s in tables.get(r[0], []) if s.seat != r[10])) for r in recent_rows],
        head_to_head=h2h, boss=boss_record(session=session, bot=bot),
    )


@dataclass(frozen=True, slots=True)
class MatchSeatView:
    seat: Seat
    bot_name: str
    owner_id: int
    owner_name: str
    version_number: int
    rating_delta: int | None  # milli-points; None when the match was not rated
    build_error: str | None = None  # this seat's version did not compile: the compiler's message
    person: str | None = None  # the user who played this seat in person (its bot is the house's stand-in)

    @property
    def label(self) -> str:
        """Who played the seat, as the replay's viewer names it."""
        return in_person(self.person) if self.person else self.bot_name

    def state(self, match: Match) -> str:
        """The seat's status word: a seat of a match that failed before it was played is not
        "waiting" (nothing more will happen to it)."""
        if self.seat.status:
            return self.seat.status
        if self.build_error is not None:
            return "did not build"
        return "not played" if match.status == MatchStatus.FAILED else "waiting"


FAILED_PUBLIC = "the ladder could not play this match (a failure on our side, not the bots'); it is not rated"
PUBLIC_FAILURE_PREFIXES = ("abandoned:",)  # reasons the services word for the public themselves


# services/builds.reject_unbuildable's reason: the author's fault, and said so (not "our side")
DID_NOT_BUILD = re.compile(r"bot version (\d+) did not build")


def public_failure_reason(reason: str | None) -> str | None:
    """What a page or the API may say about a failed match. The stored reason can hold a worker's
    exception text, with server paths (the match's staging folder): that stays in the logs."""
    if reason is None:
        return None
    if DID_NOT_BUILD.fullmatch(reason):
        return f"{reason}, so the match was not played (the bot's compiler error is on its bot page)"
    return reason if reason.startswith(PUBLIC_FAILURE_PREFIXES) else FAILED_PUBLIC


def public_seed(match: Match, held: bool = False) -> int | None:
    """A match's seed, once it is finished: before that it tells the hidden draws to come. A held
    match's (services/event_hold.py) tells those of its deal's other seat orders."""
    return match.seed if match.status == MatchStatus.FINISHED and not held else None


@dataclass(frozen=True, slots=True)
class MatchView:
    match: Match
    seats: list[MatchSeatView]
    has_replay: bool  # a replay the public may see (not held, not hidden)
    held: bool = False  # an order of a duplicate deal still being played: no seed, replay or logs yet
    replay_hidden: bool = False  # taken out of public view by a moderator

    @property
    def seed(self) -> int | None:
        return public_seed(self.match, self.held)

    @property
    def failure_reason(self) -> str | None:
        return public_failure_reason(self.match.failure_reason)


def match_detail(*, session: Session, match_id: int) -> MatchView:
    match = fetch(session, Match, match_id, "match")
    deltas = dict(session.exec(
        select(RatingChange.seat, RatingChange.delta).where(RatingChange.match_id == match_id)
    ).all())
    rows = session.exec(
        select(Seat, Bot.name, Bot.owner_id, User.username, BotVersion.number)
        .join(Bot, Bot.id == Seat.bot_id).join(User, User.id == Bot.owner_id)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id)
        .where(Seat.match_id == match_id).order_by(Seat.seat)
    ).all()
    unbuilt = DID_NOT_BUILD.fullmatch(match.failure_reason or "") if match.status == MatchStatus.FAILED else None
    errors = {}
    if unbuilt:
        version = session.get(BotVersion, int(unbuilt.group(1)))
        errors[version.id if version else None] = (version.rejection_reason if version else None) or "did not build"
    people = dict(session.exec(select(PersonSeat.seat, User.username).join(User, User.id == PersonSeat.user_id)
                               .where(PersonSeat.match_id == match_id)).all())
    seats = [MatchSeatView(s, name, oid, owner, number, deltas.get(s.seat), errors.get(s.bot_version_id),
                           people.get(s.seat)) for s, name, oid, owner, number in rows]
    held = is_held(session, match_id)
    hidden = session.exec(select(Replay.hidden).where(Replay.match_id == match_id)).first()
    return MatchView(match, seats, not held and hidden is False, held, replay_hidden=bool(hidden))


def replay_json(*, session: Session, match_id: int, viewer_id: int | None = None) -> bytes:
    """The replay's JSON bytes (decompressed), with the seats' current names; NotFound when the
    match has none, while it is held, or a moderator hid it and the viewer is no admin
    (services/replay_names.py)."""
    return replay_names.served_replay(session=session, match_id=match_id, viewer_id=viewer_id)


def replay_gzip(*, session: Session, match_id: int, viewer_id: int | None = None) -> bytes:
    """The replay as gzip of the JSON, for downloads: the stored bytes when no name changed."""
    return replay_names.served_gzip(session=session, match_id=match_id, viewer_id=viewer_id)


def bot_log(*, session: Session, match_id: int, seat: int, viewer_id: int | None) -> BotLog | None:
    """A seat's stderr for the bot's owner (or an admin); Forbidden for anyone else."""
    row = session.exec(select(Seat, Bot.owner_id).join(Bot, Bot.id == Seat.bot_id)
                       .where(Seat.match_id == match_id, Seat.seat == seat)).first()
    if row is None:
        raise NotFound(f"match {match_id} has no seat {seat}")
    viewer = session.get(User, viewer_id) if viewer_id is not None else None
    if viewer is None or (viewer.id != row[1] and not viewer.is_admin):
        raise Forbidden("a bot's logs are visible to its owner only")
    if is_held(session, match_id):  # what the bot saw and printed is its deal's
        raise NotFound(f"match {match_id}'s logs are {HELD}")
    return session.get(BotLog, (match_id, seat))


def owner_logs(*, session: Session, match_id: int, seats: Iterable[int]) -> dict[int, str]:
    """The stored stderr of these seats of a match (the caller has checked they are the viewer's),
    for the owner's replay: the worker stores a replay without logs and each seat's log apart."""
    wanted = set(seats)
    if not wanted:
        return {}
    rows = session.exec(select(BotLog).where(BotLog.match_id == match_id, BotLog.seat.in_(sorted(wanted)))).all()
    return {row.seat: row.text for row in rows}
