"""Personal API tokens: named, several per user, scoped (read / upload), revocable one by one.

A token is random (256 bits) and shown once; only its SHA-256 is stored, which is enough for a
value that cannot be guessed and lets a request find its token with one indexed lookup. Its last
use is written at most once a minute, so a busy script does not turn every request into a write.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, delete, func, select

from ladder.models import ApiToken, TokenScope, User, utcnow
from ladder.services.common import atomic, fetch
from ladder.services.errors import Invalid, NotFound

TOKEN_PREFIX = "ldr_"  # recognisable in logs and secret scanners
MAX_TOKENS = 20  # per user: plenty for scripts and machines, not a table anyone can fill
TOKEN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{0,39}")
LAST_USE_RESOLUTION = timedelta(minutes=1)
ALL_SCOPES = tuple(s.value for s in TokenScope)


@dataclass(frozen=True)
class Authenticated:
    user: User
    token: ApiToken

    def allows(self, scope: str) -> bool:
        return scope in self.token.scope_set


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _clean_scopes(scopes: Iterable[str]) -> str:
    chosen = {s.strip().lower() for s in scopes if s and s.strip()}
    unknown = chosen - set(ALL_SCOPES)
    if unknown:
        raise Invalid(f"unknown scope {sorted(unknown)[0]!r}: choose from {', '.join(ALL_SCOPES)}")
    if not chosen:
        raise Invalid(f"a token needs at least one scope: {', '.join(ALL_SCOPES)}")
    return " ".join(s for s in ALL_SCOPES if s in chosen)


def create(*, session: Session, user_id: int, name: str, scopes: Iterable[str]) -> tuple[ApiToken, str]:
    """A new token; returns its row and the token itself, which is never available again."""
    name = (name or "").strip()
    if not TOKEN_NAME.fullmatch(name):
        raise Invalid("a token name is 1 to 40 letters, digits, spaces, '.', '_' or '-', starting with a letter "
                      "or digit")
    scope_text = _clean_scopes(scopes)
    user = fetch(session, User, user_id, "user")
    if user.is_system:
        raise Invalid("the system user has no API tokens")
    if session.exec(select(func.count()).select_from(ApiToken).where(ApiToken.user_id == user_id)).one() \
            >= MAX_TOKENS:
        raise Invalid(f"you have {MAX_TOKENS} tokens already: revoke one you no longer use first")
    if session.exec(select(ApiToken.id).where(ApiToken.user_id == user_id, ApiToken.name == name)).first():
        raise Invalid(f"you already have a token named {name!r}: choose another name or revoke that one")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(user_id=user_id, name=name, token_hash=digest(token), scopes=scope_text)
    with atomic(session, conflict=f"you already have a token named {name!r}"):
        session.add(row)
    return row, token


def list_tokens(*, session: Session, user_id: int) -> list[ApiToken]:
    return list(session.exec(select(ApiToken).where(ApiToken.user_id == user_id).order_by(ApiToken.id)))


def revoke(*, session: Session, user_id: int, token_id: int) -> ApiToken:
    """Delete one of the user's tokens; NotFound for a token that is not theirs."""
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != user_id:
        raise NotFound(f"you have no token {token_id}")
    with atomic(session):
        session.delete(row)
    return row


def revoke_all(*, session: Session, user_id: int) -> None:
    with atomic(session):
        session.exec(delete(ApiToken).where(ApiToken.user_id == user_id))


def is_live(*, session: Session, token_id: int) -> bool:
    """Whether the token still exists: every revocation (one revoke, log out everywhere, a password
    change, a suspension) deletes its row. One primary-key read, for connections that outlive the
    request that checked the token (a seat's websocket)."""
    return session.exec(select(ApiToken.id).where(ApiToken.id == token_id)).first() is not None


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header (the scheme in any case, any spaces
    around the token), or None for no header or another scheme. The one reading of the header:
    the API's check and its per-token limit both use it, so padding never makes another key."""
    parts = (header or "").split(None, 1)  # any run of spaces or tabs between the two
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1].strip() or None


def authenticate(*, session: Session, token: str, now: datetime | None = None) -> Authenticated | None:
    """The token's user and row, or None for an unknown, revoked or malformed token. Records the
    use (to the minute)."""
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    # comparing digests in SQL leaks nothing useful: the digest of a guess says nothing of the token
    found = session.exec(select(ApiToken, User).join(User, User.id == ApiToken.user_id)
                         .where(ApiToken.token_hash == digest(token))).first()
    if found is None or found[1].is_system:
        return None
    row, user = found
    now = now or utcnow()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USE_RESOLUTION:
        with atomic(session):
            row.last_used_at = now
            session.add(row)
    return Authenticated(user, row)
