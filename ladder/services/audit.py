"""The moderators' audit log: who did what, to what, when and why (table `moderation_log`).

Every moderator service writes its row with `record` inside its own transaction, so an action
and its log entry are stored together or not at all. Rows are never changed or deleted.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ladder.models import ModerationAction, User, utcnow
from ladder.services.errors import Invalid

MAX_REASON = 2000


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: an admin on the site (id and name) or an operator at the command line (id None)."""

    name: str
    user_id: int | None = None

    @classmethod
    def of(cls, user: User) -> Actor:
        return cls(user.username, user.id)


def clean_reason(reason: str | None) -> str:
    """A moderator's reason: required (the log says why), one short text."""
    reason = (reason or "").strip()
    if not reason:
        raise Invalid("give a reason: the audit log keeps it")
    if len(reason) > MAX_REASON or "\x00" in reason:
        raise Invalid(f"the reason must be at most {MAX_REASON} characters of text")
    return reason


def record(session: Session, actor: Actor, action: str, target_kind: str, target_id: int | None,
           reason: str, **details: object) -> ModerationAction:
    """Add one entry to the caller's transaction (flushed there, committed with the action)."""
    row = ModerationAction(at=utcnow(), actor_id=actor.user_id, actor=actor.name[:80], action=action,
                           target_kind=target_kind, target_id=target_id, reason=reason, details=details)
    session.add(row)
    return row


def entries(*, session: Session, limit: int = 100, before: int | None = None,
            target_kind: str | None = None, target_id: int | None = None) -> list[ModerationAction]:
    """Newest first, `limit` at most, older than entry `before` when given (pages of the log)."""
    query = select(ModerationAction).order_by(ModerationAction.id.desc()).limit(max(1, min(limit, 500)))
    if before is not None:
        query = query.where(ModerationAction.id < before)
    if target_kind is not None:
        query = query.where(ModerationAction.target_kind == target_kind)
    if target_id is not None:
        query = query.where(ModerationAction.target_id == target_id)
    return list(session.exec(query))


def as_json(row: ModerationAction) -> dict:
    return {"id": row.id, "at": row.at.isoformat(), "actor": row.actor, "actor_id": row.actor_id,
            "action": row.action, "target_kind": row.target_kind, "target_id": row.target_id,
            "reason": row.reason, "details": row.details}
