"""`ladder admin prune [--dry-run]`: retention (ladder/services/retention.py), what the scheduler's prune
task runs; `ladder admin store move|status`: the build artifacts still in the database, into the store."""

from __future__ import annotations

import json

import click


def _open():
    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory
    from ladder.storage import open_store

    settings = _settings()
    engine = make_engine(settings)
    return settings, engine, session_factory(engine), open_store(settings)


@click.command("prune")
@click.option("--dry-run", is_flag=True, help="Print what would be deleted (counts and bytes); delete nothing.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of lines.")
def prune(dry_run: bool, as_json: bool) -> None:
    """Delete what the retention settings say has aged out (LADDER_RETAIN_*: old replays and logs,
    retired versions' build artifacts); the matches' summary rows and the ratings stay."""
    from ladder.db import session_scope
    from ladder.services.retention import Policy
    from ladder.services.retention import prune as run_prune

    settings, engine, sessions, store = _open()
    try:
        with session_scope(sessions) as session:
            report = run_prune(session=session, store=store, policy=Policy.from_settings(settings), dry_run=dry_run,
                               batch=settings.prune_batch)
    finally:
        engine.dispose()
    if as_json:
        click.echo(json.dumps({"dry_run": dry_run, **report.as_json()}))
        return
    for line in report.lines():
        click.echo(line)
    if dry_run:
        click.echo("dry run: nothing was deleted")


@click.group("store")
def store() -> None:
    """The store of blobs (LADDER_STORE): where it is, and moving old build artifacts into it."""


@store.command("status")
def status() -> None:
    """Where the store is, and how many build artifacts are still held in the database."""
    from sqlmodel import func, select

    from ladder.db import session_scope
    from ladder.models import BotDataVersion, BuildArtifact

    _settings, engine, sessions, opened = _open()
    try:
        with session_scope(sessions) as session:
            left = session.exec(select(func.count()).select_from(BuildArtifact)
                                .where(BuildArtifact.data.is_not(None))).one()
            data = session.exec(select(func.count()).select_from(BotDataVersion)
                                .where(BotDataVersion.data.is_not(None))).one()
    finally:
        engine.dispose()
    click.echo(f"store: {opened.location}")
    click.echo(f"build artifacts still in the database: {left}")
    click.echo(f"bot data versions still in the database: {data}")


@store.command("move")
@click.option("--batch", type=click.IntRange(min=1), default=20, show_default=True, help="Artifacts per round.")
def move(batch: int) -> None:
    """Move the build artifacts and bot data versions written before the store out of the database,
    `batch` at a time, each its own short transaction (the ladder goes on meanwhile; the scheduler's
    prune task does the same)."""
    from ladder.db import session_scope
    from ladder.services import botdata, builds

    _settings, engine, sessions, opened = _open()
    totals = [0, 0]
    try:
        for i, move_some in enumerate((builds.move_to_store, botdata.move_to_store)):
            while True:
                with session_scope(sessions) as session:
                    moved = move_some(session=session, store=opened, batch=batch)
                totals[i] += moved
                if not moved:
                    break
    finally:
        engine.dispose()
    click.echo(f"moved {totals[0]} build artifacts and {totals[1]} bot data versions to {opened.location}")


COMMANDS = (prune, store)
