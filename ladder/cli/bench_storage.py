"""`ladder bench storage`: bytes per match on PostgreSQL by table and by game, and page times at a
filled size against 1,000 matches (ladder/cli/bench/storage.py)."""

from __future__ import annotations

import click


@click.command("storage")
@click.option("--matches", type=click.IntRange(min=1_000, max=100_000_000), default=1_000_000, show_default=True,
              help="Matches in the big database (10000000 works: about an hour of filling on 2 cores).")
@click.option("--small", type=click.IntRange(min=100), default=1_000, show_default=True,
              help="Matches in the database the page times are compared with.")
@click.option("--bots", type=click.IntRange(min=10, max=5_000), default=500, show_default=True, help="Bots per game.")
@click.option("--templates", "per_game", type=click.IntRange(min=1, max=200), default=6, show_default=True,
              help="Real matches played per game, replicated into the databases.")
@click.option("--sandbox", type=click.Choice(["user", "strict", "inprocess"]), default="user", show_default=True,
              help="How the templates are played: through the match runner sandboxed (what a worker stores), "
                   "or in-process (no sandbox record).")
@click.option("--form", type=click.Choice(["compact", "gzip"]), default="compact", show_default=True,
              help="How the replays are stored: compact (today's), or the whole gzip (before #43).")
@click.option("--requests", type=click.IntRange(min=3), default=9, show_default=True, help="GETs per page and size.")
@click.option("--sample", type=click.IntRange(min=10), default=2_000, show_default=True,
              help="Matches per game sampled for the bytes by game.")
@click.option("--verify", type=click.IntRange(min=0), default=20, show_default=True,
              help="Matches per game downloaded and verified on the big database.")
@click.option("--explain", is_flag=True, help="Also the plans (EXPLAIN ANALYZE) of each page's slowest statements.")
@click.option("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="A PostgreSQL server's admin URL: the scratch databases are made there.")
@click.option("--prefix", default="ladder_bench_storage", show_default=True,
              help="The scratch databases' names: PREFIX_small and PREFIX_big (made afresh).")
@click.option("--keep", is_flag=True, help="Keep the databases afterwards.")
def bench_storage(matches, small, bots, per_game, sandbox, form, requests, sample, verify, explain, postgres, prefix,
                  keep) -> None:
    """Fill two scratch databases with matches of real replays and print bytes per match by table
    and game, a year's size at 300 matches a minute, and page times against SMALL matches."""
    from rich.console import Console

    from ladder.cli.bench.storage import run_storage_bench

    run_storage_bench(admin_url=postgres, matches=matches, small=small, bots=bots, per_game=per_game,
                      sandbox=sandbox, form=form, requests=requests, sample=sample, verify=verify, keep=keep,
                      prefix=prefix, explain=explain, console=Console())
