"""Log-in sessions kept on the server, so that logging out really ends a log-in.

A log-in is a row with a random key; the browser's session cookie (and its remember-me cookie)
carries "<user id>.<key>", and only the key's SHA-256 is stored. A request's user is found through
that row: deleting it (log-out, password change) makes every copy of the cookie worthless. A
remember-me cookie is exchanged for a new key each time it brings a browser back, so a stolen copy
works at most until the owner's next visit, and never after log-out.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlmodel import Session, delete, select

from ladder.models import LoginSession, User, utcnow
from ladder.services.common import atomic


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def start(*, session: Session, user_id: int, remember: bool, days: int, now: datetime | None = None) -> str:
    """A new log-in for `user_id`; returns the cookie value "<user id>.<key>". Expired log-ins of
    the user are cleared on the way, so the table holds only live ones."""
    now = now or utcnow()
    key = secrets.token_urlsafe(32)
    with atomic(session):
        session.exec(delete(LoginSession).where(LoginSession.user_id == user_id, LoginSession.expires_at <= now))
        session.add(LoginSession(user_id=user_id, key_hash=_digest(key), remember=remember, created_at=now,
                                 expires_at=now + timedelta(days=days)))
    return f"{user_id}.{key}"


def _split(cookie_id: str) -> tuple[int, str] | None:
    raw_user, _, key = (cookie_id or "").partition(".")
    if not key or not raw_user.isdigit():
        return None  # also the cookies from before 0004, which held the bare user id
    return int(raw_user), key


def user_for(*, session: Session, cookie_id: str, now: datetime | None = None) -> User | None:
    """The user of a live log-in, or None (unknown, ended or expired log-in; system user)."""
    parts = _split(cookie_id)
    if parts is None:
        return None
    user_id, key = parts
    row = session.exec(
        select(User).join(LoginSession, LoginSession.user_id == User.id)
        .where(LoginSession.key_hash == _digest(key), LoginSession.user_id == user_id,
               LoginSession.expires_at > (now or utcnow()))
    ).first()
    return row if row is not None and not row.is_system else None


def end(*, session: Session, cookie_id: str) -> None:
    """End one log-in (log-out); unknown ones are already ended."""
    parts = _split(cookie_id)
    if parts is None:
        return
    with atomic(session):
        session.exec(delete(LoginSession).where(LoginSession.key_hash == _digest(parts[1])))


def end_all(*, session: Session, user_id: int) -> None:
    """End every log-in of the user (password change): every browser has to log in again."""
    with atomic(session):
        session.exec(delete(LoginSession).where(LoginSession.user_id == user_id))


def rotate(*, session: Session, cookie_id: str, days: int, now: datetime | None = None) -> str | None:
    """Exchange a live log-in's key for a new one (a remember-me cookie that brought a browser
    back); None when the log-in is not live any more."""
    now = now or utcnow()
    parts = _split(cookie_id)
    if parts is None:
        return None
    user_id, key = parts
    key_new = secrets.token_urlsafe(32)
    with atomic(session):
        row = session.exec(select(LoginSession).where(LoginSession.key_hash == _digest(key),
                                                      LoginSession.user_id == user_id)).first()
        if row is None or row.expires_at <= now:
            return None
        row.key_hash = _digest(key_new)
        row.expires_at = now + timedelta(days=days)
        session.add(row)
    return f"{user_id}.{key_new}"


def count(*, session: Session, user_id: int, now: datetime | None = None) -> int:
    """Live log-ins of the user (the account page shows it)."""
    rows = session.exec(select(LoginSession.id).where(LoginSession.user_id == user_id,
                                                      LoginSession.expires_at > (now or utcnow())))
    return len(rows.all())
