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


@click.command("bot")
@click.argument("action", type=click.Choice(["disable", "enable", "retire"]))
@click.argument("bot_id", type=int)
@REASON
def bot(action, bot_id, reason) -> None:
    """Disable (out of new matches until enabled; its owner cannot), enable or retire any bot."""
    from ladder.services.moderation import set_bot_state

    done = run(lambda session, actor: set_bot_state(session=session, actor=actor, bot_id=bot_id, action=action,
                                                    reason=reason))
    click.echo(f"bot {done.id} ({done.name}): {action}d")


@click.command("retire-version")
@click.argument("version_id", type=int)
@REASON
def retire_version(version_id, reason) -> None:
    """Retire any bot version: it never plays again."""
    from ladder.services.moderation import retire_version as retire

    done = run(lambda session, actor: retire(session=session, actor=actor, version_id=version_id, reason=reason))
    click.echo(f"version {done.id} (bot {done.bot_id} v{done.number}) retired")


@click.command("rename")
@click.argument("kind", type=click.Choice(["bot", "user"]))
@click.argument("target")
@click.argument("new_name")
@REASON
def rename(kind, target, new_name, reason) -> None:
    """Rename a bot (by id) or a user (by name): every page, frame, replay download and future dump
    shows the new name."""
    from ladder.services import moderation

    def call(session, actor):
        if kind == "bot":
            return moderation.rename_bot(session=session, actor=actor, bot_id=_id(target), name=new_name,
                                         reason=reason).name
        user = moderation.user_by_name(session, target)
        return moderation.rename_user(session=session, actor=actor, user_id=user.id, username=new_name,
                                      reason=reason).username

    click.echo(f"{kind} {target} is now {run(call)}")


@click.command("hide-name")
@click.argument("kind", type=click.Choice(["bot", "user"]))
@click.argument("target")
@REASON
def hide_name(kind, target, reason) -> None:
    """Hide a bot's (by id) or a user's (by name) name: it becomes "hidden-<id>" everywhere."""
    from ladder.services import moderation

    def call(session, actor):
        if kind == "bot":
            return moderation.hide_bot_name(session=session, actor=actor, bot_id=_id(target), reason=reason).name
        user = moderation.user_by_name(session, target)
        return moderation.hide_user_name(session=session, actor=actor, user_id=user.id, reason=reason).username

    click.echo(f"{kind} {target} is now shown as {run(call)}")


def _id(text: str) -> int:
    if not text.isdigit() or len(text) > 10:
        raise click.UsageError(f"a bot is named by its id (a whole number), not {text[:40]!r}")
    return int(text)


@click.command("suspend")
@click.argument("username")
@click.option("--until", type=WHEN, help="When it ends (UTC); without it, for good.")
@click.option("--ban", is_flag=True, help="And sign-ups from the user's addresses refused as long as it lasts.")
@REASON
def suspend(username, until, ban, reason) -> None:
    """Suspend (or ban) a user: their log-ins, API tokens, remote seats and lobby places end now, they
    cannot log in (and are told the reason), their bots leave new matches."""
    from ladder.services import moderation

    def call(session, actor):
        user = moderation.user_by_name(session, username)
        return moderation.suspend_user(session=session, actor=actor, user_id=user.id, reason=reason,
                                       until=_utc(until), ban=ban)

    done = run(call)
    click.echo(f"{done.username} is {'banned' if ban else 'suspended'} "
               f"{'for good' if done.suspended_until is None else f'until {done.suspended_until:%Y-%m-%d %H:%M} UTC'}")


@click.command("unsuspend")
@click.argument("username")
@REASON
def unsuspend(username, reason) -> None:
    """Lift a user's suspension or ban now."""
    from ladder.services import moderation

    def call(session, actor):
        user = moderation.user_by_name(session, username)
        return moderation.lift_suspension(session=session, actor=actor, user_id=user.id, reason=reason)

    click.echo(f"{run(call).username} may log in again")


@click.command("replay")
@click.argument("action", type=click.Choice(["hide", "show"]))
@click.argument("match_id", type=int)
@REASON
def replay(action, match_id, reason) -> None:
    """Take a match's replay out of public view (admins still see it), or put it back."""
    from ladder.services.moderation import set_replay_hidden

    run(lambda session, actor: set_replay_hidden(session=session, actor=actor, match_id=match_id,
                                                 hidden=action == "hide", reason=reason))
    click.echo(f"match {match_id}'s replay is {'hidden' if action == 'hide' else 'public'}")


@click.command("log")
@click.option("--limit", type=click.IntRange(1, 500), default=30, show_default=True)
def log(limit) -> None:
    """The moderation audit log, newest first: when, who, what, to what, why."""
    from ladder.services import audit

    rows = run(lambda session, _actor: audit.entries(session=session, limit=limit))
    for r in rows:
        target = f"{r.target_kind} {r.target_id}" if r.target_id is not None else r.target_kind
        click.echo(f"{r.id:>5} {r.at:%Y-%m-%d %H:%M:%S} {r.actor}: {r.action} {target}: {r.reason}")
    if not rows:
        click.echo("no moderator action yet")


@click.command("collusion")
@click.option("--game", help="A game with negotiations (default: the first).")
@click.option("--matches", type=click.IntRange(10, 20_000), default=2000, show_default=True,
              help="The newest finished rated matches to read.")
@click.option("--top", type=click.IntRange(1, 500), default=20, show_default=True)
def collusion(game, matches, top) -> None:
    """The collusion report: pairs of bots of different owners, strongest evidence first; exit 1
    when a pair is flagged (docs/ratings.md, "Collusion")."""
    import sys

    from ladder.services.collusion import collusion_report, games_with_negotiations

    game = game or games_with_negotiations()[0]
    report = run(lambda session, _actor: collusion_report(session=session, game=game, matches=matches, top=top))
    click.echo(f"{report.matches} matches read, {report.pairs} pairs tested; flagged: adjusted p < {report.alpha}")
    for r in report.rows:
        e = r.evidence
        mark = "FLAGGED " if e.flagged else ""
        click.echo(f"{mark}{r.a.owner}/{r.a.name} (bot {r.a.id}) and {r.b.owner}/{r.b.name} (bot {r.b.id}): "
                   f"p {e.p_value:.2g}, adjusted {e.adjusted:.2g}, {len(e.matches)} shared matches "
                   f"(newest: {', '.join(map(str, e.matches[:5]))})")
        for t in e.tests:
            click.echo(f"    {t.name}: {t.observed} of {t.trials} ({t.expected:.1f} expected), p {t.p_value:.2g}")
    if any(r.evidence.flagged for r in report.rows):
        sys.exit(1)




@click.group("season")
def season() -> None:
    """Seasons (docs/ratings.md, "Seasons"): open one for a game with an end; list them."""


@season.command("open")
@click.option("--game", required=True, help="The game, by its name (`ladder play --help` lists them).")
@click.option("--name", required=True, help="Its name, shown on the season's page (1-80 characters).")
@click.option("--ends", type=WHEN, required=True, help="When it ends (UTC): submissions freeze and the final starts.")
@click.option("--organizer", required=True, help="The admin user organising it (its final is theirs).")
@click.option("--finalists", type=int, default=8, show_default=True, help="Bots in the final.")
@click.option("--rounds", type=int, default=5, show_default=True, help="The final's Swiss rounds.")
@click.option("--deals", type=int, default=2, show_default=True, help="Deals a round, each in every seat order.")
def season_open(game, name, ends, organizer, finalists, rounds, deals) -> None:
    """Open a season: at its end the scheduler freezes the game's uploads and plays the final."""
    from ladder.services.moderation import user_by_name
    from ladder.services.seasons import open_season

    def call(session, _actor):
        made = open_season(session=session, organizer_id=user_by_name(session, organizer).id, game=game, name=name,
                           ends_at=_utc(ends), finalists=finalists, final_rounds=rounds, final_deals=deals)
        return f"season {made.id} ({made.name}) open for {made.game} until {made.ends_at:%Y-%m-%d %H:%M} UTC"

    click.echo(run(call))


@season.command("list")
@click.option("--game", required=True)
def season_list(game) -> None:
    """The game's seasons, newest first."""
    from ladder.services.seasons import seasons_of

    def call(session, _actor):
        return [f"{s.id}\t{s.name}\t{s.status}\tends {s.ends_at:%Y-%m-%d %H:%M} UTC"
                + (f"\tfinal: event {s.event_id}" if s.event_id else "")
                for s in seasons_of(session=session, game=game)]

    for line in run(call):
        click.echo(line)


COMMANDS = [collusion, void, bot, retire_version, rename, hide_name, suspend, unsuspend, replay, log, season]
