"""The queue's bookkeeping beside the match rows: when each match was last sent to the broker, and
the drain switch.

The database is the queue of record; a broker message only says "look at match N". A message can
be lost (a broker restart, a worker killed between taking it and claiming the match), so every
queued match whose last send is older than a bound is sent again (`due_for_resend`), whether the
broker is busy or not. A duplicate is harmless: the claim (services/matches.claim_match) is a
guarded UPDATE, so the second delivery finds the match no longer queued and does nothing.

The drain switch lives here rather than in a setting so that every process sees the same value:
the scheduler tick runs in whichever worker takes it, with that worker's environment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import Session, select

from ladder.models import Match, MatchStatus, Switch, utcnow
from ladder.services.common import atomic

DRAIN = "drain"
OPEN = (MatchStatus.QUEUED, MatchStatus.RUNNING)


def mark_sent(*, session: Session, match_ids: Sequence[int], now: datetime | None = None) -> int:
    """Record that run_match messages for these matches reached the broker now; rows updated."""
    if not match_ids:
        return 0
    stmt = (update(Match).where(Match.id.in_(list(match_ids)), Match.status == MatchStatus.QUEUED)
            .values(sent_at=now or utcnow()).execution_options(synchronize_session=False))
    with atomic(session):
        return session.exec(stmt).rowcount


def due_for_resend(*, session: Session, resend_after: timedelta | float, now: datetime | None = None,
                   limit: int = 500) -> list[int]:
    """Queued matches whose last send (or, never recorded, their creation) is older than
    `resend_after`, oldest first. Read-only: the caller sends them, then `mark_sent`."""
    if not isinstance(resend_after, timedelta):
        resend_after = timedelta(seconds=resend_after)
    cutoff = (now or utcnow()) - resend_after
    last_sent = func.coalesce(Match.sent_at, Match.created_at)
    return list(session.exec(
        select(Match.id).where(Match.status == MatchStatus.QUEUED, last_sent < cutoff)
        .order_by(last_sent, Match.id).limit(limit)
    ).all())


def draining(*, session: Session) -> bool:
    """True while the operator drains the ladder: nothing new is queued (see workers/queue/scheduler.py)."""
    row = session.get(Switch, DRAIN, populate_existing=True)
    return bool(row and row.enabled)


def set_draining(*, session: Session, on: bool, now: datetime | None = None) -> Switch:
    with atomic(session):
        row = session.get(Switch, DRAIN, populate_existing=True) or Switch(name=DRAIN)
        row.enabled, row.changed_at = on, now or utcnow()
        session.add(row)
    return row


@dataclass(frozen=True, slots=True)
class QueueState:
    draining: bool
    since: datetime | None  # when the drain switch last changed
    queued: int
    running: int

    @property
    def open(self) -> int:
        return self.queued + self.running


def queue_state(*, session: Session) -> QueueState:
    """The drain switch and the open matches, for `ladder admin drain` and its wait."""
    counts = dict(session.exec(
        select(Match.status, func.count()).where(Match.status.in_(OPEN)).group_by(Match.status)
    ).all())
    row = session.get(Switch, DRAIN, populate_existing=True)
    return QueueState(bool(row and row.enabled), row.changed_at if row else None,
                      counts.get(MatchStatus.QUEUED, 0), counts.get(MatchStatus.RUNNING, 0))
