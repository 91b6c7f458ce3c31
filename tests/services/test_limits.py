"""Limits counted in the database: uploads per user per day, challenges in flight per user and per
opponent. They hold across web processes because they read the tables, not a process's memory."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ladder.config import Settings
from ladder.models import MatchStatus, utcnow
from ladder.services import bots, limits, matches
from ladder.services.limits import LimitExceeded

SETTINGS = Settings(env="test", uploads_per_day=3, challenges_in_flight=3, challenges_per_target=2)


def _upload(world, bot, when):
    version = bots.add_version(session=world.session, bot_id=bot.id, code=f"# {when}\n".encode(), filename="bot.py")
    version.created_at = when
    world.session.add(version)
    world.session.commit()
    return version


def test_uploads_per_day_counts_the_last_24_hours_of_the_user_only(world):
    alice, bob = world.user("alice"), world.user("bob")
    bot, _ = world.bot(alice)  # one version, uploaded now
    other, _ = world.bot(bob)
    now = utcnow()
    _upload(world, bot, now - timedelta(hours=25))  # outside the window
    _upload(world, bot, now - timedelta(hours=20))
    _upload(world, other, now)  # bob's do not count for alice
    limits.check_upload(session=world.session, settings=SETTINGS, user_id=alice.id, now=now)  # 2 of 3
    _upload(world, bot, now - timedelta(hours=1))
    with pytest.raises(LimitExceeded, match=r"uploaded 3 versions in the last 24 hours.*\(3\).*in 4 h 0 min") as hit:
        limits.check_upload(session=world.session, settings=SETTINGS, user_id=alice.id, now=now)
    assert hit.value.retry_after == 4 * 3600  # when the one from 20 hours ago leaves the window
    limits.check_upload(session=world.session, settings=SETTINGS, user_id=bob.id, now=now)
    later = now + timedelta(hours=4, seconds=1)
    limits.check_upload(session=world.session, settings=SETTINGS, user_id=alice.id, now=later)


def _challenge(world, user, mine, *opponents):
    return matches.queue_challenge(session=world.session, user_id=user.id, version_ids=[mine.id, *opponents])


def test_challenges_in_flight_per_user_and_per_opponent(world):
    alice = world.user("alice")
    _, mine = world.bot(alice)
    _, target_v = world.bot(world.user("bob"), name="target")
    _, other_v = world.bot(world.user("carol"))
    _, fourth = world.bot(world.user("dave"))
    check = lambda *ids: limits.check_challenge(  # noqa: E731
        session=world.session, settings=SETTINGS, user_id=alice.id, version_ids=[mine.id, *ids])
    check(target_v.id)
    first = _challenge(world, alice, mine, target_v.id)
    _challenge(world, alice, mine, target_v.id, other_v.id)
    with pytest.raises(LimitExceeded, match="2 challenges against target queued or running"):
        check(target_v.id)
    check(other_v.id)  # another opponent is still fine
    _challenge(world, alice, mine, fourth.id)
    with pytest.raises(LimitExceeded, match=r"You have 3 challenges queued or running, the most allowed \(3\)"):
        check(fourth.id)
    # a finished challenge frees its place; so does a failed one
    first.status = MatchStatus.FINISHED
    world.session.add(first)
    world.session.commit()
    check(target_v.id)


def test_another_users_challenges_do_not_count(world):
    alice, bob = world.user("alice"), world.user("bob")
    _, mine = world.bot(alice)
    _, bobs = world.bot(bob)
    _, target = world.bot(world.user("carol"))
    for _ in range(3):
        _challenge(world, bob, bobs, target.id)
    limits.check_challenge(session=world.session, settings=SETTINGS, user_id=alice.id, version_ids=[mine.id, target.id])


def test_limit_exceeded_is_not_a_form_refusal():
    # forms catch ServiceError and answer 400; a limit must reach the 429 handler instead
    from ladder.services.errors import ServiceError

    assert not issubclass(LimitExceeded, ServiceError)
    assert LimitExceeded("x", 0).retry_after == 1

