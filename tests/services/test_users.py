"""Accounts: hashed passwords, the password policy, one name per user, the single-token functions
kept for older callers, password change ending every log-in, the system user."""

from __future__ import annotations

import hashlib

import pytest
from sqlmodel import select

from ladder.models import ApiToken, User, UserCreate
from ladder.services import logins, users
from ladder.services.errors import Conflict, Invalid


def test_sign_up_stores_an_argon2_hash_never_the_password(session):
    user = users.sign_up(session=session, data=UserCreate(username="Alice", password="correct horse"))
    stored = session.get(User, user.id)
    assert stored.username == "alice"  # names are case-insensitive: stored lowercase
    assert stored.password_hash.startswith("$argon2id$") and "correct horse" not in stored.password_hash


def test_authenticate_accepts_only_the_right_password(session):
    users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    assert users.authenticate(session=session, username="ALICE", password="correct horse").username == "alice"
    assert users.authenticate(session=session, username="alice", password="wrong horse") is None
    assert users.authenticate(session=session, username="nobody", password="correct horse") is None


def test_names_are_unique_whatever_the_case(session):
    users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    with pytest.raises(Conflict, match="taken"):
        users.sign_up(session=session, data={"username": "Alice", "password": "another one"})


@pytest.mark.parametrize(
    ("name", "password", "field"),
    [("al", "correct horse", "username"), ("al ice", "correct horse", "username"), ("alice", "short", "password")],
)
def test_sign_up_refuses_bad_input(session, name, password, field):
    with pytest.raises(Invalid, match=field):
        users.sign_up(session=session, data={"username": name, "password": password})


def test_api_token_is_shown_once_and_stored_hashed(session):
    user = users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    token = users.issue_api_token(session=session, user_id=user.id)
    assert token.startswith(users.TOKEN_PREFIX) and len(token) > 40
    stored = session.exec(select(ApiToken).where(ApiToken.user_id == user.id)).one()
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest() and token not in stored.token_hash
    # every scope: what the one token of before could do, and playing from outside (docs/remote.md)
    assert stored.scope_set == {"read", "upload", "play"}
    assert users.user_for_token(session=session, token=token).id == user.id
    assert users.user_for_token(session=session, token=token + "x") is None
    assert users.user_for_token(session=session, token="") is None


def test_a_new_token_replaces_the_old_and_revoking_ends_it(session):
    user = users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    old = users.issue_api_token(session=session, user_id=user.id)
    new = users.issue_api_token(session=session, user_id=user.id)
    assert users.user_for_token(session=session, token=old) is None
    assert users.user_for_token(session=session, token=new).id == user.id
    users.revoke_api_token(session=session, user_id=user.id)
    assert users.user_for_token(session=session, token=new) is None


def test_change_password_needs_the_old_one(session):
    user = users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    with pytest.raises(Invalid):
        users.change_password(session=session, user_id=user.id, old="wrong horse", new="battery staple")
    users.change_password(session=session, user_id=user.id, old="correct horse", new="battery staple")
    assert users.authenticate(session=session, username="alice", password="battery staple") is not None
    assert users.authenticate(session=session, username="alice", password="correct horse") is None


def test_change_password_applies_the_policy_and_ends_every_log_in(session):
    user = users.sign_up(session=session, data={"username": "alice", "password": "correct horse"})
    browsers = [logins.start(session=session, user_id=user.id, remember=r, days=30) for r in (False, True)]
    for weak, why in [("password", "common password"), ("alice2024", "user name"), ("short", "too short"),
                      ("correct horse", "same as the current")]:
        with pytest.raises(Invalid, match=why):
            users.change_password(session=session, user_id=user.id, old="correct horse", new=weak)
    assert all(logins.user_for(session=session, cookie_id=b) for b in browsers)  # refusals end nothing
    users.change_password(session=session, user_id=user.id, old="correct horse", new="battery staple")
    assert not any(logins.user_for(session=session, cookie_id=b) for b in browsers)


@pytest.mark.parametrize(("password", "why"), [
    ("password", "top-10 common password"), ("12345678", "top-10 common password"),
    ("alicealice", "contains your user name"), ("xAlice99x", "contains your user name"),
    ("qwertyuiop", "common password"), ("letmein123", "similar to a commonly used password"),
])
def test_sign_up_refuses_common_passwords_and_the_user_name_and_says_why(session, password, why):
    with pytest.raises(Invalid, match=why):
        users.sign_up(session=session, data={"username": "alice", "password": password})
    assert users.get_user_by_name(session=session, username="alice") is None


def test_system_user_exists_once_and_cannot_log_in(session):
    house = users.ensure_system_user(session=session, username="house")
    assert users.ensure_system_user(session=session, username="house").id == house.id
    assert house.is_system
    assert users.authenticate(session=session, username="house", password="") is None
    assert users.authenticate(session=session, username="house", password=users.UNUSABLE_PASSWORD) is None
    with pytest.raises(Invalid):
        users.issue_api_token(session=session, user_id=house.id)


def test_a_normal_user_cannot_become_the_system_user(session):
    users.sign_up(session=session, data={"username": "house", "password": "correct horse"})
    with pytest.raises(Conflict):
        users.ensure_system_user(session=session, username="house")
