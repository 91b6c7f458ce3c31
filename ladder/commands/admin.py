"""`ladder admin grant|revoke USER`: the admin role, which organises tournaments on the site."""

from __future__ import annotations

import click


def _set(username: str, admin: bool) -> None:
    from ladder.commands.service import _settings
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
    """Site roles: admins organise tournaments (events)."""


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
