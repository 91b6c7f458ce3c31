"""workers/queue/jobs.py with bot data: each seat's snapshot goes to the runner, the changes it
hands back are kept with the result, and a match the ladder voided on every attempt keeps nothing."""

from __future__ import annotations

import pytest
from match_support import record_of
from service_support import house_versions

from ladder.bot.data import Changes, Collected, Snapshot, read_zip
from ladder.config import Settings
from ladder.models import Bot, BotVersion, Match
from ladder.services import botdata
from ladder.services.bots import seed_house_bots
from ladder.services.matches import queue_match
from ladder.storage import open_store
from workers.match.blame import LadderFault
from workers.queue.jobs import play_match

from .test_tasks import fake_replay


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(env="test", instance_dir=tmp_path, sandbox_mode="strict", bot_data_max_bytes=1000,
                    bot_data_max_files=5)


@pytest.fixture
def seats(session, settings):
    seed_house_bots(session=session, username=settings.house_username)
    return house_versions(session, "treasure")[:2]


def _data(session, version_id: int, settings) -> tuple[int, dict[str, bytes]]:
    """The bot's latest data, its zip read from the store the worker wrote it to."""
    bot = session.get(Bot, session.get(BotVersion, version_id).bot_id)
    version, data = botdata.download(session=session, bot_id=bot.id, user_id=bot.owner_id,
                                     store=open_store(settings))
    return version, read_zip(data, botdata.STORED)


class DataRunner:
    """Records what each seat was given; seat 0 writes `counter` = its version + 1."""

    def __init__(self):
        self.given: list[list[Snapshot]] = []

    def __call__(self, plan, env):
        bot_data = [seat.data for seat in plan.seats]
        self.given.append(bot_data)
        assert env.data_cap.max_bytes == 1000 and env.data_cap.max_files == 5
        written = Changes({"counter": str(bot_data[0].version + 1).encode()})
        return record_of(plan, fake_replay(len(plan.seats), [1, 2]), data=[Collected(changes=written), None])


def test_each_match_starts_from_the_latest_and_keeps_its_changes(session, sessions, settings, seats):
    runner = DataRunner()
    for _ in range(2):
        match = queue_match(session=session, game="treasure", seats=seats)
        assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w",
                          runner=runner).status == "finished"
    assert [(s.version, s.files, s.keep) for s in runner.given[1]] == [(1, {"counter": b"1"}, True), (0, {}, True)]
    session.expire_all()
    assert _data(session, seats[0], settings) == (2, {"counter": b"2"})
    assert _data(session, seats[1], settings) == (0, {})


def test_a_match_the_ladder_voided_keeps_nothing(session, sessions, settings, seats):
    def void(plan, env):
        raise LadderFault("the sandbox could not start the bot")

    match = queue_match(session=session, game="treasure", seats=seats)
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=void).status == "failed"
    session.expire_all()
    assert session.get(Match, match.id).status == "failed"
    assert _data(session, seats[0], settings) == (0, {})
