"""`ladder admin grant|revoke USER`: the organizer role for tournaments."""

from click.testing import CliRunner
from sqlmodel import select

from ladder.cli import main
from ladder.models import User


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
