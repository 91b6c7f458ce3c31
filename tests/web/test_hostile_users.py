"""One hostile user with an ordinary account, with the site's default limits: poison uploads are
refused, a flood of challenges stops at the limit, and through it all the scheduler keeps queuing
rated matches, including for the bot the flood was aimed at (issue #9's done-when)."""

from __future__ import annotations

import random

from sqlalchemy import update
from sqlmodel import select
from web.helpers import GOOD_BOT

from ladder.models import Bot, Match, MatchStatus, Seat
from workers.queue.scheduler import schedule

POISON_NAMES = ["é" * 130 + ".py", "a" * 300 + ".py", "bot\x00.py", ".py", "a/.py", "BOT.PY/x.py"]


def _finish_ladder_matches(sessions) -> None:
    """What workers do, in short, to rated matches only: the hostile user's challenges stay queued."""
    with sessions() as session:
        session.exec(update(Match).where(Match.kind == "ladder", Match.status == MatchStatus.QUEUED)
                     .values(status=MatchStatus.FAILED, failure_reason="played by the test"))
        session.commit()


def test_poison_uploads_and_a_challenge_flood_do_not_stop_rated_play(app, site, build, sessions, settings):
    _, target = build.bot("alice", "honest")  # the bot the flood is aimed at
    site.signup("mallory")
    for name in POISON_NAMES:
        response = site.upload(GOOD_BOT, filename=name, name="poison")
        assert response.status_code == 400, name
    _, weapon = build.bot("mallory", "weapon")
    codes = [site.post(f"/bots/{weapon.bot_id}/challenge", {"opponents": [target.id]}, page=f"/bots/{weapon.bot_id}")
             .status_code for _ in range(12)]
    allowed = settings.challenges_per_target
    assert codes[:allowed] == [302] * allowed and set(codes[allowed:]) == {429}

    seated_target = 0
    for tick in range(4):
        queued = schedule(app.extensions["ladder"].sessions, settings, random.Random(tick))
        with sessions() as session:
            rated = [session.get(Match, i) for i in queued.ladder]
            assert any(m.kind == "ladder" for m in rated), f"tick {tick} queued no rated match"
            seats = session.exec(select(Seat.bot_version_id).where(Seat.match_id.in_([m.id for m in rated]))).all()
            seated_target += target.id in seats
            challenges = session.exec(select(Match).where(Match.kind == "challenge")).all()
            assert len(challenges) == allowed and {m.status for m in challenges} == {MatchStatus.QUEUED}
        _finish_ladder_matches(sessions)
    assert seated_target >= 1, "the challenged bot never got a rated table while challenges were queued"
    with sessions() as session:  # the refused uploads stored nothing: no bot, no validation game
        assert session.exec(select(Bot.id).where(Bot.name == "poison")).all() == []
        assert session.exec(select(Match.id).where(Match.kind == "validation")).all() == []
