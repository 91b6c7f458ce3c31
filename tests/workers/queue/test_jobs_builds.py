"""The compile step on the ladder's own path, on SQLite and PostgreSQL with the real sandboxed
runner: a compiled upload is built at its validation game, the artifact is stored once and
reused by its rated matches; one that does not compile is rejected with the compiler's message."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from needs import unavailable
from service_support import add_user_bot, house_versions, match_row
from sqlmodel import func, select
from web.helpers import make_zip

from ladder.bot import runtimes
from ladder.config import Settings
from ladder.models import BotVersion, BuildArtifact, MatchStatus
from ladder.services.bots import seed_house_bots
from ladder.services.builds import build_logs
from ladder.services.matches import queue_match
from ladder.storage import open_store
from workers.build import builds
from workers.queue.jobs import play_match
from workers.queue.scheduler import schedule

KIT_C = (Path(__file__).parents[3] / "bots" / "examples" / "c" / "main.c").read_bytes()


@pytest.fixture
def settings(tmp_path, db_url, strict_sandbox) -> Settings:
    if not runtimes.available(runtimes.BY_NAME["c"])[0]:
        unavailable("the c runtime")
    return Settings(env="test", instance_dir=tmp_path, database_url=None if db_url.startswith("sqlite") else db_url,
                    sandbox_mode=strict_sandbox, match_stale_after=300, queue_target=4, tables_per_tick=2)


@pytest.fixture
def compiles(monkeypatch) -> list[str]:
    """Counts the compile step's runs (the real one runs)."""
    calls: list[str] = []
    real = builds.compile_bot

    def counted(staged, **kw):
        calls.append(staged.entry)
        return real(staged, **kw)

    monkeypatch.setattr(builds, "compile_bot", counted)
    return calls


def _validate(session, sessions, settings, version_id: int) -> int:
    schedule(sessions, settings, random.Random(1))
    session.rollback()
    session.expire_all()
    match_id = session.get(BotVersion, version_id).validation_match_id
    assert match_id is not None
    play_match(match_id, sessions=sessions, settings=settings, worker_id="w1")
    session.rollback()  # end this session's read: SQLite would keep showing its old snapshot
    session.expire_all()
    return match_id


def test_a_c_upload_builds_once_at_validation_and_its_rated_matches_reuse_the_artifact(
        session, sessions, settings, compiles):
    seed_house_bots(session=session, username=settings.house_username)
    version = add_user_bot(session, username="carol", code=make_zip({"main.c": KIT_C}), filename="bot.zip",
                           active=False)
    assert version.runtime == "c"
    validation = _validate(session, sessions, settings, version.id)
    stored = session.get(BotVersion, version.id)
    assert stored.status == "active", stored.rejection_reason
    assert match_row(session, validation).status == MatchStatus.FINISHED and compiles == ["main.c"]
    artifact = session.get(BuildArtifact, stored.build_key)
    blob = open_store(settings).get(f"builds/{stored.build_key}.tar")  # the tar is in the store, not the row
    assert artifact is not None and artifact.runtime == "c" and artifact.size == len(blob) > 0
    assert artifact.data is None
    assert build_logs(session=session, versions=[stored])[stored.id].toolchain.startswith("gcc")

    rated = queue_match(session=session, game="treasure", seats=[stored.id, house_versions(session, "treasure")[0]])
    assert play_match(rated.id, sessions=sessions, settings=settings, worker_id="w2").status == "finished"
    session.rollback()
    assert compiles == ["main.c"]  # the stored artifact ran: no second build
    assert session.exec(select(func.count()).select_from(BuildArtifact)).one() == 1


def test_an_upload_that_does_not_compile_is_rejected_with_the_compilers_message(
        session, sessions, settings, compiles):
    seed_house_bots(session=session, username=settings.house_username)
    broken = KIT_C + b"\nint this_is_not_c = ;\n"
    version = add_user_bot(session, username="dave", code=make_zip({"main.c": broken}), filename="bot.zip",
                           active=False)
    validation = _validate(session, sessions, settings, version.id)
    stored = session.get(BotVersion, version.id)
    assert stored.status == "rejected" and compiles == ["main.c"]
    assert stored.rejection_reason.startswith("the c build failed (gcc")
    assert "this_is_not_c" in stored.rejection_reason and "error" in stored.rejection_reason
    match = match_row(session, validation)
    assert match.status == MatchStatus.FAILED and "did not build" in match.failure_reason
    assert session.exec(select(func.count()).select_from(BuildArtifact)).one() == 0
    # nothing is retried: the next tick does not validate it again
    schedule(sessions, settings, random.Random(2))
    session.rollback()
    session.expire_all()
    assert session.get(BotVersion, version.id).status == "rejected" and compiles == ["main.c"]


def test_an_upload_for_a_runtime_the_operator_turned_off_is_rejected_at_validation(session, sessions, settings):
    seed_house_bots(session=session, username=settings.house_username)
    narrow = settings.model_copy(update={"runtimes": "python,node"})
    version = add_user_bot(session, username="erin", code=make_zip({"main.c": KIT_C}), filename="bot.zip", active=False)
    schedule(sessions, narrow, random.Random(1))
    session.rollback()
    session.expire_all()
    stored = session.get(BotVersion, version.id)
    assert stored.status == "rejected" and "does not run C (gcc, C17) bots" in stored.rejection_reason
