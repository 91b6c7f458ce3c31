"""Sign-up addresses: a keyed hash only, kept for the retention period; accounts per address
limited; a banned user's addresses refused for as long as the ban lasts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from ladder.models import AddressBan, SignupAddress, utcnow
from ladder.services import moderation, signups, users
from ladder.services.audit import Actor

KEY = signups.address_key("k" * 40)
PASSWORD = "a long pass phrase 9"


def _place(address="203.0.113.7", limit=2, days=90):
    return signups.SignupPlace(signups.address_hash(KEY, address), limit, days)


def _sign_up(session, name, place):
    return users.sign_up(session=session, data={"username": name, "password": PASSWORD}, place=place)


def test_only_a_keyed_hash_is_kept_and_the_key_is_the_secret_keys(session):
    user = _sign_up(session, "alice", _place())
    [row] = session.exec(select(SignupAddress)).all()
    assert row.user_id == user.id and "203.0.113.7" not in row.address_hash and len(row.address_hash) == 64
    assert row.address_hash != signups.address_hash(signups.address_key("another secret key " * 2), "203.0.113.7")


def test_accounts_per_address_are_limited_within_the_retention_period(session):
    _sign_up(session, "alice", _place())
    _sign_up(session, "bobby", _place())
    with pytest.raises(signups.AddressRefused, match="2 accounts were made from this address"):
        _sign_up(session, "carol", _place())
    assert users.get_user_by_name(session=session, username="carol") is None  # nothing written
    _sign_up(session, "carol", _place(address="198.51.100.1"))  # another address is another count
    old = utcnow() - timedelta(days=91)
    for row in session.exec(select(SignupAddress)):
        row.created_at = old  # past the retention period
        session.add(row)
    session.commit()
    _sign_up(session, "dave1", _place())
    assert len(session.exec(select(SignupAddress)).all()) == 1  # the expired rows were deleted


def test_a_ban_refuses_the_users_addresses_until_it_is_lifted(session):
    cheat = _sign_up(session, "cheat", _place(limit=5))
    moderation.suspend_user(session=session, actor=Actor("mod"), user_id=cheat.id, reason="sock puppets",
                            ban=True)
    with pytest.raises(signups.AddressRefused, match="refused for good"):
        _sign_up(session, "cheat2", _place(limit=5))
    moderation.lift_suspension(session=session, actor=Actor("mod"), user_id=cheat.id, reason="appeal")
    assert session.exec(select(AddressBan)).all() == []
    _sign_up(session, "cheat2", _place(limit=5))


def test_a_ban_with_an_end_refuses_only_until_then(session):
    cheat = _sign_up(session, "cheat", _place(limit=5))
    until = utcnow() + timedelta(days=7)
    banned = signups.ban_addresses(session=session, user_id=cheat.id, until=until)
    assert banned == 1
    with pytest.raises(signups.AddressRefused, match="until"):
        signups.check(session, _place(limit=5))
    signups.check(session, _place(limit=5), now=until + timedelta(seconds=1))  # over: allowed


def test_a_ban_until_a_time_refuses_the_address_until_then(session):
    cheat = _sign_up(session, "cheat", _place(limit=5))
    until = utcnow() + timedelta(days=2)
    moderation.suspend_user(session=session, actor=Actor("mod"), user_id=cheat.id, reason="x", until=until, ban=True)
    [ban] = session.exec(select(AddressBan)).all()
    assert ban.until == until
