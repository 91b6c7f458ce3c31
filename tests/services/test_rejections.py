"""The cause of a rejection (the end of the validation game's stderr) goes to the owner only."""

from __future__ import annotations

from ladder.models import BotVersion
from ladder.services import bots, matches, results
from ladder.services.rejections import CAUSE_LINES, log_tail, rejection_causes
from ladder.services.results import MatchOutcome, SeatOutcome

TRACEBACK = "\n".join(
    ["starting up"] * 30
    + ["Traceback (most recent call last):", '  File "/bot/main.py", line 3, in <module>',
       "    import numpyy", "ModuleNotFoundError: No module named 'numpyy'"]
)


def _rejected(world, session, log=TRACEBACK):
    bots.seed_house_bots(session=session)
    bot, _ = world.bot()
    version = bots.add_version(session=session, bot_id=bot.id, code=b"import numpyy\n", filename="b.py")
    match = matches.queue_validation_match(session=session, version_id=version.id)
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    seats = [SeatOutcome(rank=3 if i == 0 else i, status="crash" if i == 0 else "ok", forfeited=i == 0,
                         reason="crash: exited with code 1 during start-up" if i == 0 else None,
                         log=log if i == 0 else "house bot log") for i in range(3)]
    results.record_result(session=session, match_id=match.id, outcome=MatchOutcome(seats))
    session.expire_all()
    return bot, session.get(BotVersion, version.id)


def test_the_owner_sees_the_last_lines_of_the_traceback(world, session):
    bot, version = _rejected(world, session)
    assert version.status == "rejected"
    versions = bots.list_versions(session=session, bot_id=bot.id)
    causes = rejection_causes(session=session, versions=versions, owner_id=bot.owner_id, viewer_id=bot.owner_id)
    assert list(causes) == [version.id]
    assert causes[version.id].endswith("ModuleNotFoundError: No module named 'numpyy'")
    assert "Traceback (most recent call last):" in causes[version.id]
    assert len(causes[version.id].splitlines()) == CAUSE_LINES
    assert "house bot log" not in causes[version.id]


def test_nobody_else_sees_the_cause_but_an_admin_does(world, session):
    bot, version = _rejected(world, session)
    versions = bots.list_versions(session=session, bot_id=bot.id)
    stranger, admin = world.user(), world.user(admin=True)
    for viewer, expected in ((None, False), (stranger.id, False), (admin.id, True)):
        causes = rejection_causes(session=session, versions=versions, owner_id=bot.owner_id, viewer_id=viewer)
        assert (version.id in causes) is expected
    assert TRACEBACK.splitlines()[-1] not in version.rejection_reason  # the public line keeps the log out


def test_a_rejection_without_a_log_has_no_cause(world, session):
    bot, _ = _rejected(world, session, log=None)
    versions = bots.list_versions(session=session, bot_id=bot.id)
    assert rejection_causes(session=session, versions=versions, owner_id=bot.owner_id, viewer_id=bot.owner_id) == {}


def test_log_tail_keeps_the_last_lines():
    assert log_tail("a\nb\nc\n\n", 2) == "b\nc"
