"""`ladder admin prune [--dry-run]` and `ladder admin store status|move`, over the settings' store."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from click.testing import CliRunner
from service_support import house_versions, record_played
from sqlalchemy import text
from sqlmodel import select

from ladder.cli import main
from ladder.models import Replay
from ladder.services.bots import seed_house_bots
from ladder.storage import FolderStore


def test_prune_dry_run_prints_counts_and_bytes_and_deletes_nothing(engine, db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test",
           "LADDER_RETAIN_UNRANKED_DAYS": "5"}
    seed_house_bots(session=session, games=["treasure"])
    old = datetime.now(UTC) - timedelta(days=6)
    match, _ = record_played(session, "treasure", house_versions(session, "treasure")[:2], ["random", "careful"], old,
                             ranked=False)
    young, _ = record_played(session, "treasure", house_versions(session, "treasure")[:2], ["random", "careful"],
                             datetime.now(UTC), ranked=False, seed=8)
    dry = CliRunner().invoke(main, ["admin", "prune", "--dry-run"], env=env)
    assert dry.exit_code == 0, dry.output
    line = next(x for x in dry.output.splitlines() if x.startswith("unranked ladder replays"))
    assert line.startswith("unranked ladder replays: would delete 1 (") and "dry run: nothing was deleted" in dry.output
    session.rollback()
    assert session.get(Replay, match.id) is not None
    done = CliRunner().invoke(main, ["admin", "prune", "--json"], env=env)
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["unranked ladder replays"]["count"] == 1
    session.rollback()
    assert session.exec(select(Replay.match_id)).all() == [young.id]


def test_store_status_and_move(engine, db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test",
           "LADDER_STORE": f"file://{tmp_path / 'blobs'}"}
    for n in range(3):
        session.execute(text("INSERT INTO build_artifacts (key, runtime, toolchain, data, size, log, seconds, "
                             "created_at) VALUES (:k, 'c', 'gcc', :d, 1, '', 0.1, :t)"),
                        {"k": str(n) * 64, "d": b"x", "t": datetime.now(UTC)})
    session.commit()
    status = CliRunner().invoke(main, ["admin", "store", "status"], env=env)
    assert status.exit_code == 0 and f"store: file://{tmp_path / 'blobs'}" in status.output
    assert "build artifacts still in the database: 3" in status.output
    moved = CliRunner().invoke(main, ["admin", "store", "move", "--batch", "2"], env=env)
    assert moved.exit_code == 0 and "moved 3 build artifacts and 0 bot data versions" in moved.output, moved.output
    assert len(list(FolderStore(tmp_path / "blobs").list("builds/"))) == 3
    assert "still in the database: 0" in CliRunner().invoke(main, ["admin", "store", "status"], env=env).output
