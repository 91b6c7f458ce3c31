"""`ladder bench export` on a tiny seed: it runs end to end, exports what it seeded (a tenth, then
everything), prints its figures and leaves no database behind. No timing is asserted."""

from __future__ import annotations

import os
import re

from click.testing import CliRunner
from service_support import pg_url  # noqa: F401 (fixture)
from sqlalchemy import create_engine, text

from ladder.cli import main
from ladder.config import Settings


def test_bench_export_exports_the_seed_and_prints_time_and_memory(pg_url):  # noqa: F811
    admin = Settings(database_url=pg_url).sqlalchemy_url
    result = CliRunner().invoke(main, ["bench", "export", "--matches", "6000", "--bots", "40", "--replay-every", "100",
                                       "--database-url", admin])
    print(result.output)
    assert result.exit_code == 0, result.output
    assert "60 matches have a real replay" in result.output
    # the seed spans 6000 x 30 s (two days and more): the last tenth's day holds some of them
    rows = re.findall(r"│ (since \S+|all)\s+│\s+([\d,]+) │\s+[\d.]+ │\s+[\d,]+ │\s+(\d+) │", result.output)
    assert [label for label, _n, _mb in rows][1:] == ["all"] and rows[1][1] == "6,000"
    assert 0 < int(rows[0][1].replace(",", "")) < 6000 and all(int(mb) > 0 for _l, _n, mb in rows)
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        left = conn.execute(text("SELECT datname FROM pg_database WHERE datname LIKE 'ladder_bench_export%'")).all()
    engine.dispose()
    assert [name for (name,) in left if f"_{os.getpid()}_" in name] == []
