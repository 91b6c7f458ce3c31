"""Remote bots: who may have one, whom they may challenge, who may connect to a seat."""

from __future__ import annotations

import pytest
from sqlmodel import select

from ladder.models import Bot, MatchKind
from ladder.services import outside
from ladder.services.bots import seed_house_bots
from ladder.services.errors import Invalid, NotFound
from ladder.services.matches import matchmaking_pool
from ladder.services.users import sign_up


@pytest.fixture
def homer(session):
    seed_house_bots(session=session, username="house")
    return sign_up(session=session, data={"username": "homer", "password": "correct horse battery"})


def test_a_remote_bot_is_made_once_and_never_joins_the_sandboxed_pool(session, homer):
    first = outside.remote_bot(session=session, user_id=homer.id, game="treasure", name="homebot")
    again = outside.remote_bot(session=session, user_id=homer.id, game="treasure", name="homebot", open_ladder=True)
    assert first.bot.id == again.bot.id and again.bot.remote and again.bot.open_ladder
    assert first.version.code == b"" and first.version.status == "active"
    pool = matchmaking_pool(session=session, game="treasure")
    assert first.version.id not in {c.bot for c in pool.candidates}
    remote_pool = matchmaking_pool(session=session, game="treasure", remote=True)
    assert first.version.id in {c.bot for c in remote_pool.candidates}


@pytest.mark.parametrize("game, name", [("nope", "homebot"), ("treasure", "bad name!"), ("treasure", "")])
def test_bad_names_are_refused(session, homer, game, name):
    with pytest.raises(Invalid):
        outside.remote_bot(session=session, user_id=homer.id, game=game, name=name)


def test_a_challenge_seats_the_remote_bot_against_sandboxed_bots_only(session, homer):
    match, seat = outside.remote_challenge(session=session, user_id=homer.id, game="treasure", bot_name="homebot",
                                           against=["house/careful"])
    assert match.kind == MatchKind.CHALLENGE and not match.ranked and seat == 0
    assert outside.remote_seats(session=session, match_id=match.id) == {0}
    assert outside.seat_access(session=session, user_id=homer.id, match_id=match.id, seat=0).seat == 0
    with pytest.raises(NotFound):  # the house bot's seat is nobody's to connect to
        outside.seat_access(session=session, user_id=homer.id, match_id=match.id, seat=1)
    marge = sign_up(session=session, data={"username": "marge", "password": "correct horse battery"})
    with pytest.raises(NotFound):
        outside.seat_access(session=session, user_id=marge.id, match_id=match.id, seat=0)
    outside.remote_bot(session=session, user_id=marge.id, game="treasure", name="far")
    with pytest.raises(Invalid, match="remote"):
        outside.opponent_versions(session=session, game="treasure", names=["marge/far"])
    with pytest.raises(NotFound):
        outside.opponent_versions(session=session, game="treasure", names=["house/nobody"])


def test_remote_bots_count_against_the_daily_limit_of_uploads(session, homer):
    """A remote bot's creation is one upload of the day (its placeholder version), as a sandboxed
    bot's first upload is: 45 of 45 were made before. The bots already made are still found."""
    from ladder.config import Settings
    from ladder.services.limits import LimitExceeded

    settings = Settings(env="test", uploads_per_day=3)
    for number in range(3):
        outside.remote_bot(session=session, user_id=homer.id, game="treasure", name=f"home{number}", settings=settings)
    with pytest.raises(LimitExceeded, match="the most allowed") as refused:
        outside.remote_bot(session=session, user_id=homer.id, game="treasure", name="home3", settings=settings)
    assert refused.value.retry_after > 0
    with pytest.raises(LimitExceeded):
        outside.remote_challenge(session=session, user_id=homer.id, game="treasure", bot_name="home4",
                                 against=["house/careful"], settings=settings)
    again = outside.remote_bot(session=session, user_id=homer.id, game="treasure", name="home0", settings=settings)
    assert again.bot.name == "home0"
    assert {b.name for b in session.exec(select(Bot).where(Bot.owner_id == homer.id))} == {"home0", "home1", "home2"}
