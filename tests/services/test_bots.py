"""Bots and versions: names, immutable numbered uploads, the validator hook, retiring, starter bots."""

from __future__ import annotations

import hashlib
import importlib.util

import pytest

from bots import builtin_bots
from ladder.models import Bot, BotVersion, Rating, VersionStatus
from ladder.services import bots
from ladder.services.errors import Conflict, Forbidden, Invalid


def test_create_bot_checks_name_game_and_uniqueness(world, session):
    alice = world.user("alice")
    bot = bots.create_bot(session=session, owner_id=alice.id, data={"name": "Smaug", "game": "treasure"})
    assert (bot.owner_id, bot.game, bot.name, bot.retired) == (alice.id, "treasure", "Smaug", False)
    with pytest.raises(Conflict, match="already have"):
        bots.create_bot(session=session, owner_id=alice.id, data={"name": "Smaug", "game": "treasure"})
    bots.create_bot(session=session, owner_id=alice.id, data={"name": "Smaug", "game": "drachengold"})
    with pytest.raises(Invalid, match="unknown game"):
        bots.create_bot(session=session, owner_id=alice.id, data={"name": "x", "game": "chess"})
    with pytest.raises(Invalid, match="name"):
        bots.create_bot(session=session, owner_id=alice.id, data={"name": "../etc", "game": "treasure"})


def test_versions_are_numbered_hashed_and_pending(world, session):
    bot, _ = world.bot()
    code = b"import sys\n" * 10
    v2 = bots.add_version(session=session, bot_id=bot.id, code=code, filename="bot.py", placement_games=7)
    v3 = bots.add_version(session=session, bot_id=bot.id, code=b"x", filename="bot.zip")
    assert (v2.number, v3.number) == (2, 3)
    assert v2.sha256 == hashlib.sha256(code).hexdigest() and v2.size == len(code)
    assert (v2.status, v2.placement_owed) == (VersionStatus.PENDING, 7)
    assert session.get(BotVersion, v2.id).code == code
    assert [v.number for v in bots.list_versions(session=session, bot_id=bot.id)] == [3, 2, 1]


def test_a_refused_package_is_kept_as_rejected_with_the_reason(world, session):
    bot, _ = world.bot()
    calls = []

    def validator(code: bytes, filename: str) -> None:
        calls.append((code, filename))
        raise ValueError("no bot.py at the top of the archive")

    version = bots.add_version(session=session, bot_id=bot.id, code=b"PK..", filename="b.zip", validator=validator)
    assert calls == [(b"PK..", "b.zip")]
    assert version.status == VersionStatus.REJECTED
    assert version.rejection_reason == "no bot.py at the top of the archive"
    ok = bots.add_version(session=session, bot_id=bot.id, code=b"x", filename="b.py", validator=lambda c, f: None)
    assert ok.status == VersionStatus.PENDING


def test_uploads_are_limited_and_owner_only(world, session):
    bot, _ = world.bot()
    mallory = world.user("mallory")
    with pytest.raises(Invalid, match="at most 10 bytes"):
        bots.add_version(session=session, bot_id=bot.id, code=b"x" * 11, filename="b.py", max_bytes=10)
    with pytest.raises(Invalid, match="empty"):
        bots.add_version(session=session, bot_id=bot.id, code=b"", filename="b.py")
    with pytest.raises(Invalid, match="file name"):
        bots.add_version(session=session, bot_id=bot.id, code=b"x", filename="../b.py")
    with pytest.raises(Forbidden):
        bots.add_version(session=session, bot_id=bot.id, code=b"x", filename="b.py", acting_user_id=mallory.id)
    assert [v.number for v in bots.list_versions(session=session, bot_id=bot.id)] == [1]


def test_activating_a_version_retires_the_previous_one(world, session):
    bot, v1 = world.bot()
    v2 = bots.add_version(session=session, bot_id=bot.id, code=b"v2", filename="b.py")
    bots.activate_version(session=session, version_id=v2.id)
    assert session.get(BotVersion, v1.id).status == VersionStatus.RETIRED
    assert bots.active_version(session=session, bot_id=bot.id).id == v2.id
    assert session.get(Rating, bot.id) is not None  # on the leaderboard once it has an active version


def test_retiring_a_bot_retires_its_versions_and_stops_uploads(world, session):
    bot, v1 = world.bot()
    pending = bots.add_version(session=session, bot_id=bot.id, code=b"v2", filename="b.py")
    with pytest.raises(Forbidden):
        bots.retire_bot(session=session, bot_id=bot.id, acting_user_id=world.user().id)
    bots.retire_bot(session=session, bot_id=bot.id, acting_user_id=bot.owner_id)
    assert session.get(Bot, bot.id).retired
    assert {session.get(BotVersion, v).status for v in (v1.id, pending.id)} == {VersionStatus.RETIRED}
    with pytest.raises(Invalid, match="retired"):
        bots.add_version(session=session, bot_id=bot.id, code=b"v3", filename="b.py")


def test_retire_version(world, session):
    bot, v1 = world.bot()
    bots.retire_version(session=session, version_id=v1.id, acting_user_id=bot.owner_id)
    assert bots.active_version(session=session, bot_id=bot.id) is None


def test_starter_bots_are_seeded_once_as_house_bots(session):
    seeded = bots.seed_house_bots(session=session, username="house")
    assert sorted((b.game, b.name) for b in seeded) == sorted(builtin_bots())
    again = bots.seed_house_bots(session=session, username="house")
    assert [b.id for b in again] == [b.id for b in seeded]
    for bot in seeded:
        versions = bots.list_versions(session=session, bot_id=bot.id)
        assert len(versions) == 1 and versions[0].status == VersionStatus.ACTIVE
        assert versions[0].placement_owed == 0 and bot.builtin == bot.name
        module = builtin_bots()[(bot.game, bot.name)]
        with open(importlib.util.find_spec(module).origin, "rb") as fh:  # the shipped source file
            assert session.get(BotVersion, versions[0].id).code == fh.read()


def test_a_changed_starter_bot_gets_a_new_version(session):
    seeded = bots.seed_house_bots(session=session, games=["treasure"])
    assert {b.game for b in seeded} == {"treasure"}
    bot = seeded[0]
    # pretend the shipped file changed: the stored active version no longer matches it
    old = bots.active_version(session=session, bot_id=bot.id)
    bots.retire_version(session=session, version_id=old.id)
    fake = bots.add_version(session=session, bot_id=bot.id, code=b"older code", filename="x.py")
    bots.activate_version(session=session, version_id=fake.id)
    bots.seed_house_bots(session=session, games=["treasure"])
    current = bots.active_version(session=session, bot_id=bot.id)
    assert current.number == 3 and current.sha256 == old.sha256
