"""`ladder bench chaos`: real matches on PostgreSQL + Redis through worker kills, Redis restarts
and dropped messages; exit 1 unless the ladder kept every promise (ladder/cli/bench/chaos.py)."""

from __future__ import annotations

import sys

import click

from ladder.cli.service import BENCH_DATABASE, SANDBOX_MODES
from ladder.games import FLAGSHIP


@click.command("chaos")
@click.option("--kills", type=click.IntRange(min=0), default=20, show_default=True,
              help="Workers and pool processes killed before a claim or inside a recording.")
@click.option("--redis-restarts", type=click.IntRange(min=0), default=2, show_default=True)
@click.option("--drops", type=click.IntRange(min=0), default=10, show_default=True,
              help="Messages taken out of a busy broker.")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="user", show_default=True)
@click.option("--games", default=FLAGSHIP, show_default=True, help="Comma-separated games the ladder plays.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--concurrency", type=click.IntRange(min=1), default=2, show_default=True,
              help="Pool processes per worker.")
@click.option("--stale", type=click.IntRange(min=5), default=60, show_default=True,
              help="LADDER_MATCH_STALE_AFTER: above the longest match on this machine.")
@click.option("--resend", type=click.IntRange(min=2), default=15, show_default=True,
              help="LADDER_MATCH_RESEND_AFTER.")
@click.option("--slack", type=click.FloatRange(min=0), default=60, show_default=True,
              help="Seconds a match open when the faults stop may take beyond stale + re-send.")
@click.option("--max-fault-seconds", type=click.FloatRange(min=10), default=900, show_default=True)
@click.option("--drain/--no-drain", default=True, show_default=True, help="Drain the ladder at the end.")
@BENCH_DATABASE
@click.option("--keep", is_flag=True, help="Keep the database (named in the output).")
def bench_chaos(kills, redis_restarts, drops, sandbox, games, workers, concurrency, stale, resend, slack,
                max_fault_seconds, drain, database_url, keep) -> None:
    """Break a running ladder on purpose: every match open when the faults stop must end within
    stale + re-send + slack, every finished ranked match must have its rating changes."""
    from ladder.cli.bench.chaos import ChaosPlan, run_chaos
    from ladder.config import Settings
    from ladder.games import available_games
    from workers.sandbox.process import sandbox_available

    names = tuple(g.strip() for g in games.split(",") if g.strip())
    unknown = [g for g in names if g not in available_games()]
    if unknown or not names:
        raise click.BadParameter(f"unknown game {unknown} (available: {', '.join(available_games())})",
                                 param_hint="'--games'")
    ok, why = sandbox_available(sandbox)
    if not ok:
        raise click.ClickException(f"sandbox mode {sandbox!r} is not available here: {why}")
    plan = ChaosPlan(kills=kills, redis_restarts=redis_restarts, drops=drops, sandbox=sandbox, games=names,
                     workers=workers, concurrency=concurrency, stale=stale, resend=resend, slack=slack,
                     max_fault_seconds=max_fault_seconds, drain=drain)
    try:
        result = run_chaos(plan, admin_url=Settings(database_url=database_url).sqlalchemy_url, echo=click.echo,
                           keep=keep)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    for line in result.summary():
        click.echo(line)
    if result.problems:
        click.secho("FAIL: " + "; ".join(result.problems), fg="red", bold=True)
        sys.exit(1)
    click.secho(f"PASS: after {result.kills} kills, {result.redis_restarts} Redis restarts and {result.drops} "
                f"dropped messages, every match ended within {plan.bound:.0f} s and every finished ranked "
                "match has its rating changes", fg="green", bold=True)
