"""Recording a played match: seats, replay, logs, ratings and validation, in ONE transaction.

The transaction first takes the rating clock (see services/ratings.py), then moves the match from
running to finished with a conditional UPDATE. If that UPDATE matches no row the match was already
recorded, failed, or requeued by the sweeper, and the whole transaction rolls back: recording twice
is refused with AlreadyRecorded, and ratings are applied exactly once.

So a finished ranked match always has one rating change per seat: the status, the seats and the
ratings commit together (a worker killed anywhere before the commit leaves the match `running`,
with nothing written, for the sweeper), and a ranked match that the ratings would skip, because
every seat forfeited (nobody showed strength; it usually means the ladder's sandbox failed), ends
`failed` instead of `finished`. `ladder ratings recompute` checks it (missing_rating_changes).

Each clean seat's bot data changes (MatchOutcome.data) are kept in this same transaction
(services/botdata.py): a result that is refused keeps none of them either. So are the seats'
scorecards (services/scorecard.py), measured from the replay.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, case, insert, update
from sqlmodel import Session, select

from ladder.bot.data import Cap, Collected
from ladder.models import (
    BotLog,
    BotVersion,
    Match,
    MatchKind,
    MatchStatus,
    Seat,
    SeatStatus,
    VersionStatus,
    utcnow,
)
from ladder.models import Replay as ReplayRow
from ladder.ranking.ratings import is_rated
from ladder.replay import Replay, dumps_replay
from ladder.services.botdata import record_match_data
from ladder.services.bots import activate
from ladder.services.common import atomic, expire_loaded, retry_transient
from ladder.services.errors import AlreadyRecorded, Invalid, NotFound
from ladder.services.leagues import record_meetings
from ladder.services.ratings import apply_ratings, take_rating_clock
from ladder.services.scorecard import measure_scorecard, record_scorecard
from ladder.services.stored_replays import stored_form
from ladder.storage import Store

DEFAULT_MAX_LOG_CHARS = 64 * 1024
DEFAULT_DATA_CAP = Cap()  # settings.bot_data_cap
ALL_FORFEITED = "every seat forfeited: nothing to rate (a ranked match needs one seat that played)"


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How one seat did. `rank` is the game's rank (1 best); forfeits are applied by the ratings."""

    rank: int
    score: int | None = None
    status: str = SeatStatus.OK
    reason: str | None = None
    forfeited: bool = False
    log: str | None = None  # the bot's stderr; truncated when stored


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    seats: Sequence[SeatOutcome]  # in seat order
    replay: Replay | bytes | None = None  # the public replay (no bot's log in it) or its bytes
    # per seat, what the match did to the bot's data folder (workers/build/bot_data.py); kept by
    # services/botdata.py in this same transaction, for clean seats only
    data: Sequence[Collected | None] | None = None


@dataclass(slots=True)
class PlayedSeat:
    """A seat as recording reads and writes it (the columns of `seats` that the ratings, the bot
    data and validation use), without an ORM object."""

    seat: int
    bot_id: int
    bot_version_id: int
    data_version: int | None
    rank: int | None = None
    score: int | None = None
    status: str = SeatStatus.OK
    reason: str | None = None
    forfeited: bool = False


def outcome_from_replay(replay: Replay, logs: Sequence[str | None] | None = None) -> MatchOutcome:
    """The outcome a replay describes (its seats' statuses and its results' ranks and scores);
    `logs[i]` is seat i's stderr, split off the replay (Replay.split_logs)."""
    seats = sorted(replay.seats, key=lambda s: s.seat)
    results = {r.seat: r for r in replay.results}
    out = []
    for i, seat in enumerate(seats):
        result = results[seat.seat]
        out.append(SeatOutcome(
            rank=result.rank, score=result.score, status=seat.status or SeatStatus.OK,
            reason=seat.reason, forfeited=seat.forfeit, log=logs[i] if logs else None,
        ))
    return MatchOutcome(out, replay)


def compress_replay(replay: Replay | bytes) -> tuple[bytes, int]:
    """(gzip bytes, uncompressed size); a Replay is written in ladder.replay's canonical form."""
    if isinstance(replay, bytes | bytearray):
        raw = gzip.decompress(replay) if replay[:2] == b"\x1f\x8b" else bytes(replay)
    else:
        raw = dumps_replay(replay)
    return gzip.compress(raw, compresslevel=6, mtime=0), len(raw)


def truncate_log(text: str, limit: int) -> tuple[str, bool]:
    """Keep the end of a log (where the traceback is), marking what was cut."""
    if len(text) <= limit:
        return text, False
    cut = len(text) - limit
    return f"[... {cut} characters cut ...]\n" + text[cut:], True


def _check(outcome: MatchOutcome) -> None:
    statuses = {s.value for s in SeatStatus}
    for i, seat in enumerate(outcome.seats):
        if seat.status not in statuses:
            raise Invalid(f"seat {i}: unknown status {seat.status!r} (one of {', '.join(sorted(statuses))})")
        if not isinstance(seat.rank, int) or seat.rank < 1 or seat.rank > len(outcome.seats):
            raise Invalid(f"seat {i}: rank {seat.rank!r} outside 1..{len(outcome.seats)}")


def record_result(
    *,
    session: Session,
    match_id: int,
    outcome: MatchOutcome,
    worker_id: str | None = None,
    now: datetime | None = None,
    max_log_chars: int = DEFAULT_MAX_LOG_CHARS,
    data_cap: Cap = DEFAULT_DATA_CAP,
    store: Store | None = None,
) -> Match:
    """Store a played match and rate it if it is rated. With `worker_id`, only the worker holding
    the claim may record (a worker the sweeper gave up on cannot). AlreadyRecorded otherwise.
    `store`: where the seats' new bot data versions go (services/botdata.py)."""
    _check(outcome)
    now = now or utcnow()
    guard = update(Match).where(Match.id == match_id, Match.status == MatchStatus.RUNNING)
    if worker_id is not None:
        guard = guard.where(Match.claimed_by == worker_id)
    values = {"status": MatchStatus.FINISHED, "finished_at": now}
    if outcome.seats and all(seat.forfeited for seat in outcome.seats):
        # a ranked match the ratings would skip is void; an unranked one stands as played
        values["status"] = case((Match.ranked, MatchStatus.FAILED.value), else_=MatchStatus.FINISHED.value)
        values["failure_reason"] = case((Match.ranked, ALL_FORFEITED), else_=None)
    guard = guard.values(**values).execution_options(synchronize_session=False)
    with atomic(session):
        sequence = take_rating_clock(session)  # first: serialises rating updates, numbers this one
        # the guarded change returns the match as it now is: no second read of it
        match = session.scalars(guard.returning(Match), execution_options={"populate_existing": True}).one_or_none()
        if match is None:
            match = session.get(Match, match_id, populate_existing=True)
            if match is None:
                raise NotFound(f"no match {match_id}")
            holder = f" (claimed by {match.claimed_by})" if match.claimed_by else ""
            raise AlreadyRecorded(f"match {match_id} is {match.status}{holder}; result refused")
        # Core reads and writes of the seats, the logs and the replay: the hot path of every
        # match, where ORM objects cost more than the statements (objects a session holds of these
        # seats are expired below, so their next read sees the result)
        seats = [PlayedSeat(seat, bot_id, version_id, data_version) for seat, bot_id, version_id, data_version in
                 session.exec(select(Seat.seat, Seat.bot_id, Seat.bot_version_id, Seat.data_version)
                              .where(Seat.match_id == match_id).order_by(Seat.seat))]
        if len(seats) != len(outcome.seats):
            raise Invalid(f"match {match_id} has {len(seats)} seats; the result has {len(outcome.seats)}")
        logs = []
        for seat, result in zip(seats, outcome.seats, strict=True):
            seat.rank, seat.score, seat.status = result.rank, result.score, result.status
            seat.reason, seat.forfeited = result.reason, result.forfeited
            if result.log:
                text, truncated = truncate_log(result.log, max_log_chars)
                logs.append({"match_id": match_id, "seat": seat.seat, "text": text, "truncated": truncated})
        table = Seat.__table__
        session.exec(update(table).where(table.c.match_id == match_id, table.c.seat == bindparam("s_seat"))
                     .values(rank=bindparam("s_rank"), score=bindparam("s_score"), status=bindparam("s_status"),
                             reason=bindparam("s_reason"), forfeited=bindparam("s_forfeited")),
                     params=[{"s_seat": s.seat, "s_rank": s.rank, "s_score": s.score, "s_status": s.status,
                              "s_reason": s.reason, "s_forfeited": s.forfeited} for s in seats])
        expire_loaded(session, Seat, [(match_id, s.seat) for s in seats])
        if logs:
            session.exec(insert(BotLog.__table__), params=logs)
        cards = []
        if outcome.replay is not None:
            form = stored_form(outcome.replay)
            # the seats' measures (services/scorecard.py), measured before the replay row is
            # written, which says whether they went into the sums
            cards = measure_scorecard(match, [(s.seat, s.bot_id, s.bot_version_id) for s in seats], form.replay)
            session.exec(insert(ReplayRow.__table__).values(match_id=match_id, data=form.data, size=form.size,
                                                            compact=form.compact, created_at=now,
                                                            measured=bool(cards)))
        record_match_data(session, match, seats, outcome.data, data_cap, now, store)
        record_scorecard(session, match, cards)  # on the bot page as soon as this commits
        if is_rated(match.status, ranked=match.ranked, forfeited=[s.forfeited for s in seats]):
            apply_ratings(session, match, seats, sequence, now)
            record_meetings(session, match, seats, now)
        if match.kind == MatchKind.VALIDATION:
            _settle_validation(session, match, seats)
    return match


def record_result_retrying(*, session: Session, match_id: int, outcome: MatchOutcome, worker_id: str,
                           budget_s: float, sleep=None, **kw) -> Match:
    """record_result, retried after a transient database error (a PostgreSQL restart: the worker
    lives on, and the result it holds is written once the database is back) for `budget_s`.
    A commit whose reply was lost may have gone through: a retry then finds the match recorded
    under this worker's own claim, and that is the result recorded, not a refusal."""
    lost: list[BaseException] = []

    def record() -> Match:
        try:
            return record_result(session=session, match_id=match_id, outcome=outcome, worker_id=worker_id, **kw)
        except AlreadyRecorded:
            if lost:
                match = session.get(Match, match_id, populate_existing=True)
                session.commit()  # end the read
                ended = match is not None and match.claimed_by == worker_id and (
                    match.status == MatchStatus.FINISHED
                    or (match.status == MatchStatus.FAILED and match.failure_reason == ALL_FORFEITED))
                if ended:  # as only record_result ends it, under this claim: our commit went through
                    return match
            raise

    extra = {} if sleep is None else {"sleep": sleep}
    return retry_transient(session, record, budget_s=budget_s, on_retry=lost.append, **extra)


def _settle_validation(session: Session, match: Match, seats: Sequence[PlayedSeat]) -> None:
    """The version under validation joins the ladder if its seat played cleanly, else is rejected."""
    for version in session.exec(
        select(BotVersion).where(BotVersion.validation_match_id == match.id)
        .execution_options(populate_existing=True)
    ):
        seat = next((s for s in seats if s.bot_version_id == version.id), None)
        if seat is None or version.status != VersionStatus.VALIDATING:
            continue
        if seat.status == SeatStatus.OK and not seat.forfeited:
            activate(session, version)
        else:
            version.status = VersionStatus.REJECTED
            # The seat's reason already starts with its fault code ("crash: exited with code 1 ..."):
            # the status before it would only repeat it. The cause (the log's end) is shown to the
            # owner beside this line (services/rejections.py), never stored in it: reasons are public.
            version.rejection_reason = f"validation game {match.id}: {seat.reason or seat.status}"
            session.add(version)
