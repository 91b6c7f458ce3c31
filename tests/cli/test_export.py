"""`ladder export`: the settings' database to Parquet, with a progress bar and clear refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow.parquet as pq
from click.testing import CliRunner
from service_support import house_versions, record_played

from ladder.cli import main
from ladder.services.bots import seed_house_bots


def test_export_writes_the_filtered_matches(db_url, session, tmp_path):
    seed_house_bots(session=session, games=["treasure", "dragonflame"])
    record_played(session, "treasure", house_versions(session, "treasure")[:2], ["careful", "random"],
                  datetime(2026, 11, 20, tzinfo=UTC))
    record_played(session, "dragonflame", house_versions(session, "dragonflame")[:2], ["looter", "random"],
                  datetime(2026, 11, 21, tzinfo=UTC))
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}
    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["export", str(out), "--game", "dragonflame", "--since", "2026-11-21"], env=env)
    assert done.exit_code == 0, done.output
    assert "1 matches, 2 seats" in done.output
    assert [m["game"] for m in pq.read_table(out / "matches.parquet").to_pylist()] == ["dragonflame"]


def test_bad_arguments_are_refused_before_anything_is_written(db_url, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}
    for args, message in ((["--game", "chess"], "unknown game 'chess'"),
                          (["--since", "2026-11-21", "--until", "2026-11-20"], "--until must be after --since"),
                          (["--since", "yesterday"], "Invalid value for '--since'"),
                          (["--batch", "0"], "Invalid value for '--batch'")):
        done = CliRunner().invoke(main, ["export", str(tmp_path / "out"), *args], env=env)
        assert done.exit_code == 2 and message in done.output, (args, done.output)
        assert not (tmp_path / "out").exists()
