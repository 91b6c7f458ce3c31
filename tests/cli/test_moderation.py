"""`ladder admin` moderator commands on an embedded instance, each logged with the operator's login."""

from __future__ import annotations

from sqlmodel import select

from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.models import Match, ModerationAction
from tests.cli.test_service import play_some, run


def _rows(instance, model):
    engine = make_engine(Settings(instance_dir=instance))
    with session_factory(engine)() as session:
        rows = session.exec(select(model)).all()
    engine.dispose()
    return rows


def test_void_by_id_rewrites_the_ratings_and_is_logged(tmp_path):
    assert run(["migrate"], tmp_path).exit_code == 0
    play_some(tmp_path, 3)
    first = min(m.id for m in _rows(tmp_path, Match))
    voided = run(["admin", "void", "--match", str(first), "--reason", "test void"], tmp_path)
    assert voided.exit_code == 0, voided.output
    assert f"voided 1 matches ({first})" in voided.output
    assert run(["ratings", "recompute"], tmp_path).exit_code == 0
    again = run(["admin", "void", "--match", str(first), "--reason", "twice"], tmp_path)
    assert again.exit_code == 2 and "no finished match" in again.output
    missing = run(["admin", "void", "--match", str(first)], tmp_path)
    assert missing.exit_code == 2 and "--reason" in missing.output
    [entry] = _rows(tmp_path, ModerationAction)
    assert (entry.action, entry.target_id, entry.reason) == ("void_matches", first, "test void")
    assert entry.actor.startswith("cli:")
    match = next(m for m in _rows(tmp_path, Match) if m.id == first)
    assert match.void_reason == "test void" and match.voided_at is not None


def test_an_organizer_opens_a_season_from_the_command_line_and_a_bad_one_is_refused(tmp_path):
    from ladder.models import Season, User

    assert run(["migrate"], tmp_path).exit_code == 0
    engine = make_engine(Settings(instance_dir=tmp_path))
    with session_factory(engine)() as session:
        session.add_all([User(username="org", password_hash="!", is_admin=True),
                         User(username="joe", password_hash="!")])
        session.commit()
    engine.dispose()
    opened = run(["admin", "season", "open", "--game", "treasure", "--name", "Winter", "--ends", "2099-01-31",
                  "--organizer", "org", "--finalists", "6"], tmp_path)
    assert opened.exit_code == 0, opened.output
    assert "open for treasure until 2099-01-31 00:00 UTC" in opened.output
    refused = run(["admin", "season", "open", "--game", "treasure", "--name", "Spring", "--ends", "2099-03-01",
                   "--organizer", "joe"], tmp_path)
    assert refused.exit_code == 2 and "only an organizer" in refused.output
    listed = run(["admin", "season", "list", "--game", "treasure"], tmp_path)
    assert listed.exit_code == 0 and "Winter\topen\tends 2099-01-31 00:00 UTC" in listed.output
    [season] = _rows(tmp_path, Season)
    assert (season.name, season.finalists, season.status) == ("Winter", 6, "open")
