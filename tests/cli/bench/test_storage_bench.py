"""`ladder bench storage` on a tiny fill: it plays its templates, fills both databases, prints bytes
per match by table and game and the year's size, verifies served replays, times the four pages,
and leaves no database behind. No timing is asserted."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner
from service_support import pg_url  # noqa: F401 (fixture)
from sqlalchemy import create_engine, text

from ladder.cli import main
from ladder.config import Settings


def test_bench_storage_fills_measures_verifies_and_cleans_up(pg_url):  # noqa: F811
    admin = Settings(database_url=pg_url).sqlalchemy_url
    prefix = f"ladder_bench_storage_t{os.getpid()}"
    result = CliRunner().invoke(main, [
        "bench", "storage", "--matches", "1200", "--small", "150", "--bots", "12", "--templates", "1",
        "--sandbox", "inprocess", "--requests", "3", "--sample", "20", "--verify", "2", "--postgres", admin,
        "--prefix", prefix], env={"COLUMNS": "160"})
    print(result.output)
    assert result.exit_code == 0, result.output
    assert "3 real matches played (inprocess)" in result.output
    assert "filled 1,200 matches of 36 bots" in result.output and "filled 150 matches" in result.output
    # retention's trim ran on each fill (no bot here has more rows than its chart keeps)
    assert len(re.findall(r"retention's scorecard trim: 0 rows past each bot's chart deleted in [\d.]+ s",
                          result.output)) == 2
    for table in ("matches", "seats", "rating_changes", "replays", "bot_logs"):
        assert re.search(rf"│ {table}\s+│\s+[\d.,]+ │\s+[\d,]+ │", result.output), table
    assert re.search(r"a year at 300 matches a minute \(157,680,000 matches\): [\d,]+ GB", result.output)
    assert "replays served and verified: 6 of 6" in result.output
    pages = re.findall(r"│ (home|leaderboard|busy bot|match page)\s+│\s+[\d.]+ │\s+[\d.]+ │\s+[\d.]+ │", result.output)
    assert pages == ["home", "leaderboard", "busy bot", "match page"]
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        left = conn.execute(text("SELECT datname FROM pg_database WHERE datname LIKE :p"), {"p": f"{prefix}%"}).all()
    engine.dispose()
    assert left == []
