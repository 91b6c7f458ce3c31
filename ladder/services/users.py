"""Accounts: sign up, log in, change the password, the system user that owns the starter bots.

Passwords are hashed with argon2id (argon2-cffi defaults, rehashed on login when the defaults
move) and must pass the policy in ladder/services/passwords.py. API tokens live in
ladder/services/tokens.py; the single-token functions here are kept for callers written before
tokens had names and scopes.
"""

from __future__ import annotations

import functools
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import ValidationError
from sqlmodel import Session, select

from ladder.models import User, UserCreate, utcnow
from ladder.services import logins, names, signups, tokens
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict, Invalid, NotFound
from ladder.services.passwords import password_problem

TOKEN_PREFIX = tokens.TOKEN_PREFIX
UNUSABLE_PASSWORD = "!"  # never a valid argon2 hash: the system user cannot log in

_hasher = PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash to verify against for unknown users, so they cost as much time as known ones. Made on
    first use, not at import: a worker process imports this module and never logs anyone in, and
    one argon2 hash (64 MiB, about a second on a loaded machine) slowed every worker start."""
    return _hasher.hash("timing equaliser")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def sign_up(*, session: Session, data: UserCreate | dict, deny_list: str = "-",
            place: signups.SignupPlace | None = None) -> User:
    """A new user; Invalid for a bad name or password or one the deny list refuses (services/names.py),
    Conflict when the name is taken, signups.AddressRefused from a banned address or one that made
    its share of accounts (`place`: where the sign-up comes from; kept, as a keyed hash)."""
    try:
        data = UserCreate.model_validate(data if isinstance(data, dict) else data.model_dump())
    except ValidationError as exc:
        raise Invalid("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())) from None
    refused = names.refusal(data.username, deny_list)
    if refused is not None:
        raise Invalid(refused)
    if get_user_by_name(session=session, username=data.username) is not None:
        raise Conflict(f"the name {data.username!r} is taken")
    problem = password_problem(data.password, username=data.username)
    if problem is not None:
        raise Invalid(problem)
    if place is not None:
        signups.check(session, place)  # before the password is hashed: a refused address costs nothing
    user = User(username=data.username, email=data.email, password_hash=hash_password(data.password))
    with atomic(session, conflict=f"the name {data.username!r} is taken"):
        if place is not None:
            signups.check(session, place)  # again inside the write transaction: two at once count
        session.add(user)
        if place is not None:
            session.flush()
            signups.remember(session, place, user.id)
    return user


def suspension_notice(user: User, now: datetime | None = None) -> str | None:
    """What a suspended user is told when they try to log in; None when they are not suspended
    (or the suspension has ended). Set by services/moderation.py."""
    if not user.suspended:
        return None
    if user.suspended_until is not None and user.suspended_until <= (now or utcnow()):
        return None
    until = "for good" if user.suspended_until is None else f"until {user.suspended_until:%Y-%m-%d %H:%M} UTC"
    return f"This account is suspended {until}: {user.suspension_reason}"


def authenticate(*, session: Session, username: str, password: str) -> User | None:
    """The user when the password matches, else None (same answer for an unknown name)."""
    user = get_user_by_name(session=session, username=username)
    if user is None or user.is_system:
        _verify(_dummy_hash(), password)
        return None
    if not _verify(user.password_hash, password):
        return None
    if _hasher.check_needs_rehash(user.password_hash):
        with atomic(session):
            user.password_hash = hash_password(password)
            session.add(user)
    return user


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def change_password(*, session: Session, user_id: int, old: str, new: str) -> User:
    """Set a new password (the current one must be given) and end every log-in of the user: a
    browser someone else kept logged in is logged out too. The caller starts a fresh log-in."""
    user = fetch(session, User, user_id, "user")
    if user.is_system or not _verify(user.password_hash, old):
        raise Invalid("the current password is wrong")
    problem = password_problem(new, username=user.username)
    if problem is not None:
        raise Invalid(problem)
    if new == old:
        raise Invalid("the new password is the same as the current one")
    with atomic(session):
        user.password_hash = hash_password(new)
        session.add(user)
    logins.end_all(session=session, user_id=user.id)
    return user


def get_user(*, session: Session, user_id: int) -> User:
    return fetch(session, User, user_id, "user")


def user_of(*, session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def get_user_by_name(*, session: Session, username: str) -> User | None:
    username = username.strip().lower()
    if not username or len(username) > 32 or "\x00" in username:  # nobody; PostgreSQL refuses NUL in text
        return None
    return session.exec(select(User).where(User.username == username)).first()


def issue_api_token(*, session: Session, user_id: int) -> str:
    """A new token with every scope, replacing all of the user's tokens (the one-token API of before)."""
    tokens.revoke_all(session=session, user_id=user_id)
    return tokens.create(session=session, user_id=user_id, name="token", scopes=tokens.ALL_SCOPES)[1]


def revoke_api_token(*, session: Session, user_id: int) -> None:
    """Revoke every token of the user."""
    tokens.revoke_all(session=session, user_id=user_id)


def user_for_token(*, session: Session, token: str) -> User | None:
    """The token's user, or None for an unknown, revoked or malformed token."""
    found = tokens.authenticate(session=session, token=token)
    return found.user if found is not None else None


def ensure_system_user(*, session: Session, username: str = "house") -> User:
    """The system user (created on first use); it owns the starter bots and cannot log in."""
    user = get_user_by_name(session=session, username=username)
    if user is not None:
        if not user.is_system:
            raise Conflict(f"{username!r} is a normal user; choose another LADDER_HOUSE_USERNAME")
        return user
    user = User(username=username, password_hash=UNUSABLE_PASSWORD, is_system=True)
    with atomic(session, conflict=f"the system user {username!r} was created concurrently; retry"):
        session.add(user)
    return user


def set_admin(*, session: Session, username: str, admin: bool = True) -> User:
    """Grant (or revoke) the admin role: admins organise tournaments. `ladder admin grant USER`."""
    with atomic(session):
        user = get_user_by_name(session=session, username=username)
        if user is None:
            raise NotFound(f"no user {username!r}")
        if user.is_system:
            raise Invalid(f"{username!r} is a system user")
        user.is_admin = admin
        session.add(user)
    return user
