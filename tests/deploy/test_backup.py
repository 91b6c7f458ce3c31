"""The backup and restore docs/operations.md describes, on PostgreSQL: `pg_dump -Fc` of a live
ladder (a match running at the time), `pg_restore` into a fresh database, the instance brought up
on it (`prepare_instance`, as `ladder migrate --release-running` does), the running claim released
at once rather than after the stale timeout, ratings recomputed exactly, a replay verified."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from datetime import timedelta

from needs import unavailable
from service_support import house_versions, pg_url, record_played  # noqa: F401 (fixture)
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ladder.cli.serve import prepare_instance
from ladder.config import Settings
from ladder.db import make_engine, session_factory
from ladder.games import get_game
from ladder.models import Match, utcnow
from ladder.replay import loads_replay, verify_replay
from ladder.services import matches, pages
from ladder.services.ratings import missing_rating_changes, recompute_ratings


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        unavailable(f"{name} is not installed (apt-get install postgresql-client)")
    return path


def _libpq(url: str) -> str:
    """The URL as pg_dump and pg_restore take it (no SQLAlchemy driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_a_dump_of_a_live_ladder_restores_with_claims_released_ratings_exact_and_replays_verified(
        pg_url, tmp_path):  # noqa: F811
    live = Settings(env="test", instance_dir=tmp_path, database_url=pg_url)
    prepare_instance(live, requeue_running=False)
    engine = make_engine(live)
    game = get_game("treasure")
    with session_factory(engine)() as session:
        versions = house_versions(session, "treasure", game.validation_bots)
        names = list(game.validation_bots)
        played = [record_played(session, "treasure", versions, names, utcnow() - timedelta(minutes=5 - i), seed=i)[0]
                  for i in range(4)]
        running = matches.queue_match(session=session, game="treasure", seats=versions)
        matches.claim_match(session=session, match_id=running.id, worker_id="deadhost:4242:abcd0123")
        # ids, not the rows: the recompute reads one snapshot and rolls it back, which expires them
        running_id, played_ids = running.id, [match.id for match in played]
        assert recompute_ratings(session=session) == []
    engine.dispose()

    dump = tmp_path / "ladder.dump"
    subprocess.run([_tool("pg_dump"), "-Fc", "-f", str(dump), _libpq(pg_url)], check=True, capture_output=True,
                   timeout=120)
    restored_name = f"ladder_restore_{uuid.uuid4().hex[:8]}"
    admin = create_engine(make_url(pg_url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{restored_name}"'))
    restored_url = make_url(pg_url).set(database=restored_name).render_as_string(hide_password=False)
    try:
        done = subprocess.run([_tool("pg_restore"), "--no-owner", "--exit-on-error", "-d", _libpq(restored_url),
                               str(dump)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        restored = Settings(env="test", instance_dir=tmp_path, database_url=restored_url)
        facts = prepare_instance(restored, requeue_running=True)
        assert facts["requeued"] == 1 and facts["from"] == facts["to"]  # the claim of a worker that is gone
        engine = make_engine(restored)
        with session_factory(engine)() as session:
            row = session.get(Match, running_id)
            assert (row.status, row.claimed_by) == ("queued", None)
            assert recompute_ratings(session=session) == [] and missing_rating_changes(session=session) == []
            for match_id in played_ids:
                replay = loads_replay(pages.replay_json(session=session, match_id=match_id))
                assert verify_replay(replay).ok, match_id
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)'))
        admin.dispose()
