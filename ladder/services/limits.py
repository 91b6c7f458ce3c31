"""Limits that must hold across every web process: counted in the database, not in memory.

How many versions a user uploaded in the last 24 hours, and how many of their challenges are still
queued or running (in all, and against any one other bot), are facts in the tables; checking them
here means two web processes (or two hosts) cannot each let a user through once more. Rates of
requests (log-ins, sign-ups, API calls) are Flask-Limiter's, in ladder/web/limiting.py.

A refusal is `LimitExceeded`, which the site answers with 429, `Retry-After` and its sentence. It
is not a ServiceError on purpose: forms that catch refusals must not turn it into a 400.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import Session, func, select

from ladder.config import Settings
from ladder.models import Bot, BotVersion, Match, MatchKind, MatchStatus, Seat, utcnow

DAY = timedelta(days=1)
IN_FLIGHT = (MatchStatus.QUEUED, MatchStatus.RUNNING)
CHALLENGE_RETRY = 60  # seconds: about one match; a challenge's end cannot be predicted better


class LimitExceeded(Exception):
    """The user hit a limit; `retry_after` seconds is when trying again makes sense."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))


def check_upload(*, session: Session, settings: Settings, user_id: int, now: datetime | None = None) -> None:
    """Refuse an upload when the user already uploaded `uploads_per_day` versions in the last 24 h."""
    now = now or utcnow()
    recent = (select(BotVersion.created_at).join(Bot, Bot.id == BotVersion.bot_id)
              .where(Bot.owner_id == user_id, BotVersion.created_at > now - DAY))
    count = session.exec(select(func.count()).select_from(recent.subquery())).one()
    if count < settings.uploads_per_day:
        return
    # the upload that frees a place is the one that leaves the window first
    oldest = session.exec(recent.order_by(BotVersion.created_at.desc()).offset(settings.uploads_per_day - 1)
                          .limit(1)).first() or now
    wait = math.ceil((oldest + DAY - now).total_seconds())
    raise LimitExceeded(
        f"You uploaded {count} versions in the last 24 hours, the most allowed "
        f"({settings.uploads_per_day}); the next upload is possible in {_duration(wait)}.", wait)


def check_challenge(*, session: Session, settings: Settings, user_id: int, version_ids: Sequence[int]) -> None:
    """Refuse a challenge when the user has `challenges_in_flight` challenges queued or running, or
    `challenges_per_target` against one of these opponents (another user's bot or a starter bot)."""
    mine = select(Match.id).where(Match.kind == MatchKind.CHALLENGE, Match.requested_by == user_id,
                                  Match.status.in_(IN_FLIGHT))
    in_flight = session.exec(select(func.count()).select_from(mine.subquery())).one()
    if in_flight >= settings.challenges_in_flight:
        raise LimitExceeded(
            f"You have {in_flight} challenges queued or running, the most allowed "
            f"({settings.challenges_in_flight}); wait for one to finish.", CHALLENGE_RETRY)
    targets = session.exec(select(BotVersion.bot_id, Bot.name).join(Bot, Bot.id == BotVersion.bot_id)
                           .where(BotVersion.id.in_(list(version_ids)), Bot.owner_id != user_id)).all()
    if not targets:
        return
    per_target = dict(session.exec(
        select(Seat.bot_id, func.count(func.distinct(Seat.match_id))).where(
            Seat.match_id.in_(mine), Seat.bot_id.in_([bot_id for bot_id, _ in targets])).group_by(Seat.bot_id)
    ).all())
    for bot_id, name in targets:
        if per_target.get(bot_id, 0) >= settings.challenges_per_target:
            raise LimitExceeded(
                f"You have {per_target[bot_id]} challenges against {name} queued or running, the most allowed "
                f"({settings.challenges_per_target}); wait for one to finish.", CHALLENGE_RETRY)


def _duration(seconds: int) -> str:
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{math.ceil(seconds / 60)} min"
    return f"{seconds} s"
