"""The open ladder's scheduler tick: it pairs the lobby as the beat's tick runs it, queues nothing
while draining, and its matches leave the sandboxed ladder's queue target alone."""

from __future__ import annotations

import random

import pytest
from sqlmodel import select

from ladder.config import Settings
from ladder.models import Match
from ladder.relay.backends import MemoryRelay
from ladder.services import lobby, outside
from ladder.services.bots import seed_house_bots
from ladder.services.queue_control import set_draining
from ladder.services.users import sign_up
from workers.queue.lobby import schedule_open
from workers.queue.scheduler import _ladder_tables


@pytest.fixture
def waiting(sessions, tmp_path):
    """Two users' remote bots waiting in the treasure lobby."""
    with sessions() as session:
        seed_house_bots(session=session, username="house")
        for name in ("ann", "bob"):
            user = sign_up(session=session, data={"username": name, "password": "correct horse battery"})
            bot = outside.remote_bot(session=session, user_id=user.id, game="treasure", name="home").bot
            lobby.set_open(session=session, user_id=user.id, bot_id=bot.id, open_ladder=True)
            lobby.wait(session=session, user_id=user.id, bot_id=bot.id, address=name, per_user=4, per_address=8)
    return Settings(env="test", instance_dir=tmp_path, sandbox_mode="none", queue_target=1, tables_per_tick=1)


def test_draining_queues_no_open_match(sessions, waiting):
    with sessions() as session:
        set_draining(session=session, on=True)
    assert schedule_open(sessions, waiting, MemoryRelay()) == []
    with sessions() as session:
        set_draining(session=session, on=False)
    assert len(schedule_open(sessions, waiting, MemoryRelay(), rng=random.Random(1))) == 1


def test_an_open_match_does_not_fill_the_sandboxed_ladders_queue(sessions, waiting):
    made = schedule_open(sessions, waiting, MemoryRelay(), rng=random.Random(1))
    assert len(made) == 1
    with sessions() as session:
        queued = _ladder_tables(session, "treasure", waiting, random.Random(2))
        assert len(queued) == 1  # the target of 1 is not met by the open ladder's match
        assert session.exec(select(Match.id).where(Match.id.in_(queued), Match.id == made[0])).first() is None
