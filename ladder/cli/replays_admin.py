"""`ladder admin compact-replays`: convert stored replays to the compact form in small batches
while the ladder runs (ladder/services/stored_replays.py), or with `--expand` back to gzip (before
a rules change that alters what old decisions give)."""

from __future__ import annotations

import time

import click


@click.command("compact-replays")
@click.option("--batch", type=click.IntRange(min=1, max=10_000), default=200, show_default=True,
              help="Rows per transaction.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after this many rows looked at.")
@click.option("--pause", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="Seconds to sleep between batches (leave the database to the ladder).")
@click.option("--expand", is_flag=True, help="The other way: compact rows back to the gzip of the whole replay.")
@click.option("--game", default=None, help="With --expand: only this game's matches.")
def compact_replays(batch: int, limit: int | None, pause: float, expand: bool, game: str | None) -> None:
    """Store finished matches' replays compactly (decisions, seed, header and what the sandbox saw;
    the whole replay rebuilt on demand), each checked byte for byte first. Safe to run while the
    ladder runs, to stop and to run again: a row is rewritten once, in a transaction of its batch."""
    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory
    from ladder.games import available_games
    from ladder.services.stored_replays import compact_batch, expand_batch

    if game is not None and not expand:
        raise click.UsageError("--game goes with --expand (compacting takes every game's rows)")
    if game is not None and game not in available_games():
        raise click.UsageError(f"unknown game {game!r} (available: {', '.join(available_games())})")
    engine = make_engine(_settings())
    seen = changed = kept = before = after = 0
    cursor = 0
    started = time.monotonic()
    try:
        with session_factory(engine)() as session:
            while limit is None or seen < limit:
                size = batch if limit is None else min(batch, limit - seen)
                if expand:
                    done = expand_batch(session=session, game=game, after=cursor, limit=size)
                else:
                    done = compact_batch(session=session, after=cursor, limit=size)
                if done.last is None:
                    break
                cursor = done.last
                seen, changed, kept = seen + done.seen, changed + done.changed, kept + done.kept
                before, after = before + done.bytes_before, after + done.bytes_after
                click.echo(f"{seen:,} rows looked at, {changed:,} {'expanded' if expand else 'compacted'}, "
                           f"{kept:,} kept as they were; up to match {cursor} ({time.monotonic() - started:.0f} s)",
                           err=True)
                if pause:
                    time.sleep(pause)
    finally:
        engine.dispose()
    saved = f"; {before:,} bytes became {after:,}" if changed else ""
    click.echo(f"{changed:,} replays {'expanded' if expand else 'compacted'}, {kept:,} kept as they were{saved}")
