"""`ladder bench export`: `ladder export`'s time and peak memory over the service bench's history.

A scratch PostgreSQL database is seeded as `ladder bench service` seeds it (ladder/cli/bench/
service_seed.py: `matches` finished, rated 4-seat matches) and one match in `replay_every` is given
a real replay (games of the seed's game played in-process by its house bots, a few dozen distinct
ones reused), so the log table is exercised too. Then `ladder export` runs as its own process twice:
over the last tenth of the matches (`--since`) and over all of them. Each run's wall time and peak
resident memory (getrusage of the child) are printed: time should grow with the matches and memory
should not (the export streams a batch at a time). Prints numbers, asserts nothing; the database is
dropped unless `keep`.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import psycopg
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ladder.cli.bench.service import _conninfo, scratch_database
from ladder.cli.bench.service_seed import GAME, SEATS, START, seed_bots, seed_matches
from ladder.cli.progress import Progress

DISTINCT_REPLAYS = 40


@dataclass(frozen=True)
class ExportRun:
    label: str
    matches: int
    seconds: float
    peak_rss_mb: float
    bytes_written: int

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds if self.seconds else 0.0


def _seed_replays(conninfo: str, matches: int, every: int) -> int:
    """A real replay (the seed's game, 4 seats) for one match in `every`; returns how many were added."""
    from ladder.play import default_bot_names, play_builtin
    from ladder.replay import dumps_replay

    blobs = []
    for seed in range(DISTINCT_REPLAYS):
        replay = play_builtin(GAME, default_bot_names(GAME, SEATS), seed=seed).replay
        raw = dumps_replay(replay)
        blobs.append((gzip.compress(raw, 6), len(raw)))
    ids = range(every, matches + 1, every)
    with psycopg.connect(conninfo) as conn, conn.cursor().copy(
            "COPY replays (match_id, data, size, created_at) FROM STDIN") as copy:
        for n, match_id in enumerate(ids):
            data, size = blobs[n % len(blobs)]
            copy.write_row((match_id, data, size, START))
    return len(ids)


def _export(url: str, out: Path, args: list[str]) -> tuple[float, float]:
    """`ladder export` as its own process: (wall seconds, its peak resident MB, from wait4)."""
    env = {**os.environ, "DATABASE_URL": url, "LADDER_ENV": "development"}
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "ladder.cli", "export", str(out), *args], env=env,
                            stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"ladder export exited {proc.returncode}")
    return time.monotonic() - started, usage.ru_maxrss / 1024  # KiB on Linux


def run_export_bench(admin_url: str, matches: int, bots: int, replay_every: int, keep: bool) -> list[ExportRun]:
    console = Console()
    with scratch_database(admin_url, "export", keep) as url:
        conninfo = _conninfo(url)
        console.print(f"seeding {matches:,} matches of {bots:,} bots ({url.rsplit('/', 1)[-1]})")
        seed_bots(conninfo, bots)
        with Progress(TextColumn("seeding"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task("matches", total=matches)
            seed_matches(conninfo, bots, matches, advance=lambda n: bar.advance(task, n))
        replays = _seed_replays(conninfo, matches, replay_every) if replay_every else 0
        console.print(f"seeded; {replays:,} matches have a real replay")
        # the seed's match i finished at START + 30 s * i: --since picks the last tenth
        tenth_day = (START + timedelta(seconds=30 * (matches - matches // 10))).date()
        runs = []
        with tempfile.TemporaryDirectory(prefix="ladder-export-bench-") as tmp:
            for label, args in ((f"since {tenth_day}", ["--since", tenth_day.isoformat()]), ("all", [])):
                out = Path(tmp) / label.replace(" ", "-")
                console.print(f"ladder export {' '.join(args) or '(every match)'} ...")
                seconds, peak_mb = _export(url, out, args)
                from pyarrow.parquet import ParquetFile

                exported = ParquetFile(out / "matches.parquet").metadata.num_rows
                size = sum(p.stat().st_size for p in out.glob("*.parquet"))
                runs.append(ExportRun(label, exported, seconds, peak_mb, size))
        _render(console, runs)
        return runs


def _render(console: Console, runs: list[ExportRun]) -> None:
    table = Table(title="ladder export (PostgreSQL, one process)")
    for column in ("run", "matches", "seconds", "matches/s", "peak RSS MB", "Parquet MB"):
        table.add_column(column, justify="right" if column != "run" else "left")
    for r in runs:
        table.add_row(r.label, f"{r.matches:,}", f"{r.seconds:.1f}", f"{r.matches_per_second:,.0f}",
                      f"{r.peak_rss_mb:.0f}", f"{r.bytes_written / 1e6:.1f}")
    console.print(table)
