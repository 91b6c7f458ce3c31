"""`ladder up`, `ladder web`, `ladder worker`, `ladder scheduler`, `ladder migrate`,
`ladder ratings recompute` and `ladder bench service`.

Every command reads the one Settings object from the environment (LADDER_*, DATABASE_URL,
REDIS_URL); its options only override a few fields. docs/operations.md has the reference.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

PORT = 5000  # the site's port by default: `ladder up`, `ladder web` and `ladder connect --url` agree

SANDBOX_MODES = ("strict", "user", "none")


def _settings(**overrides):
    from ladder.config import ConfigError, Settings

    try:
        return Settings.from_env(**{k: v for k, v in overrides.items() if v is not None})
    except ConfigError as exc:
        raise click.ClickException(f"configuration: {exc}") from None


def runtime_report(accepted) -> None:
    from ladder.cli.runtimes import report

    report(accepted)


def _check_sandbox(settings) -> None:
    """Workers refuse to run bots in a weaker sandbox than production needs, outside development."""
    from workers.sandbox.process import sandbox_available

    if settings.sandbox_mode != "strict" and not settings.development:
        raise click.ClickException(
            f"LADDER_SANDBOX_MODE={settings.sandbox_mode} is for development only; production workers need strict")
    ok, why = sandbox_available(settings.sandbox_mode)
    if not ok:
        raise click.ClickException(
            f"sandbox mode {settings.sandbox_mode!r} is not available here: {why}. Install bubblewrap and run as "
            "root for strict, or (development only) set LADDER_SANDBOX_MODE=user or none.")
    click.echo(f"sandbox: {settings.sandbox_mode} ({why})", err=True)  # strict names its cgroup backend
    if settings.sandbox_mode != "none":
        from workers.sandbox import spawn_helper

        # Built here, once, before a worker's pool forks (its processes inherit the answer); where it
        # cannot be, path() says why on stderr and bots start through the slower Python window.
        helper = spawn_helper.path()
        if helper:
            click.echo(f"sandbox: bots start through {helper} (workers/sandbox/spawn.c)", err=True)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address the web site listens on.")
@click.option("--port", type=int, default=PORT, show_default=True, help="Port of the web site.")
@click.option("--instance", type=click.Path(file_okay=False, path_type=Path),
              help="Instance directory: SQLite database, broker file (default: $LADDER_INSTANCE_DIR or ./instance).")
@click.option("--concurrency", type=click.IntRange(min=1), help="Matches played at once (default: CPU cores).")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES),
              help="Sandbox for bots (default: $LADDER_SANDBOX_MODE, else the strongest this machine can run).")
@click.option("--grace", type=float, default=20.0, show_default=True,
              help="Seconds to let running matches finish on Ctrl-C before killing them.")
@click.option("--web-workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Web processes (`ladder web --workers`).")
def up(host, port, instance, concurrency, sandbox, grace, web_workers) -> None:
    """Run the whole ladder on this machine: web + worker + scheduler, Ctrl-C stops everything.

    With nothing configured it needs no server: an SQLite database and an SQLite-file broker in the
    instance directory, migrations applied and the starter bots seeded, so the leaderboard fills
    within a minute. With DATABASE_URL and REDIS_URL set, the same processes use those.
    """
    from ladder.cli.serve import (
        Supervisor,
        child_commands,
        child_env,
        http_ok,
        migration_text,
        prepare_instance,
        strongest_sandbox,
    )

    url = f"http://{host}:{port}/"
    # the first line, before any report or child's banner (Celery's fills a screen): where to look
    click.echo(f"ladder up: the site will be at {url} (ready in a few seconds; Ctrl-C stops everything)")
    if sandbox is None and not os.environ.get("LADDER_SANDBOX_MODE"):
        sandbox, why = strongest_sandbox()
        if sandbox != "strict":
            click.secho(f"sandbox: using {sandbox!r} (development only); stronger modes unavailable: {why}",
                        fg="yellow", err=True)
    settings = _settings(instance_dir=instance, sandbox_mode=sandbox)
    _check_sandbox(settings)
    runtime_report(settings.accepted_runtimes)
    where = "SQLite + local broker" if settings.embedded else "DATABASE_URL / REDIS_URL"
    click.echo(f"instance {settings.instance_dir.resolve()} ({where}); preparing ...")
    facts = prepare_instance(settings, requeue_running=settings.embedded)
    click.echo(f"{migration_text(facts)}, {facts['starter_bots']} starter bots, {facts['requeued']} matches requeued")
    supervisor = Supervisor(
        child_commands(host=host, port=port, concurrency=concurrency or os.cpu_count() or 1, grace=grace,
                       web_workers=web_workers),
        child_env(settings), grace=grace, say=lambda text: click.echo(text, err=True),
    )
    if settings.embedded:  # after a stop asked for, not after a child's death (the next start counts that)
        supervisor.after_stop = lambda: _requeue_left_running(settings) if supervisor.stopping else None
    code = supervisor.run(ready=lambda: http_ok(url), on_ready=lambda: click.secho(
        f"ladder up at {url}  (Ctrl-C stops it)", fg="green", bold=True))
    click.echo("stopped" if code == 0 else "stopped after a failure", err=True)
    sys.exit(code)


def _requeue_left_running(settings) -> None:
    from ladder.cli.serve import requeue_left_running

    requeued = requeue_left_running(settings)
    if requeued:
        click.echo(f"{len(requeued)} matches the worker left running requeued: {requeued}", err=True)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on, or unix:PATH for a unix socket (behind a reverse proxy on this machine).")
@click.option("--port", type=int, default=PORT, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="gunicorn processes.")
@click.option("--threads", type=click.IntRange(min=1), default=4, show_default=True, help="Threads per process.")
@click.option("--graceful-timeout", type=int, default=10, show_default=True)
@click.option("--worker-class", type=click.Choice(["gevent", "gthread"]),
              help="gunicorn's: gevent (the default where installed: held requests cost no thread) or gthread.")
@click.option("--header-timeout", type=click.IntRange(min=1), default=5, show_default=True,
              help="Seconds a client has to send a request's head (against slowloris).")
def web(host, port, workers, threads, graceful_timeout, worker_class, header_timeout) -> None:
    """Serve the web site and API with gunicorn (never runs bot code)."""
    from ladder.cli.serve import run_gunicorn

    settings = _settings()
    refusal = settings.proxy_refusal(host)
    if refusal:
        raise click.ClickException(refusal)
    run_gunicorn(settings, host=host, port=port, workers=workers, threads=threads,
                 graceful_timeout=graceful_timeout, worker_class=worker_class, header_timeout=header_timeout)


@click.command()
@click.option("--concurrency", "-c", type=click.IntRange(min=1), help="Pool processes (default: CPU cores).")
@click.option("--queues", "-Q", help="Comma-separated queues (default: all of the ladder's).")
@click.option("--name", "-n", help="Worker node name (default: ladder-<pid>@<host>).")
@click.option("--loglevel", "-l", default="INFO", show_default=True)
@click.option("--grace", type=float, default=20.0, show_default=True,
              help="Seconds running matches may take to finish after SIGTERM/SIGINT; then they are torn down "
                   "and given back to the queue.")
@click.option("--check", is_flag=True,
              help="Start nothing: exit 0 if the worker (--name, else the freshest on this machine) wrote its "
                   "heartbeat within --max-age seconds, else 1. Needs no broker (health checks).")
@click.option("--max-age", type=click.FloatRange(min=0.1),
              help="For --check: seconds of silence that mean dead (default: 3 heartbeat intervals + 5).")
def worker(concurrency, queues, name, loglevel, grace, check, max_age) -> None:
    """A Celery worker: plays matches, feeds and sweeps the queue. Start one per machine."""
    settings = _settings()
    if check:
        _check_heartbeat(settings, name, max_age)
    _check_sandbox(settings)
    runtime_report(settings.accepted_runtimes)
    from ladder.telemetry.metrics_dir import use_multiproc_dir

    use_multiproc_dir(settings.instance_dir, "worker")  # before prometheus_client loads (ladder/telemetry/metrics.py)
    from workers.queue import heap, observe
    from workers.queue.celery_app import QUEUES, configure
    from workers.queue.shutdown import install_grace, leave_nothing_behind

    app = configure(settings)
    observe.install(app, settings)  # heartbeat, metrics endpoint, JSON logs (workers/queue/observe.py)
    argv = [
        "worker", f"--loglevel={loglevel}", f"--queues={queues or ','.join(QUEUES)}",
        f"--concurrency={concurrency or os.cpu_count() or 1}", f"--hostname={name or f'ladder-{os.getpid()}@%h'}",
        "--without-gossip", "--without-mingle",  # nothing here revokes tasks; less broker chatter
    ]
    if settings.embedded:
        argv.append("--without-heartbeat")  # the local broker has no broadcast
    from workers.sandbox.reap import start_reaper_thread

    start_reaper_thread()  # a pool process that dies mid-match orphans its bwrap processes to us
    install_grace(grace)
    heap.install()  # the collector walks only what matches allocate (workers/queue/heap.py)
    try:
        app.worker_main(argv)
    finally:
        leave_nothing_behind()


def _check_heartbeat(settings, name, max_age) -> None:
    from celery.utils.nodenames import host_format

    from workers.queue.heartbeat import check

    alive, what = check(settings.instance_dir, node=host_format(name) if name else None,
                        max_age=max_age or 3 * settings.worker_heartbeat_interval + 5)
    click.echo(what, err=not alive)
    sys.exit(0 if alive else 1)


@click.command()
@click.option("--loglevel", "-l", default="INFO", show_default=True)
def scheduler(loglevel) -> None:
    """Celery beat: sends the periodic tasks (queue matches, sweep stale ones). Run exactly one."""
    from workers.queue.celery_app import configure

    settings = _settings()
    settings.instance_dir.mkdir(parents=True, exist_ok=True)
    app = configure(settings)
    app.start(["beat", f"--loglevel={loglevel}", f"--schedule={settings.instance_dir / 'celerybeat-schedule'}"])


@click.command()
@click.option("--release-running", is_flag=True,
              help="Put every match left `running` back in the queue: after restoring a backup, whose workers "
                   "no longer exist (never on a ladder whose workers are playing).")
def migrate(release_running) -> None:
    """Apply the database migrations and seed the starter bots (safe to run at every deploy)."""
    from ladder.cli.serve import migration_text, prepare_instance

    facts = prepare_instance(_settings(), requeue_running=release_running)
    click.echo(f"{migration_text(facts)}; {facts['starter_bots']} starter bots")
    if release_running:
        click.echo(f"{facts['requeued']} matches left running put back in the queue")


@click.group()
def scorecard() -> None:
    """The bots' scorecards (docs/scorecard.md)."""


@scorecard.command("recompute")
@click.option("--game", default=None, help="Only this game's matches (default: every game).")
@click.option("--check", is_flag=True, help="Compare only: write nothing; exit 1 when a stored seat differs.")
def scorecard_recompute(game: str | None, check: bool) -> None:
    """Measure every finished match again from its stored replay and replace the stored scorecards
    (each seat's measures and the sums per version, table size and opponent) with the result; with
    --check, only count the stored seats that differ from the replays."""
    from ladder.db import make_engine, session_factory
    from ladder.games import GAMES
    from ladder.services.scorecard import recompute

    if game is not None and game not in GAMES:
        raise click.UsageError(f"unknown game {game!r} (known: {', '.join(sorted(GAMES))})")
    engine = make_engine(_settings())
    try:
        done = recompute(session_factory(engine), game=game, write=not check)
    finally:
        engine.dispose()
    click.echo(f"{done.matches} matches, {done.seats} seats measured from their replays; {done.differences} stored "
               f"seats or sums differed; {done.sums} sums" + ("" if check else " written"))
    if check and done.differences:
        raise SystemExit(1)


@click.group()
def ratings() -> None:
    """Ratings kept in the database."""


@ratings.command("recompute")
@click.option("--show", type=int, default=20, show_default=True, help="Differences to print at most.")
@click.option("--write", is_flag=True, help="Write the recomputed ratings (every change, rating and head-to-head "
              "count) in one transaction; without it, a dry run that prints the difference.")
def ratings_recompute(show: int, write: bool) -> None:
    """Replay every rated match in the order it was rated, and check that every finished ranked match
    has one rating change per seat; exit 0 only if every stored number matches and none lacks one.
    The check reads one snapshot of the database (PostgreSQL: REPEATABLE READ), so a live ladder
    shows no false differences. With --write, the differences are corrected and then checked again."""
    from sqlalchemy import func
    from sqlmodel import select

    from ladder.db import make_engine, session_factory, session_scope
    from ladder.models import RatingChange
    from ladder.services.audit import Actor, record
    from ladder.services.common import unit_of_work
    from ladder.services.ratings import missing_rating_changes, recompute_ratings, record_check, rewrite_ratings

    engine = make_engine(_settings())
    with session_scope(session_factory(engine)) as session:
        matches = session.exec(select(func.count(func.distinct(RatingChange.match_id)))).one()
        if write:
            with unit_of_work(session):
                fixed = rewrite_ratings(session=session)
                if fixed:
                    record(session, Actor(cli_actor()), "rewrite_ratings", "ratings", None,
                           "ladder ratings recompute --write", numbers=len(fixed))
            _print_differences(matches, fixed, show, "rewritten")
        diffs = recompute_ratings(session=session)
        unrated = missing_rating_changes(session=session)
        # what ladder_ratings_check_ok reports until the next check (docs/operations.md, "Metrics")
        record_check(session=session, differences=len(diffs), missing=len(unrated), wrote=write)
    engine.dispose()
    if not write or diffs:
        _print_differences(matches, diffs, show, "differ")
    if not unrated:
        click.echo("every finished ranked match has one rating change per seat")
    else:
        click.echo(f"{len(unrated)} finished ranked matches lack rating changes (one per seat expected):")
        for u in unrated[:show]:
            why = " (every seat forfeited)" if u.all_forfeited else ""
            click.echo(f"  match {u.match_id}: {u.changes} rating changes for {u.seats} seats{why}")
    if diffs or unrated:
        sys.exit(1)


def _print_differences(matches: int, diffs: list, show: int, verb: str) -> None:
    if not diffs:
        click.echo(f"{matches} rated matches replayed: every stored rating, change and count matches")
        return
    click.echo(f"{matches} rated matches replayed: {len(diffs)} stored numbers {verb}")
    for d in diffs[:show]:
        where = f"match {d.match_id}" if d.match_id is not None else "current rating"
        click.echo(f"  bot {d.bot_id} {where} {d.field}: stored {d.stored}, recomputed {d.recomputed}")


def cli_actor() -> str:
    """Who acts at the command line, for the audit log: the operating system's login."""
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no login name in a bare container
        return "cli:operator"


# the benches that make their own databases (this one, ladder/cli/chaos.py)
BENCH_DATABASE = click.option("--database-url", envvar="LADDER_BENCH_DATABASE_URL",
                              default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
                              help="A PostgreSQL server where the bench may create and drop its own databases.")


@click.command("service")
@click.option("--bots", type=click.IntRange(min=10), default=10_000, show_default=True, help="Bots in the big seed.")
@click.option("--matches", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Matches in the big seed.")
@click.option("--small-matches", type=click.IntRange(min=1), default=1_000, show_default=True,
              help="Matches in the small seed the big one is compared with.")
@click.option("--requests", type=click.IntRange(min=5), default=200, show_default=True,
              help="Requests per page and seed for the latency figures.")
@click.option("--celery-matches", type=click.IntRange(min=0), default=40, show_default=True,
              help="Matches played through Celery per worker count (0 skips throughput).")
@BENCH_DATABASE
@click.option("--redis-url", envvar="LADDER_BENCH_REDIS_URL", default="redis://127.0.0.1:6379/15", show_default=True,
              help="Redis for the throughput part (the bench flushes this database).")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), help="Sandbox for the throughput matches.")
@click.option("--pages/--no-pages", default=True, show_default=True, help="Measure page latency (the seeding part).")
@click.option("--breakdown", type=click.IntRange(min=0), default=20, show_default=True,
              help="Matches played in the bench's own process, timed per phase (0 skips the breakdown).")
@click.option("--pool", type=click.Choice(("light", "house")), default="light", show_default=True,
              help="Bots seated in the throughput and breakdown matches: light starters only (the ladder's own "
                   "cost), or every starter of the game (house).")
@click.option("--keep", is_flag=True, help="Keep the seeded databases (named in the output).")
def bench_service(**options) -> None:
    """Page latency with 1,000 vs 1,000,000 matches on PostgreSQL, and Celery matches/min with 1 vs 2 workers."""
    from ladder.cli.bench.service import run_service_bench

    run_service_bench(**options)
