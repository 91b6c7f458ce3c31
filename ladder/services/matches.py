"""The match queue: matchmaking input, queueing, claiming, failing and sweeping matches.

A match moves queued -> running -> finished | failed. Every move is one conditional UPDATE
(`... WHERE status = 'queued'`) whose row count says whether this caller won: two workers racing
for a match both send the UPDATE, the database serialises them on the row, and the second one
matches no row. So a match never runs twice, on SQLite or PostgreSQL, without any lock held open.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, func, or_, update
from sqlmodel import Session, select

from ladder.games import Game, OptionError, get_game
from ladder.models import Bot, BotVersion, Match, MatchKind, MatchStatus, Rating, Seat, User, VersionStatus, utcnow
from ladder.ranking.matchmaking import Candidate, Table, next_class
from ladder.ranking.ratings import INITIAL_DEVIATION, starting_deviation
from ladder.services.botdata import pin_for
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound
from ladder.services.event_hold import duplicate_deal
from ladder.services.users import get_user_by_name

BUSY = (MatchStatus.QUEUED, MatchStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class MatchmakingPool:
    """What ladder.ranking.matchmaking.make_tables needs for one game; `Candidate.bot` is a version id."""

    candidates: list[Candidate]
    busy: set[int]  # version ids queued or playing a rated match: pass as `exclude`
    house_owner: int | None  # pass as `house_owner`


def matchmaking_pool(*, session: Session, game: str, house_username: str = "house",
                     remote: bool = False) -> MatchmakingPool:
    """Active versions of the game's bots that are not retired, with their bots' ratings. Bots
    played from outside make a pool of their own (`remote`: the open ladder's)."""
    query = (
        select(BotVersion.id, Bot.owner_id, BotVersion.placement_owed, Rating.rating, Rating.games,
               Rating.last_played_at, Rating.deviation, Rating.version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .outerjoin(Rating, Rating.bot_id == Bot.id)
        .join(User, User.id == Bot.owner_id)
        .where(BotVersion.status == VersionStatus.ACTIVE, Bot.game == game, Bot.retired == False,  # noqa: E712
               Bot.remote == remote, Bot.disabled == False,  # noqa: E712 (a moderator's disable)
               or_(User.suspended == False, User.suspended_until <= utcnow()))  # noqa: E712
    )
    # the deviation the version's next match will start from (a new version's is widened first)
    candidates = [
        Candidate(bot=vid, owner=owner, game=game, rating=rating if rating is not None else 1_500_000,
                  games=games or 0, placement_owed=owed, last_played=None if last is None else last.timestamp(),
                  deviation=starting_deviation(INITIAL_DEVIATION if deviation is None else deviation, played, vid))
        for vid, owner, owed, rating, games, last, deviation, played in session.exec(query)
    ]
    # Only rated matches book a bot: a bot seated in someone's queued challenge, or a starter bot
    # seated in validation games, still plays its rated games (else anyone could bench any bot).
    busy = set(session.exec(
        select(Seat.bot_version_id).join(Match, Match.id == Seat.match_id)
        .where(Match.status.in_(BUSY), Match.game == game, Match.kind == MatchKind.LADDER)
    ))
    house = get_user_by_name(session=session, username=house_username)
    return MatchmakingPool(candidates, busy, house.id if house is not None and house.is_system else None)


def queue_match(
    *,
    session: Session,
    game: str,
    seats: Table | Sequence[int],
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    kind: str = MatchKind.LADDER,
    ranked: bool | None = None,
    sandbox: str = "strict",
    requested_by: int | None = None,
    league: int | None = None,
) -> Match:
    """Queue a match between bot versions (a matchmaking Table, or version ids in seat order),
    a ladder match in `league` when matchmaking made it within one (ladder/services/leagues.py).

    Ladder matches are ranked and need active versions; validation and challenge matches are
    unranked. Options are resolved against the game (defaults filled in) before they are stored.
    """
    version_ids = list(seats.bots if isinstance(seats, Table) else seats)
    ranked = kind == MatchKind.LADDER if ranked is None else ranked
    if kind not in set(MatchKind):
        raise Invalid(f"unknown match kind {kind!r}")
    try:
        game_obj = get_game(game)
        game_obj.check_players(len(version_ids))
        resolved = game_obj.resolve_options(options)
    except OptionError as exc:
        raise Invalid(str(exc)) from None
    match = Match(game=game, options=resolved, seed=secrets.randbits(63) if seed is None else seed, kind=kind,
                  ranked=ranked, sandbox=sandbox, requested_by=requested_by, league=league)
    with atomic(session):
        rows = session.exec(
            select(BotVersion, Bot).join(Bot, Bot.id == BotVersion.bot_id).where(BotVersion.id.in_(version_ids))
        ).all()
        found = {v.id: (v, b) for v, b in rows}
        missing = [v for v in version_ids if v not in found]
        if missing:
            raise NotFound(f"no bot version {missing[0]}")
        if len({found[v][1].id for v in version_ids}) != len(version_ids):
            raise Invalid("a bot cannot hold two seats of one match")
        for vid in version_ids:
            version, bot = found[vid]
            if bot.game != game:
                raise Invalid(f"bot {bot.name!r} plays {bot.game}, not {game}")
            if kind == MatchKind.LADDER and (version.status != VersionStatus.ACTIVE or bot.retired):
                raise Invalid(f"version {vid} of {bot.name!r} is {version.status}, not active")
        session.add(match)
        session.flush()
        # events and validation games play a fixed version of each bot's data (services/botdata.py)
        pins = pin_for(kind, session, [found[vid][1].id for vid in version_ids])
        for index, vid in enumerate(version_ids):
            bot_id = found[vid][1].id
            session.add(Seat(match_id=match.id, seat=index, bot_id=bot_id, bot_version_id=vid,
                             data_version=pins[bot_id]))
    return match


def queue_validation_match(
    *, session: Session, version_id: int, players: int | None = None, seed: int | None = None,
    house_username: str = "house", sandbox: str = "strict",
) -> Match:
    """The unranked game a pending version plays against starter bots before it joins the ladder.

    Seat 0 is the new version, the other seats go to the game's active validation bots (its
    `validation_bots`, else every starter bot; one seat each), so the table has the game's default
    size or 1 + the number of those bots if smaller.
    The version is `validating` until record_result activates or rejects it.
    """
    version = fetch(session, BotVersion, version_id, "bot version")
    bot = fetch(session, Bot, version.bot_id, "bot")
    if version.status not in (VersionStatus.PENDING, VersionStatus.VALIDATING):
        raise Conflict(f"version {version.number} of {bot.name!r} is {version.status}")
    pool = matchmaking_pool(session=session, game=bot.game, house_username=house_username)
    game_obj = get_game(bot.game)
    names = game_obj.validation_bots or tuple(game_obj.starter_bots)
    named = set(session.exec(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
                             .where(Bot.game == bot.game, Bot.name.in_(names))).all())
    house = sorted(c.bot for c in pool.candidates if c.owner == pool.house_owner and c.bot in named)
    count = min(players or game_obj.default_players, 1 + len(house))
    if count < game_obj.min_players:
        raise Conflict(f"no starter bots to validate a {bot.game} bot against; seed them first")
    match = queue_match(session=session, game=bot.game, seats=[version_id, *house[: count - 1]], seed=seed,
                        kind=MatchKind.VALIDATION, sandbox=sandbox)
    with atomic(session):
        version.status = VersionStatus.VALIDATING
        version.validation_match_id = match.id
        session.add(version)
    return match


def queue_challenge(
    *, session: Session, user_id: int, version_ids: Sequence[int], options: Mapping[str, object] | None = None,
    seed: int | None = None, sandbox: str = "strict",
) -> Match:
    """An unranked match an owner asks for: one of the seats must be theirs, all must be active."""
    rows = session.exec(
        select(BotVersion, Bot).join(Bot, Bot.id == BotVersion.bot_id).where(BotVersion.id.in_(version_ids))
    ).all()
    if not any(b.owner_id == user_id for _, b in rows):
        raise Forbidden("a challenge needs one of your own bots at the table")
    if any(v.status != VersionStatus.ACTIVE for v, _ in rows):
        raise Invalid("every version in a challenge must be active")
    games = {b.game for _, b in rows}
    if len(games) != 1:
        raise Invalid("the bots of a challenge must play the same game")
    _check_opponents(get_game(next(iter(games))), len(version_ids) - 1)
    return queue_match(session=session, game=games.pop(), seats=version_ids, options=options, seed=seed,
                       kind=MatchKind.CHALLENGE, ranked=False, sandbox=sandbox, requested_by=user_id)


def _check_opponents(game: Game, opponents: int) -> None:
    """Say the table size in the challenger's terms (opponents besides their bot), before
    queue_match's player-count check would say it in seats."""
    low, high = game.min_players - 1, game.max_players - 1
    if not low <= opponents <= high:
        raise Invalid(f"{game.title} takes {game.min_players}-{game.max_players} players: choose {low} to {high} "
                      f"opponents for your bot, not {opponents}")


def claim_match(*, session: Session, match_id: int, worker_id: str, now: datetime | None = None) -> Match | None:
    """Move a queued match to running for `worker_id`; None when it was not queued (someone else
    has it, or it is finished): the caller then does nothing."""
    now = now or utcnow()
    stmt = (
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.QUEUED)
        .values(status=MatchStatus.RUNNING, claimed_by=worker_id, claimed_at=now, started_at=now,
                attempts=Match.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    with atomic(session):
        # the claimed row comes back with the change (RETURNING): no second read of it
        match = session.scalars(stmt.returning(Match), execution_options={"populate_existing": True}).one_or_none()
    return match  # loaded inside the transaction, so no read transaction is left open


def _reload(session: Session, match_id: int) -> Match:
    return session.exec(select(Match).where(Match.id == match_id).execution_options(populate_existing=True)).one()


def claim_next_match(
    *, session: Session, worker_id: str, game: str | None = None, now: datetime | None = None
) -> Match | None:
    """Claim the oldest queued match (of `game`) of the class ladder.ranking.matchmaking.next_class picks:
    validation and challenge games get a fair share of the running matches, never all of them.
    None when the queue is empty."""
    for _ in range(10):  # another worker may win the race for the head of the queue: take the next
        match_id = _next_queued(session, game)
        session.commit()  # end the read: the claim is its own transaction
        if match_id is None:
            return None
        match = claim_match(session=session, match_id=match_id, worker_id=worker_id, now=now)
        if match is not None:
            return match
    return None


BULK_KINDS = (MatchKind.LADDER, MatchKind.EVENT)  # scheduled play; the other kinds have a user waiting


def _next_queued(session: Session, game: str | None) -> int | None:
    def oldest(status: str, ladder: bool):
        kind = Match.kind.in_(BULK_KINDS) if ladder else Match.kind.not_in(BULK_KINDS)
        query = select(Match.id).where(Match.status == status, kind)
        if game is not None:
            query = query.where(Match.game == game)
        return query

    ladder_head = session.exec(oldest(MatchStatus.QUEUED, True).order_by(Match.id).limit(1)).first()
    priority_head = session.exec(oldest(MatchStatus.QUEUED, False).order_by(Match.id).limit(1)).first()
    running = dict(session.exec(
        select(Match.kind, func.count()).where(Match.status == MatchStatus.RUNNING).group_by(Match.kind)
    ).all())
    ladder = sum(running.pop(kind, 0) for kind in BULK_KINDS)
    chosen = next_class(running_ladder=ladder, running_priority=sum(running.values()),
                        ladder_waiting=ladder_head is not None, priority_waiting=priority_head is not None)
    return {"ladder": ladder_head, "priority": priority_head, None: None}[chosen]


def mark_failed(
    *, session: Session, match_id: int, reason: str, worker_id: str | None = None, now: datetime | None = None
) -> Match:
    """An infrastructure failure (worker, sandbox, broker): the match ends `failed`, unrated.

    Conflict when the match already finished or failed, or when `worker_id` no longer holds it.
    A validation game that failed this way sends its version back to `pending`, to be retried.
    """
    stmt = update(Match).where(Match.id == match_id, Match.status.in_(BUSY))
    if worker_id is not None:
        stmt = stmt.where(Match.claimed_by == worker_id)
    stmt = stmt.values(status=MatchStatus.FAILED, failure_reason=reason, finished_at=now or utcnow())
    with atomic(session):
        if session.exec(stmt.execution_options(synchronize_session=False)).rowcount != 1:
            fetch(session, Match, match_id, "match")
            raise Conflict(f"match {match_id} is not queued or running{' for ' + worker_id if worker_id else ''}")
        _validation_back_to_pending(session, [match_id])
        match = _reload(session, match_id)
    return match


def release_match(*, session: Session, match_id: int, worker_id: str) -> bool:
    """Give a running match back to the queue: its worker is stopping (a deploy, Ctrl-C) and tore
    it down unplayed. Not a failed attempt, so its claim is not counted. False when `worker_id` no
    longer holds it (the sweeper took it back meanwhile)."""
    stmt = (
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.RUNNING, Match.claimed_by == worker_id)
        .values(status=MatchStatus.QUEUED, claimed_by=None, claimed_at=None, started_at=None,
                attempts=Match.attempts - 1)  # the claim raised it by one
        .execution_options(synchronize_session=False)
    )
    with atomic(session):
        released = session.exec(stmt).rowcount == 1
        if released:
            _redeal(session, [match_id])
        return released


def release_running(*, session: Session) -> list[int]:
    """Give every running match back to the queue, uncounted like `release_match`: for `ladder up`
    on its embedded database, where its own worker is the only one, once a stop was asked for and
    that worker is gone (killed at the end of the grace): nothing can still be playing them."""
    stmt = (
        update(Match)
        .where(Match.status == MatchStatus.RUNNING)
        .values(status=MatchStatus.QUEUED, claimed_by=None, claimed_at=None, started_at=None,
                attempts=case((Match.attempts > 0, Match.attempts - 1), else_=0))  # the claim raised it by one
        .returning(Match.id).execution_options(synchronize_session=False)
    )
    with atomic(session):
        released = sorted(session.exec(stmt).scalars())
        _redeal(session, released)
        return released


# The owner sees this; the failure's detail (a worker's exception, server paths) stays in the logs.
VALIDATION_RETRY = "the validation game could not be played (a failure on our side, not your bot's); it is retried"


def _validation_back_to_pending(session: Session, match_ids: Sequence[int]) -> None:
    if not match_ids:
        return
    session.exec(
        update(BotVersion)
        .where(BotVersion.validation_match_id.in_(match_ids), BotVersion.status == VersionStatus.VALIDATING)
        .values(status=VersionStatus.PENDING, rejection_reason=VALIDATION_RETRY)
        .execution_options(synchronize_session=False)
    )


@dataclass(frozen=True, slots=True)
class SweepResult:
    requeued: list[int]
    failed: list[int]  # gave up: claimed max_attempts times already


def requeue_stale(
    *, session: Session, stale_after: timedelta | float, max_attempts: int = 3, now: datetime | None = None,
    owner_gone: Callable[[str], bool] | None = None,
) -> SweepResult:
    """Matches left `running` longer than `stale_after` (their worker died) go back to the queue,
    or fail once they have been claimed `max_attempts` times. A late result from the dead worker
    is then refused by record_result, because the claim it names is gone. With `owner_gone`
    (workers/queue/claims.py), a running match whose claim it proves dead is swept at once, however
    young: a killed worker's matches come back in a sweep, not after the stale bound."""
    if not isinstance(stale_after, timedelta):
        stale_after = timedelta(seconds=stale_after)
    now = now or utcnow()
    old = Match.claimed_at < now - stale_after
    if owner_gone is not None:
        claims = session.exec(select(Match.claimed_by).where(Match.status == MatchStatus.RUNNING,
                                                             Match.claimed_by.is_not(None)).distinct()).all()
        session.commit()  # end the read: the sweep is its own transaction
        dead = sorted(claim for claim in claims if owner_gone(claim))
        if dead:
            old = or_(old, Match.claimed_by.in_(dead))
    stale = (Match.status == MatchStatus.RUNNING, old)
    with atomic(session):
        gave_up = list(session.exec(
            update(Match).where(*stale, Match.attempts >= max_attempts)
            .values(status=MatchStatus.FAILED, finished_at=now,
                    failure_reason=f"abandoned: no result after {max_attempts} attempts")
            .returning(Match.id).execution_options(synchronize_session=False)
        ).scalars())
        requeued = list(session.exec(
            update(Match).where(*stale)
            .values(status=MatchStatus.QUEUED, claimed_by=None, claimed_at=None, started_at=None)
            .returning(Match.id).execution_options(synchronize_session=False)
        ).scalars())
        _validation_back_to_pending(session, gave_up)
        _redeal(session, requeued)
    return SweepResult(sorted(requeued), sorted(gave_up))


def _redeal(session: Session, match_ids: Sequence[int]) -> list[int]:
    """A fresh seed for each of these matches given back to the queue, unless it is an order of a
    duplicate deal (whose orders must share their deal, and which publishes nothing before it is
    over: services/event_hold.py): its events may have gone out (a live feed, a remote seat), and
    whoever saw them must not meet the same game again. Returns the ids re-dealt."""
    redealt = []
    for match_id in match_ids:
        changed = session.exec(update(Match).where(Match.id == match_id, ~duplicate_deal())
                               .values(seed=secrets.randbits(63)).execution_options(synchronize_session=False))
        if changed.rowcount == 1:
            redealt.append(match_id)
    return redealt


def redeal_after_void(*, session: Session, match_id: int, worker_id: str) -> int | None:
    """The claimed match's next attempt after a voided one whose events went out (live, or to a
    seat played from outside) is played on a fresh seed, which is stored: its replay names it. None
    when the seed stays: an order of a duplicate deal (all orders share one), or a claim lost."""
    with atomic(session):
        owned = session.exec(select(Match.id).where(Match.id == match_id, Match.status == MatchStatus.RUNNING,
                                                    Match.claimed_by == worker_id)).first()
        if owned is None or not _redeal(session, [match_id]):
            return None
        return session.exec(select(Match.seed).where(Match.id == match_id)).one()
