"""What an operator watches, read from the database (the queue of record): how deep each queue is
and how long its oldest match has waited, what runs past the stale bound, when each worker host
last claimed a match, and one match's end as recorded. Read at every scrape (ladder/telemetry/metrics.py),
so each query stays on an index: `ix_matches_status_id` and `ix_matches_status_claimed_at`.

A match's queue follows its kind, as workers/queue/scheduler.py sends it: ladder and event matches
on `ladder.matches`, validation and challenge games on `ladder.priority`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from ladder.models import Bot, BotVersion, Match, MatchKind, MatchStatus, RatingChange, Seat, User, utcnow

PRIORITY_KINDS = (MatchKind.VALIDATION, MatchKind.CHALLENGE)
CLAIM_WINDOW = timedelta(hours=1)  # a worker host that claimed nothing for this long drops off the list


def queue_of(kind: str) -> str:
    return "ladder.priority" if kind in PRIORITY_KINDS else "ladder.matches"


@dataclass(frozen=True, slots=True)
class QueueDepth:
    queue: str
    depth: int
    oldest_age_s: float  # 0 when empty


@dataclass(frozen=True, slots=True)
class Snapshot:
    queues: list[QueueDepth]
    running: int
    running_past_stale: int
    last_claims: dict[str, float]  # worker host -> seconds since its last claim


def snapshot(*, session: Session, stale_after: float, now: datetime | None = None) -> Snapshot:
    now = now or utcnow()
    depth: dict[str, list] = {queue_of(k): [0, None] for k in MatchKind}
    for kind, count, oldest in session.exec(
        select(Match.kind, func.count(), func.min(Match.created_at))
        .where(Match.status == MatchStatus.QUEUED).group_by(Match.kind)
    ).all():
        entry = depth[queue_of(kind)]
        entry[0] += count
        if oldest is not None and (entry[1] is None or oldest < entry[1]):
            entry[1] = oldest
    queues = [QueueDepth(q, n, max(0.0, (now - _aware(oldest, now)).total_seconds()) if oldest else 0.0)
              for q, (n, oldest) in sorted(depth.items())]
    running = session.exec(select(func.count()).where(Match.status == MatchStatus.RUNNING)).one()
    past = session.exec(select(func.count()).where(
        Match.status == MatchStatus.RUNNING, Match.claimed_at < now - timedelta(seconds=stale_after))).one()
    claims: dict[str, float] = {}
    for claimed_by, at in session.exec(
        select(Match.claimed_by, func.max(Match.claimed_at))
        .where(Match.status.in_((MatchStatus.RUNNING, MatchStatus.FINISHED, MatchStatus.FAILED)),
               Match.claimed_at >= now - CLAIM_WINDOW)
        .group_by(Match.claimed_by)
    ).all():
        host = worker_host(claimed_by)
        age = max(0.0, (now - _aware(at, now)).total_seconds())
        claims[host] = min(age, claims.get(host, age))
    return Snapshot(queues, running, past, claims)


def worker_host(claimed_by: str | None) -> str:
    """The host of a claim `host:pid:delivery` (workers/queue/tasks.py): the worker machine or
    container, a label with few values (pids and deliveries change with every match)."""
    return (claimed_by or "unknown").split(":", 1)[0][:100]


def _aware(when: datetime, like: datetime) -> datetime:
    """SQLite returns naive datetimes (stored as UTC): compare them as such."""
    if when.tzinfo is None and like.tzinfo is not None:
        return when.replace(tzinfo=like.tzinfo)
    return when


@dataclass(frozen=True, slots=True)
class MatchEnd:
    match_id: int
    game: str
    status: str
    attempts: int
    duration_s: float | None
    worker: str | None
    bots: list[str]
    rating_changes: int
    failure_reason: str | None

    def as_json(self) -> dict[str, object]:
        return {"match": self.match_id, "game": self.game, "status": self.status, "attempt": self.attempts,
                "duration_s": self.duration_s, "worker": self.worker, "bots": self.bots,
                "rating_changes": self.rating_changes, "failure_reason": self.failure_reason}


def match_end(*, session: Session, match_id: int) -> MatchEnd | None:
    """A match as the database recorded its end (None while it is not finished or failed)."""
    match = session.get(Match, match_id, populate_existing=True)
    if match is None or match.status not in (MatchStatus.FINISHED, MatchStatus.FAILED):
        return None
    bots = [f"{owner}/{name} v{number}" for owner, name, number in session.exec(
        select(User.username, Bot.name, BotVersion.number).select_from(Seat)
        .join(Bot, Bot.id == Seat.bot_id).join(User, User.id == Bot.owner_id)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id)
        .where(Seat.match_id == match_id).order_by(Seat.seat)
    ).all()]
    changes = session.exec(select(func.count()).where(RatingChange.match_id == match_id)).one()
    duration = None
    if match.started_at is not None and match.finished_at is not None:
        duration = round((match.finished_at - match.started_at).total_seconds(), 3)
    return MatchEnd(match.id, match.game, match.status, match.attempts, duration, match.claimed_by, bots, changes,
                    match.failure_reason)
