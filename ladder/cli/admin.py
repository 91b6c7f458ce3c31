"""`ladder admin grant|revoke USER`: the admin role, which organises tournaments on the site;
`ladder admin drain on|off|status`: the drain switch (docs/operations.md, "Draining"). The
moderator commands (moderation.py) and `prune`, `store` (storage.py) join the group in cli/__init__."""

from __future__ import annotations

import sys

import click


def _set(username: str, admin: bool) -> None:
    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.services.errors import ServiceError
    from ladder.services.users import set_admin

    engine = make_engine(_settings())
    try:
        with session_scope(session_factory(engine)) as session:
            user = set_admin(session=session, username=username, admin=admin)
    except ServiceError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        engine.dispose()
    click.echo(f"{user.username} is {'now' if admin else 'no longer'} an admin (organises events)")


@click.group()
def admin() -> None:
    """Site roles (admins organise tournaments and moderate), the drain switch, the moderator
    actions (void, bot, rename, hide-name, suspend, replay, log, collusion: docs/operations.md),
    retention (prune) and the store."""


@admin.command("grant")
@click.argument("username")
def grant(username: str) -> None:
    """Make USERNAME an admin."""
    _set(username, True)


@admin.command("revoke")
@click.argument("username")
def revoke(username: str) -> None:
    """Take the admin role from USERNAME."""
    _set(username, False)


@admin.command("drain")
@click.argument("switch", type=click.Choice(["on", "off", "status"]), default="status")
@click.option("--wait", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Then wait up to SECONDS for 0 open (queued or running) matches; exit 1 if some remain.")
def drain(switch: str, wait: float | None) -> None:
    """Drain the ladder before a deploy: `on` stops every scheduler tick queueing anything new
    (validation games, ladder tables, event matches) while the sweeper goes on requeueing and
    re-sending, so open matches finish; `off` resumes. Stored in the database: every worker sees it."""
    import time

    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.services.queue_control import queue_state, set_draining

    engine = make_engine(_settings())
    sessions = session_factory(engine)
    try:
        if switch != "status":
            with session_scope(sessions) as session:
                set_draining(session=session, on=switch == "on")
        deadline = None if wait is None else time.monotonic() + wait
        while True:
            with session_scope(sessions) as session:
                state = queue_state(session=session)
            if deadline is None or state.open == 0 or time.monotonic() >= deadline:
                break
            time.sleep(min(2.0, max(0.1, deadline - time.monotonic())))
    finally:
        engine.dispose()
    since = f" (since {state.since:%Y-%m-%d %H:%M:%S} UTC)" if state.since else ""
    click.echo(f"draining: {'on' if state.draining else 'off'}{since}; open matches: {state.queued} queued, "
               f"{state.running} running")
    if wait is not None and state.open:
        click.echo(f"not drained after {wait:g} s")
        sys.exit(1)
