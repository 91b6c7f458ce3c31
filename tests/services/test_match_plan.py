"""ladder/services/match_plan.py: a stored match read once into its plan, each seat typed by its kind;
a person's seat carries no code (the retired "person" bot is never staged)."""

from __future__ import annotations

import pytest
from service_support import add_user_bot, house_versions

from ladder.config import Settings
from ladder.match import Person, RemoteProgram, UploadedCode
from ladder.models import Bot, BotVersion
from ladder.services import outside, person_seat
from ladder.services.bots import seed_house_bots
from ladder.services.errors import NotFound
from ladder.services.match_plan import match_plan
from ladder.services.matches import queue_match


def test_uploaded_and_remote_seats_come_with_what_the_runner_needs(session):
    zipped = add_user_bot(session, username="alice", code=b"PK..", filename="My Bot!.zip")
    owner = session.get(Bot, zipped.bot_id).owner_id
    far = outside.remote_bot(session=session, user_id=owner, game="treasure", name="far")
    match = queue_match(session=session, game="treasure", seats=[zipped.id, far.version.id], seed=9)
    made = match_plan(session=session, match_id=match.id)
    code, remote = made.seats
    assert isinstance(code, UploadedCode) and isinstance(remote, RemoteProgram)
    assert (code.name, code.code, code.filename, code.version_id) == ("alice/slow v1", b"PK..", "bot.zip", zipped.id)
    assert code.data is not None and code.data.version == 0  # its bot data folder, empty so far
    assert remote.name == "alice/far (remote)" and remote.version_id == far.version.id
    assert (made.match_id, made.seed, made.game.name, made.options) == (match.id, 9, "treasure", match.options)


def test_a_persons_seat_is_a_person_with_their_clock_and_no_code(session, tmp_path):
    settings = Settings(env="test", instance_dir=tmp_path)
    seed_house_bots(session=session, username=settings.house_username)
    user = session.get(Bot, add_user_bot(session, username="bob", code=b"pass\n").bot_id).owner_id
    opponent = house_versions(session, "treasure")[0]
    match = person_seat.start(session=session, settings=settings, user_id=user, address="127.0.0.1",
                              game="treasure", seat=1, opponents=[session.get(BotVersion, opponent).bot_id])
    seat = match_plan(session=session, match_id=match.id).seats[1]
    assert seat == Person("bob (in person)", clock_s=settings.person_clock, version_id=seat.version_id)
    assert not hasattr(seat, "code")


def test_no_such_match_is_not_found(session):
    with pytest.raises(NotFound):
        match_plan(session=session, match_id=12345)
