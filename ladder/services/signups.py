"""Sign-up addresses: kept as keyed hashes for a retention period, to limit accounts per address
and to refuse a banned user's addresses for as long as the ban lasts.

An address is personal data, so it is never stored: only HMAC-SHA256(key, address), where the key
is derived from the site's secret key (`address_key`). Without the secret key the hashes cannot be
tested against guessed addresses (an IPv4 address alone is a 2**32 search); rows older than the
retention period (settings.signup_address_days) are deleted at the next sign-up. A ban copies the
banned user's address hashes to `address_bans`, which outlive the retention period until the ban
ends. docs/operations.md ("Moderation") says this for the operator's privacy notice.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_
from sqlmodel import Session, delete, select

from ladder.models import AddressBan, SignupAddress, utcnow
from ladder.services.common import atomic
from ladder.services.errors import Forbidden


def address_key(secret_key: str) -> bytes:
    """The HMAC key for addresses, derived from the secret key for this one use (so the hashes
    say nothing about the secret key, and nothing else keyed by it can be matched with them)."""
    return hmac.new(secret_key.encode(), b"ladder sign-up address v1", hashlib.sha256).digest()


def address_hash(key: bytes, address: str) -> str:
    return hmac.new(key, address.strip().lower().encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class SignupPlace:
    """Where a sign-up comes from, and the rules for it (from the settings, passed in)."""

    address_hash: str
    accounts_per_address: int
    retention_days: int


class AddressRefused(Forbidden):
    """A sign-up from a banned address, or one that has made its share of accounts."""


def check(session: Session, place: SignupPlace, now: datetime | None = None) -> None:
    """AddressRefused (with the reason) when this address may not sign up now."""
    now = now or utcnow()
    ban = session.exec(select(AddressBan).where(AddressBan.address_hash == place.address_hash,
                                                or_(AddressBan.until.is_(None), AddressBan.until > now))).first()
    if ban is not None:
        until = "for good" if ban.until is None else f"until {ban.until:%Y-%m-%d %H:%M} UTC"
        raise AddressRefused(f"sign-ups from this address are refused {until}: an account made from it was banned")
    since = now - timedelta(days=place.retention_days)
    made = session.exec(select(func.count()).select_from(SignupAddress).where(
        SignupAddress.address_hash == place.address_hash, SignupAddress.created_at > since)).one()
    if made >= place.accounts_per_address:
        raise AddressRefused(f"{made} accounts were made from this address in the last {place.retention_days} "
                             "days, the most this ladder allows: log in to one of them")


def remember(session: Session, place: SignupPlace, user_id: int, now: datetime | None = None) -> None:
    """Keep the address of a new account (in the caller's transaction), and forget expired ones."""
    now = now or utcnow()
    session.exec(delete(SignupAddress).where(SignupAddress.created_at <= now - timedelta(days=place.retention_days)))
    session.exec(delete(AddressBan).where(AddressBan.until.is_not(None), AddressBan.until <= now))
    session.add(SignupAddress(address_hash=place.address_hash, user_id=user_id, created_at=now))


def ban_addresses(*, session: Session, user_id: int, until: datetime | None) -> int:
    """Refuse sign-ups from every kept address of the user until `until` (None: for good); returns
    how many addresses. Joins the caller's transaction."""
    hashes = set(session.exec(select(SignupAddress.address_hash).where(SignupAddress.user_id == user_id)))
    with atomic(session):
        for digest in hashes:
            row = session.get(AddressBan, digest)
            if row is None:
                session.add(AddressBan(address_hash=digest, user_id=user_id, until=until))
            elif row.until is not None and (until is None or until > row.until):
                row.until = until
                session.add(row)
    return len(hashes)


def lift_bans(*, session: Session, user_id: int) -> int:
    with atomic(session):
        return session.exec(delete(AddressBan).where(AddressBan.user_id == user_id)).rowcount
