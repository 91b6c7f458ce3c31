"""Voiding matches: one, a bot's, a user's or a time range's, with their rating changes.

A voided match stays listed, marked voided with the moderator's reason; its rating changes are
deleted and the ratings are recomputed from the remaining history and written
(services/ratings.rewrite_ratings), and it leaves the bots' scorecards (services/scorecard.py), all
in one transaction with the audit log's entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import Session, select

from ladder.models import Bot, Match, MatchStatus, RatingChange, Seat, utcnow
from ladder.services.audit import Actor, clean_reason, record
from ladder.services.common import unit_of_work
from ladder.services.errors import Invalid
from ladder.services.ratings import rewrite_ratings
from ladder.services.scorecard import forget_matches

MAX_MATCHES = 100_000  # one void at most: a bigger one is a mistake more often than not


@dataclass(frozen=True, slots=True)
class Voided:
    match_ids: tuple[int, ...]
    rating_numbers_rewritten: int  # stored numbers the rewrite corrected


def void_matches(*, session: Session, actor: Actor, reason: str, match_ids: Sequence[int] = (),
                 bot_id: int | None = None, user_id: int | None = None, since: datetime | None = None,
                 until: datetime | None = None) -> Voided:
    """Void the finished matches that every given filter selects (matches by id, the bot's or the
    user's bots' matches, finished within [since, until)); at least one filter. Already voided
    ones are left as they are. Invalid when nothing is selected."""
    reason = clean_reason(reason)
    if not match_ids and bot_id is None and user_id is None and since is None and until is None:
        raise Invalid("say which matches: ids, a bot, a user or a time range")
    query = select(Match.id).where(Match.status == MatchStatus.FINISHED, Match.voided_at.is_(None))
    if match_ids:
        query = query.where(Match.id.in_(list(match_ids)))
    if bot_id is not None:
        query = query.where(Match.id.in_(select(Seat.match_id).where(Seat.bot_id == bot_id)))
    if user_id is not None:
        owned = select(Bot.id).where(Bot.owner_id == user_id)
        query = query.where(Match.id.in_(select(Seat.match_id).where(Seat.bot_id.in_(owned))))
    if since is not None:
        query = query.where(Match.finished_at >= since)
    if until is not None:
        query = query.where(Match.finished_at < until)
    with unit_of_work(session):
        ids = sorted(session.exec(query.order_by(Match.id).limit(MAX_MATCHES + 1)))
        if not ids:
            raise Invalid("no finished match that is not voided already was selected")
        if len(ids) > MAX_MATCHES:
            raise Invalid(f"more than {MAX_MATCHES} matches selected: void them in smaller ranges")
        now = utcnow()
        for chunk in _chunks(ids):
            session.exec(update(Match).where(Match.id.in_(chunk)).values(voided_at=now, void_reason=reason)
                         .execution_options(synchronize_session=False))
            session.exec(delete(RatingChange).where(RatingChange.match_id.in_(chunk)))
        fixed = rewrite_ratings(session=session)
        for chunk in _chunks(ids):  # after the rewrite took the rating clock: no result is recorded meanwhile
            forget_matches(session, chunk)  # out of the bots' scorecards too (services/scorecard.py)
        record(session, actor, "void_matches", "match", ids[0] if len(ids) == 1 else None, reason,
               matches=ids[:1000], count=len(ids), bot_id=bot_id, user_id=user_id,
               since=since.isoformat() if since else None, until=until.isoformat() if until else None,
               rating_numbers_rewritten=len(fixed))
    for match in session.identity_map.values():  # rows written with Core above
        if isinstance(match, Match) and match.id in set(ids):
            session.expire(match)
    return Voided(tuple(ids), len(fixed))


def _chunks(ids: list[int], size: int = 1000):
    for i in range(0, len(ids), size):
        yield ids[i:i + size]
