"""`ladder admin grant|revoke USER`: the organizer role for tournaments; `ladder admin drain`."""

from click.testing import CliRunner
from sqlmodel import select

from ladder.cli import main
from ladder.models import BotVersion, User
from ladder.services.bots import seed_house_bots
from ladder.services.matches import claim_match, queue_match
from ladder.services.results import MatchOutcome, SeatOutcome, record_result


def test_grant_and_revoke_the_admin_role(engine, db_url, session, tmp_path):
    session.add(User(username="alice", password_hash="!"))
    session.commit()
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}

    def admin_flag():
        session.rollback()
        return session.exec(select(User.is_admin).where(User.username == "alice")).one()

    result = CliRunner().invoke(main, ["admin", "grant", "Alice"], env=env)
    assert result.exit_code == 0 and "alice is now an admin" in result.output, result.output
    assert admin_flag() is True
    result = CliRunner().invoke(main, ["admin", "revoke", "alice"], env=env)
    assert result.exit_code == 0 and admin_flag() is False
    result = CliRunner().invoke(main, ["admin", "grant", "nobody"], env=env)
    assert result.exit_code == 2 and "no user 'nobody'" in result.output


def test_drain_switches_and_waits_for_no_open_match(engine, db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}
    status = CliRunner().invoke(main, ["admin", "drain"], env=env)
    assert status.exit_code == 0 and "draining: off" in status.output, status.output
    seed_house_bots(session=session, games=["treasure"])
    versions = session.exec(select(BotVersion.id).order_by(BotVersion.id)).all()[:2]
    match = queue_match(session=session, game="treasure", seats=versions)
    on = CliRunner().invoke(main, ["admin", "drain", "on", "--wait", "0.3"], env=env)
    assert on.exit_code == 1 and "draining: on" in on.output and "1 queued, 0 running" in on.output, on.output
    assert "not drained after 0.3 s" in on.output
    claim_match(session=session, match_id=match.id, worker_id="w")
    record_result(session=session, match_id=match.id, worker_id="w",
                  outcome=MatchOutcome([SeatOutcome(rank=1), SeatOutcome(rank=2)]))
    drained = CliRunner().invoke(main, ["admin", "drain", "status", "--wait", "5"], env=env)
    assert drained.exit_code == 0 and "draining: on" in drained.output and "0 queued, 0 running" in drained.output
    off = CliRunner().invoke(main, ["admin", "drain", "off"], env=env)
    assert off.exit_code == 0 and "draining: off" in off.output
