"""`ladder admin ...` moderator commands: void matches, disable/retire/rename bots and versions,
hide names, suspend/ban users, hide replays, the audit log and the collusion report. Each one is
a call of a service in ladder/services/ (moderation.py, voiding.py, audit.py) and is logged there
with the operator's login as the actor."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import click

WHEN = click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"])
REASON = click.option("--reason", required=True, help="Why: kept in the audit log (and shown to a suspended user).")


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else value.replace(tzinfo=UTC)


def run(call: Callable) -> object:
    """Run `call(session, actor)` in one session; a refusal is a usage error (exit 2), never a traceback."""
    from ladder.cli.service import _settings, cli_actor
    from ladder.db import make_engine, session_factory, session_scope
    from ladder.services.audit import Actor
    from ladder.services.errors import ServiceError

    engine = make_engine(_settings())
    try:
        with session_scope(session_factory(engine)) as session:
            return call(session, Actor(cli_actor()))
    except ServiceError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        engine.dispose()


@click.command("void")
@click.option("--match", "match_ids", type=int, multiple=True, help="A match id (repeat for several).")
@click.option("--bot", "bot_id", type=int, help="Every finished match of this bot id.")
@click.option("--user", "username", help="Every finished match of this user's bots.")
@click.option("--since", type=WHEN, help="Finished at or after (UTC).")
@click.option("--until", type=WHEN, help="Finished before (UTC).")
@REASON
def void(match_ids, bot_id, username, since, until, reason) -> None:
    """Void the selected finished matches (every filter given must hold): their rating changes are
    deleted and the ratings recomputed and written from the remaining history, in one transaction.
    The matches stay listed, marked voided with the reason."""
    from ladder.services.moderation import user_by_name
    from ladder.services.voiding import void_matches

    def call(session, actor):
        user_id = user_by_name(session, username).id if username else None
        return void_matches(session=session, actor=actor, reason=reason, match_ids=match_ids, bot_id=bot_id,
                            user_id=user_id, since=_utc(since), until=_utc(until))

    done = run(call)
    shown = ", ".join(map(str, done.match_ids[:20])) + (" ..." if len(done.match_ids) > 20 else "")
    click.echo(f"voided {len(done.match_ids)} matches ({shown}); "
               f"{done.rating_numbers_rewritten} stored rating numbers rewritten")


COMMANDS = [void]
