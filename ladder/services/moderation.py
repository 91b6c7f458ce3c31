"""Moderator actions: what an admin (on the site) or the operator (`ladder admin`) may do to any
bot, version, user or replay. Each is one transaction with its audit log entry (services/audit.py).
"""

from __future__ import annotations

from sqlmodel import Session

from ladder.models import User
from ladder.services.errors import NotFound
from ladder.services.users import get_user_by_name


def user_by_name(session: Session, username: str) -> User:
    user = get_user_by_name(session=session, username=username)
    if user is None:
        raise NotFound(f"no user {username!r}")
    return user
