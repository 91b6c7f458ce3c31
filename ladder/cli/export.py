"""`ladder export OUT`: the ladder's finished matches as Parquet (ladder/services/export.py,
docs/dataset.md), filtered by game and by the day they finished."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import click


@click.command("export")
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--game", default=None, help="Only this game's matches (default: every game).")
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Only matches finished on or after this day (UTC), YYYY-MM-DD.")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Only matches finished before this day (UTC), YYYY-MM-DD.")
@click.option("--batch", type=click.IntRange(min=1, max=100_000), default=None,
              help="Matches per Parquet row group, which bounds the memory used (default 2000).")
def export(out: Path, game: str | None, since: dt.datetime | None, until: dt.datetime | None,
           batch: int | None) -> None:
    """Write the finished matches of this ladder's database to OUT/matches.parquet,
    OUT/seats.parquet and OUT/log.parquet (every decision and event, with who saw it)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from ladder.cli.progress import Progress
    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory
    from ladder.games import GAMES
    from ladder.services.export import DEFAULT_BATCH, ExportFilter, count_matches, export_matches

    if game is not None and game not in GAMES:
        raise click.UsageError(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    if since and until and until <= since:
        raise click.UsageError("--until must be after --since")
    where = ExportFilter(game, since.date() if since else None, until.date() if until else None)
    console = Console(stderr=True)
    engine = make_engine(_settings())
    try:
        sessions = session_factory(engine)
        total = count_matches(sessions, where)
        started = time.monotonic()
        with Progress(TextColumn("exporting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task("matches", total=total)
            summary = export_matches(sessions, out, where, batch=batch or DEFAULT_BATCH,
                                     progress=lambda n: bar.advance(task, n))
    finally:
        engine.dispose()
    elapsed = time.monotonic() - started
    click.echo(f"{summary.matches} matches, {summary.seats} seats, {summary.log_rows} log rows "
               f"in {elapsed:.1f} s -> {out}")
    for name, path in summary.files.items():
        click.echo(f"  {name}: {path} ({path.stat().st_size:,} bytes)")


@click.command("export")
@click.option("--matches", type=click.IntRange(min=10), default=1_000_000, show_default=True,
              help="Finished matches in the seeded history.")
@click.option("--bots", type=click.IntRange(min=10), default=10_000, show_default=True, help="Bots in the seed.")
@click.option("--replay-every", type=click.IntRange(min=0), default=100, show_default=True,
              help="One match in this many gets a real replay (0: none).")
@click.option("--database-url", envvar="LADDER_BENCH_DATABASE_URL",
              default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="A PostgreSQL server where the bench may create and drop its own database.")
@click.option("--keep", is_flag=True, help="Keep the seeded database (named in the output).")
def bench_export(matches: int, bots: int, replay_every: int, database_url: str, keep: bool) -> None:
    """`ladder export`'s time and peak memory over the service bench's history (default 1,000,000
    matches), for a tenth of it and for all of it: memory should not grow with the matches."""
    from ladder.cli.bench.export import run_export_bench

    run_export_bench(database_url, matches, bots, replay_every, keep)
