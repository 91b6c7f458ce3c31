"""Ratings bookkeeping: the rating clock, applying one match, and recomputing from history.

Elo depends on order, so the stored history must say in which order ratings were applied. Every
rating update first increments the single `rating_clock` row: that UPDATE holds the row's lock
until the transaction ends (on SQLite the database write lock, taken by BEGIN IMMEDIATE), so two
workers can never interleave their read-modify-write of ratings, and the value it returns numbers
the match in the order ratings were actually applied (`rating_changes.sequence`). Recomputing
replays matches in that order and must reproduce every stored integer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations, groupby

from sqlalchemy import bindparam, case, delete, func, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, select

from ladder.models import (
    BotVersion,
    HeadToHead,
    Match,
    MatchStatus,
    Rating,
    RatingChange,
    RatingCheck,
    RatingClock,
    Seat,
)
from ladder.ranking.ratings import INITIAL_DEVIATION, INITIAL_RATING, RankedSeat, RatingBook, ranks_with_forfeits
from ladder.services.common import atomic, expire_loaded


def take_rating_clock(session: Session) -> int:
    """Lock the rating clock for the rest of this transaction and return the next sequence number."""
    stmt = update(RatingClock).where(RatingClock.id == 1).values(applied=RatingClock.applied + 1)
    value = session.exec(stmt.returning(RatingClock.applied)).scalar_one_or_none()
    if value is None:  # a database made with create_all rather than the migration: no row yet
        session.add(RatingClock(id=1, applied=1))
        session.flush()
        value = 1
    return value


def apply_ratings(session: Session, match: Match, seats: Sequence[Seat], sequence: int, now: datetime) -> list[
        dict]:
    """Rate one finished match inside the caller's transaction (which holds the rating clock).

    Writes a RatingChange per seat, updates each bot's Rating (rating, deviation, games, wins, the
    version it played with, last played)
    and the head-to-head table, and counts a placement game for each version still owing some.
    Returns the rating changes' rows as written.

    Core statements, not ORM objects: this runs once per match on the worker's hot path, where
    loading, dirtying and flushing objects row by row cost more than the maths (a 4-seat match
    went from 12 statements to 6). Objects of these rows the session already holds are expired.
    """
    bot_ids = [s.bot_id for s in seats]
    query = (select(Rating.bot_id, Rating.rating, Rating.games, Rating.wins, Rating.deviation, Rating.version_id)
             .where(Rating.bot_id.in_(bot_ids)).with_for_update())
    current = {bot_id: {"rating": rating, "games": games, "wins": wins, "deviation": deviation, "version": version}
               for bot_id, rating, games, wins, deviation, version in session.exec(query)}
    stored = set(current)
    for bot_id in bot_ids:
        current.setdefault(bot_id, {"rating": INITIAL_RATING, "games": 0, "wins": 0,
                                    "deviation": INITIAL_DEVIATION, "version": None})
    book = RatingBook(
        ratings={b: r["rating"] for b, r in current.items()}, games={b: r["games"] for b, r in current.items()},
        deviations={b: r["deviation"] for b, r in current.items()},
        versions={b: r["version"] for b, r in current.items() if r["version"] is not None},
    )
    rated = book.apply(match.id, [RankedSeat(s.bot_id, s.rank, s.forfeited, s.bot_version_id) for s in seats])
    ranks = ranks_with_forfeits([s.rank for s in seats], [s.forfeited for s in seats])
    changes = []
    for seat, change, rank in zip(seats, rated.changes, ranks, strict=True):
        changes.append({
            "sequence": sequence, "match_id": match.id, "bot_id": seat.bot_id, "seat": seat.seat, "rank": rank,
            "forfeited": seat.forfeited, "before": change.before, "delta": change.delta, "after": change.after,
            "games_before": change.games_before, "created_at": now,
            "deviation_before": change.deviation_before, "deviation": change.deviation,
        })
        rating = current[seat.bot_id]
        rating["rating"] = change.after
        rating["games"] = change.games_before + 1
        rating["wins"] += rank == 1
        rating["deviation"] = change.deviation
        rating["version"] = seat.bot_version_id
    session.exec(insert(RatingChange.__table__), params=changes)
    rows = [{"b_id": bot_id, "b_rating": current[bot_id]["rating"], "b_games": current[bot_id]["games"],
             "b_wins": current[bot_id]["wins"], "b_deviation": current[bot_id]["deviation"],
             "b_version": current[bot_id]["version"]} for bot_id in dict.fromkeys(bot_ids)]
    updated = [row for row in rows if row["b_id"] in stored]
    if updated:  # one statement, run for each row (psycopg pipelines them)
        session.exec(
            update(Rating.__table__).where(Rating.__table__.c.bot_id == bindparam("b_id"))
            .values(rating=bindparam("b_rating"), games=bindparam("b_games"), wins=bindparam("b_wins"),
                    deviation=bindparam("b_deviation"), version_id=bindparam("b_version"),
                    last_played_at=now, last_sequence=sequence),
            params=updated,
        )
    new = [{"bot_id": row["b_id"], "game": match.game, "rating": row["b_rating"], "games": row["b_games"],
            "wins": row["b_wins"], "deviation": row["b_deviation"], "version_id": row["b_version"],
            "last_played_at": now, "last_sequence": sequence}
           for row in rows if row["b_id"] not in stored]
    if new:
        session.exec(insert(Rating.__table__), params=new)
    _update_head_to_head(session, match.id, bot_ids, ranks)
    # One statement for the versions' two counters, touching only rows that change: a placement
    # game still owed, a first rated match not yet seen (rating_reports.py's new versions)
    version_ids = [s.bot_version_id for s in seats]
    owed = BotVersion.placement_owed > 0
    session.exec(update(BotVersion)
                 .where(BotVersion.id.in_(version_ids), owed | BotVersion.first_rated_sequence.is_(None))
                 .values(placement_owed=BotVersion.placement_owed - case((owed, 1), else_=0),
                         first_rated_sequence=func.coalesce(BotVersion.first_rated_sequence, sequence))
                 .execution_options(synchronize_session=False))
    expire_loaded(session, Rating, bot_ids)
    expire_loaded(session, BotVersion, version_ids)
    return changes


def _update_head_to_head(session: Session, match_id: int, bot_ids: list[int], ranks: list[int]) -> None:
    """One upsert of every ordered pair's counts (the rating clock serialises it with the others)."""
    counts: dict[tuple[int, int], list[int]] = {}  # (bot, opponent) -> [meetings, wins, losses, ties]
    for (a, ra), (b, rb) in combinations(zip(bot_ids, ranks, strict=True), 2):
        for me, mine, other, theirs in ((a, ra, b, rb), (b, rb, a, ra)):
            count = counts.setdefault((me, other), [0, 0, 0, 0])
            count[0] += 1
            count[1] += mine < theirs
            count[2] += mine > theirs
            count[3] += mine == theirs
    if not counts:
        return
    table = HeadToHead.__table__
    dialect = session.get_bind().dialect.name
    # one statement run for each pair (psycopg pipelines them): a multi-row VALUES would be a new
    # statement, compiled again, for every match
    stmt = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}[dialect](table)
    stmt = stmt.on_conflict_do_update(index_elements=["bot_id", "opponent_id"], set_={
        "meetings": table.c.meetings + stmt.excluded.meetings, "wins": table.c.wins + stmt.excluded.wins,
        "losses": table.c.losses + stmt.excluded.losses, "ties": table.c.ties + stmt.excluded.ties,
        "last_match_id": stmt.excluded.last_match_id,
    })
    session.exec(stmt, params=[
        {"bot_id": me, "opponent_id": other, "meetings": m, "wins": w, "losses": lo, "ties": t,
         "last_match_id": match_id}
        for (me, other), (m, w, lo, t) in counts.items()
    ])
    expire_loaded(session, HeadToHead, list(counts))


@dataclass(frozen=True, slots=True)
class RatingDifference:
    """A stored number that the replayed history does not reproduce."""

    bot_id: int
    match_id: int | None  # None: the bot's current rating row
    field: str
    stored: int | None
    recomputed: int | None


@contextmanager
def snapshot(session: Session) -> Iterator[None]:
    """The body's reads see ONE state of the database: a history and the current ratings read in
    two statements under READ COMMITTED could straddle a worker's commit and report differences
    that are not there. PostgreSQL: a REPEATABLE READ, READ ONLY transaction; SQLite (WAL): one
    deferred transaction is one snapshot already. Ends with a rollback: nothing is written."""
    if session.in_transaction():
        session.commit()
    if session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True})
    try:
        yield
    finally:
        session.rollback()


@dataclass(slots=True)
class _Replayed:
    """What replaying the stored history gives: the differences, and what a rewrite needs."""

    diffs: list[RatingDifference]
    changes: list[dict]  # rating_changes rows whose numbers differ: their fresh values
    # bot -> (rating, games, wins, last sequence, deviation, last version)
    ratings: dict[int, tuple[int, int, int, int | None, int, int | None]]
    head_to_head: dict[tuple[int, int], list[int]]  # (bot, opponent) -> [meetings, wins, losses, ties, last match]
    first_changes: list[dict]  # versions whose stored first sequence differs: their fresh values
    matches: int


def _replay(session: Session, batch: int) -> _Replayed:
    query = (
        select(
            RatingChange.sequence, RatingChange.match_id, RatingChange.bot_id, RatingChange.rank,
            RatingChange.before, RatingChange.delta, RatingChange.games_before, Seat.rank, Seat.forfeited,
            RatingChange.after, Seat.bot_version_id, RatingChange.deviation_before, RatingChange.deviation,
        )
        .join(Seat, (Seat.match_id == RatingChange.match_id) & (Seat.seat == RatingChange.seat))
        .order_by(RatingChange.sequence, RatingChange.seat)
        .execution_options(yield_per=batch)
    )
    book = RatingBook()
    wins: dict[int, int] = {}
    last: dict[int, int] = {}
    out = _Replayed([], [], {}, {}, [], 0)
    first_sequences: dict[int, int] = {}  # version -> the sequence of its first rated match
    for sequence, rows in groupby(session.exec(query), key=lambda r: r[0]):
        rows = list(rows)
        match_id = rows[0][1]
        out.matches += 1
        for row in rows:
            first_sequences.setdefault(row[10], sequence)
        rated = book.apply(match_id, [RankedSeat(r[2], r[7], r[8], r[10]) for r in rows])
        ranks = ranks_with_forfeits([r[7] for r in rows], [r[8] for r in rows])
        for row, change, rank in zip(rows, rated.changes, ranks, strict=True):
            wins[row[2]] = wins.get(row[2], 0) + (rank == 1)
            last[row[2]] = sequence
            differs = False
            for name, stored, fresh in (("rank", row[3], rank), ("before", row[4], change.before),
                                        ("delta", row[5], change.delta), ("games_before", row[6], change.games_before),
                                        ("deviation_before", row[11], change.deviation_before),
                                        ("deviation", row[12], change.deviation)):
                if stored != fresh:
                    out.diffs.append(RatingDifference(row[2], match_id, name, stored, fresh))
                    differs = True
            if differs or row[9] != change.after:
                out.changes.append({"c_match": match_id, "c_bot": row[2], "c_rank": rank, "c_before": change.before,
                                    "c_delta": change.delta, "c_after": change.after,
                                    "c_games": change.games_before, "c_dev_before": change.deviation_before,
                                    "c_dev": change.deviation})
        for (a, ra), (b, rb) in combinations(zip([r[2] for r in rows], ranks, strict=True), 2):
            for me, mine, other, theirs in ((a, ra, b, rb), (b, rb, a, ra)):
                count = out.head_to_head.setdefault((me, other), [0, 0, 0, 0, 0])
                count[0] += 1
                count[1] += mine < theirs
                count[2] += mine > theirs
                count[3] += mine == theirs
                count[4] = match_id
    stored_rows = _replay_ratings_rows(session)
    for bot_id in sorted(set(stored_rows) | set(book.ratings)):
        row = stored_rows.get(bot_id)
        fresh_rating, fresh_games = book.ratings.get(bot_id, INITIAL_RATING), book.games.get(bot_id, 0)
        fresh_deviation = book.deviation(bot_id)
        out.ratings[bot_id] = (fresh_rating, fresh_games, wins.get(bot_id, 0), last.get(bot_id), fresh_deviation,
                               book.versions.get(bot_id))
        pairs = (
            ("rating", row.rating if row else None, fresh_rating),
            ("games", row.games if row else None, fresh_games),
            ("wins", row.wins if row else None, wins.get(bot_id, 0)),
            ("deviation", row.deviation if row else None, fresh_deviation),
            ("version_id", row.version_id if row else None, book.versions.get(bot_id)),
        )
        for name, stored, fresh in pairs:
            if stored != fresh and not (row is None and fresh in (INITIAL_RATING, 0, INITIAL_DEVIATION, None)):
                out.diffs.append(RatingDifference(bot_id, None, name, stored, fresh))
    # every version's stored first rated sequence (versions are few beside matches)
    for version_id, bot_id, stored in session.exec(
            select(BotVersion.id, BotVersion.bot_id, BotVersion.first_rated_sequence)):
        fresh = first_sequences.get(version_id)
        if stored != fresh:
            out.diffs.append(RatingDifference(bot_id, None, f"version {version_id} first_rated_sequence", stored,
                                              fresh))
            out.first_changes.append({"v_id": version_id, "v_first": fresh})
    return out


def _replay_ratings_rows(session: Session) -> dict[int, Rating]:
    """The current ratings: the replay's second read (a test puts a worker's commit before it)."""
    return {r.bot_id: r for r in session.exec(select(Rating))}


def recompute_ratings(*, session: Session, batch: int = 5000) -> list[RatingDifference]:
    """Replay every rated match in applied order from the seats' ranks, forfeits and versions, and
    list every stored number (each change's before/delta/games/deviations, each bot's
    rating/games/wins/deviation/version, each version's first rated sequence) that differs.

    Uses ladder.ranking.ratings.RatingBook, the engine of ladder.ranking.ratings.recompute, fed one match at a
    time: the same arithmetic without holding a million matches in memory. Read-only, from one
    snapshot (see `snapshot`).
    """
    with snapshot(session):
        return _replay(session, batch).diffs


def rewrite_ratings(*, session: Session, batch: int = 5000) -> list[RatingDifference]:
    """Recompute the ratings from the remaining history and WRITE them: every rating change's
    numbers, every bot's rating, deviation, games and wins, each version's first rated sequence,
    and the head-to-head table, in one transaction
    that holds the rating clock (no worker rates a match meanwhile). Returns what differed before;
    afterwards `recompute_ratings` finds nothing. Inside `unit_of_work` it joins the caller's
    transaction (voiding matches rewrites in the same one)."""
    with atomic(session):
        take_rating_clock(session)
        replayed = _replay(session, batch)
        if replayed.changes:
            table = RatingChange.__table__
            session.exec(
                update(table).where(table.c.match_id == bindparam("c_match"), table.c.bot_id == bindparam("c_bot"))
                .values(rank=bindparam("c_rank"), before=bindparam("c_before"), delta=bindparam("c_delta"),
                        after=bindparam("c_after"), games_before=bindparam("c_games"),
                        deviation_before=bindparam("c_dev_before"), deviation=bindparam("c_dev")),
                params=replayed.changes,
            )
        stored = {r.bot_id: r for r in session.exec(select(Rating))}
        for bot_id, fresh in replayed.ratings.items():
            row = stored.get(bot_id)
            if row is not None and (row.rating, row.games, row.wins, row.last_sequence, row.deviation,
                                    row.version_id) != fresh:
                (row.rating, row.games, row.wins, row.last_sequence, row.deviation, row.version_id) = fresh
                session.add(row)
        if replayed.first_changes:
            session.exec(update(BotVersion.__table__).where(BotVersion.__table__.c.id == bindparam("v_id"))
                         .values(first_rated_sequence=bindparam("v_first")), params=replayed.first_changes)
            expire_loaded(session, BotVersion, [row["v_id"] for row in replayed.first_changes])
        session.exec(delete(HeadToHead))
        if replayed.head_to_head:
            session.exec(insert(HeadToHead.__table__), params=[
                {"bot_id": me, "opponent_id": other, "meetings": m, "wins": w, "losses": lo, "ties": t,
                 "last_match_id": last_match}
                for (me, other), (m, w, lo, t, last_match) in replayed.head_to_head.items()
            ])
        expire_loaded(session, HeadToHead, list(replayed.head_to_head))
    return replayed.diffs


@dataclass(frozen=True, slots=True)
class UnratedMatch:
    """A finished ranked match whose rating changes are not one per seat."""

    match_id: int
    seats: int
    changes: int
    all_forfeited: bool


def missing_rating_changes(*, session: Session, limit: int | None = None) -> list[UnratedMatch]:
    """Every finished ranked match without exactly one rating change per seat (there should be
    none: services/results.py writes the status, the seats and the changes in one transaction, and
    a ranked match where every seat forfeited ends failed). Read-only; oldest first."""
    seats = (select(Seat.match_id, func.count().label("n"),
                    func.sum(case((Seat.forfeited, 0), else_=1)).label("played"))
             .group_by(Seat.match_id).subquery())
    changes = select(RatingChange.match_id, func.count().label("n")).group_by(RatingChange.match_id).subquery()
    query = (
        select(Match.id, seats.c.n, func.coalesce(changes.c.n, 0), seats.c.played)
        .join(seats, seats.c.match_id == Match.id)
        .outerjoin(changes, changes.c.match_id == Match.id)
        .where(Match.status == MatchStatus.FINISHED, Match.ranked == True,  # noqa: E712
               Match.voided_at.is_(None),  # a voided match's changes were taken out with it
               func.coalesce(changes.c.n, 0) != seats.c.n)
        .order_by(Match.id)
    )
    if limit is not None:
        query = query.limit(limit)
    return [UnratedMatch(m, n, c, not played) for m, n, c, played in session.exec(query)]


def record_check(*, session: Session, differences: int, missing: int, wrote: bool = False) -> RatingCheck:
    """Keep one run of the ratings check: the newest is what ladder_ratings_check_ok reports."""
    with atomic(session):
        check = RatingCheck(differences=differences, missing=missing, wrote=wrote)
        session.add(check)
    return check


def check_ratings(*, session: Session) -> RatingCheck:
    """The scheduler's check: `ladder ratings recompute`'s dry run (one snapshot), recorded."""
    differences = len(recompute_ratings(session=session))
    missing = len(missing_rating_changes(session=session))
    return record_check(session=session, differences=differences, missing=missing)


def latest_check(session: Session) -> RatingCheck | None:
    return session.exec(select(RatingCheck).order_by(RatingCheck.checked_at.desc(), RatingCheck.id.desc())
                        .limit(1)).first()
