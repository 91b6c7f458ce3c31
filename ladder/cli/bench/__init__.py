"""Speed measurements behind `ladder bench ...`: each prints numbers and asserts nothing.

`engine` (ladder.cli.bench.engine) times the rules engine in-process; the sandbox bench lives beside it.
"""

from __future__ import annotations

import click


@click.group()
def bench() -> None:
    """Measure speed. Prints numbers; asserts nothing."""


@bench.command("engine")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True, help="Games per repeat.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True, help="Medians over these.")
@click.option("--game", "only_game", help="One game only (default: every available game).")
@click.option("--seed", type=int, default=0, show_default=True, help="First seed.")
def bench_engine(games: int, repeats: int, only_game: str | None, seed: int) -> None:
    """Games/s and decisions/s on one core, and the engine's µs per decision."""
    from rich.console import Console

    from ladder.cli.bench.engine import TARGET_US, render, run_engine_bench
    from ladder.games import OptionError, available_games

    if only_game is not None and only_game not in available_games():
        raise click.UsageError(f"unknown game {only_game!r} (available: {', '.join(available_games())})")
    console = Console()
    try:
        rows = run_engine_bench(games=games, repeats=repeats, only_game=only_game, seed=seed)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    console.print(render(rows, games=games, repeats=repeats))
    console.print(
        f"Target: engine under {TARGET_US} µs per decision (validate+apply), so the engine is never "
        "the bottleneck next to a sandboxed bot's round trip (about 75 µs)."
    )


@bench.command("live")
@click.option("--game", help="Registered game name (default: the flagship).")
@click.option("--matches", type=click.IntRange(min=1), default=20, show_default=True, help="Matches per relay.")
@click.option("--redis-url", envvar="REDIS_URL", help="Also Redis streams (default: $REDIS_URL).")
def bench_live(game: str | None, matches: int, redis_url: str | None) -> None:
    """CPU per match with the live publisher on each relay against none, and a web process's
    cost per live batch early and late in a match (flat: only the new entries are drawn)."""
    from ladder.cli.bench.live import run_live_bench
    from ladder.games import FLAGSHIP

    run_live_bench(game=game or FLAGSHIP, matches=matches, redis_url=redis_url, echo=click.echo)


@bench.command("soak")
@click.option("--matches", type=click.IntRange(min=1), default=2000, show_default=True)
@click.option("--hog/--no-hog", default=True, show_default=True, help="A spinning process on every core meanwhile.")
@click.option("--game", help="Registered game name (default: the flagship).")
@click.option("--players", type=click.IntRange(min=2), default=4, show_default=True)
@click.option("--minutes", type=click.FloatRange(min=0, min_open=True),
              help="Start no match after this long (a loaded machine); what is left behind is counted all the same.")
@click.option("--every", type=click.IntRange(min=1), default=100, show_default=True,
              help="Progress line every N matches.")
def bench_soak(matches: int, hog: bool, game: str, players: int, minutes: float | None, every: int) -> None:
    """Strict matches in one long-lived process; exit 1 if a seat was charged with a ladder failure
    or a process, cgroup or teardown of a sandbox was left behind."""
    from ladder.cli.bench.soak import run_soak

    result = run_soak(matches=matches, hog=hog, game=game, players=players, echo=click.echo, every=every,
                      minutes=minutes)
    click.echo(f"{result.matches} matches in {result.seconds:.0f} s; {result.voided} attempts voided by the "
               f"ladder, {result.failed} matches failed, {result.charged} seats charged with a ladder failure; "
               f"left behind: {len(result.leftover_processes)} processes, {len(result.leftover_cgroups)} cgroups, "
               f"{result.unfinished} teardowns")
    if not result.clean:
        raise click.exceptions.Exit(1)


@bench.command("botdata")
@click.option("--matches", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=3, show_default=True,
              help="Worker processes, each playing one match at a time.")
@click.option("--database", "databases", type=click.Choice(["sqlite", "postgresql"]), multiple=True,
              help="Where (repeatable; default both).")
@click.option("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="A PostgreSQL server's admin URL: a scratch database is made there and dropped after.")
@click.option("--game", help="Registered game name (default: the flagship).")
def bench_botdata(matches: int, workers: int, databases: tuple[str, ...], postgres: str, game: str | None) -> None:
    """Bot data under concurrent strict matches of the same bots: exit 1 if a write was lost or torn
    or the cap did not hold (ladder/cli/bench/botdata.py)."""
    from ladder.cli.bench.botdata import run_botdata_bench
    from workers.match.runner import RunnerError

    try:
        results = run_botdata_bench(matches=matches, workers=workers, postgres=postgres, echo=click.echo,
                                    databases=list(databases or ("sqlite", "postgresql")), game=game)
    except RunnerError as exc:
        raise click.ClickException(str(exc)) from None
    if not all(r.ok for r in results):
        raise click.exceptions.Exit(1)


@bench.command("sandbox")
@click.option("--mode", type=click.Choice(["strict", "user", "none"]), default="strict", show_default=True)
@click.option("--round-trips", type=click.IntRange(min=50), default=2000, show_default=True)
@click.option("--starts", type=click.IntRange(min=1), default=30, show_default=True)
@click.option("--matches", type=click.IntRange(min=0), default=5, show_default=True,
              help="Full 4-greedy matches per mode (0 skips the match comparison).")
@click.option("--runtimes", "runtime_names", metavar="all|NAME,...",
              help="Also each runtime's starter kit (bots/examples): start to ready sandboxed against bare, "
                   "and the compile step's time.")
@click.option("--runtimes-only", is_flag=True,
              help="Only the runtime table (all runtimes unless --runtimes names some).")
@click.option("--kit-starts", type=click.IntRange(min=1), default=5, show_default=True,
              help="Starts to ready per runtime, sandboxed and bare each.")
@click.option("--compiles", type=click.IntRange(min=1), default=1, show_default=True,
              help="Compile steps per compiled runtime's kit (the median is shown).")
def bench_sandbox(mode: str, round_trips: int, starts: int, matches: int, runtime_names: str | None,
                  runtimes_only: bool, kit_starts: int, compiles: int) -> None:
    """Sandboxed bot round trip, start-up and a full match against no sandbox (medians); with
    --runtimes, each runtime's starter kit too."""
    from ladder.cli.bench.runtimes import parse_names, run_runtime_bench
    from ladder.cli.bench.sandbox import run_sandbox_bench

    try:
        names = parse_names(runtime_names)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--runtimes'") from None
    if not runtimes_only:
        run_sandbox_bench(mode=mode, round_trips=round_trips, starts=starts, echo=click.echo, matches=matches)
    if runtime_names is not None or runtimes_only:
        run_runtime_bench(names, mode=mode, starts=kit_starts, compiles=compiles, echo=click.echo,
                          progress=lambda message: click.echo(message, err=True))


@bench.command("collusion")
@click.option("--reports", type=click.IntRange(min=1), default=10, show_default=True,
              help="Independent honest ladders, each reported on once.")
@click.option("--matches", type=click.IntRange(min=10), default=250, show_default=True,
              help="Matches of the house bots per report.")
@click.option("--trials", type=click.IntRange(min=1), default=20, show_default=True,
              help="Sock-puppet trials.")
@click.option("--within", type=click.IntRange(min=1), default=20, show_default=True,
              help="Shared matches a trial may take.")
@click.option("--seed", type=int, default=0, show_default=True)
def bench_collusion(reports: int, matches: int, trials: int, within: int, seed: int) -> None:
    """The collusion report's false alarms over honest house bots, and how soon it flags the sock
    puppets (the game's Game.sock_puppets). Plays in-process (ladder/play.py); prints figures."""
    from ladder.cli.bench.collusion import false_alarms, power, report_lines

    found = power(trials=trials, within=within, honest_between=2, seed=seed)
    alarms = false_alarms(reports=reports, matches=matches, seed=seed, progress=click.echo)
    for line in report_lines(alarms, found):
        click.echo(line)


@bench.command("ratings")
@click.option("--game", help="Registered game name (default: the flagship).")
@click.option("--matches", type=click.IntRange(min=20), default=2000, show_default=True, help="Matches per ladder.")
@click.option("--ladders", type=click.IntRange(min=1), default=3, show_default=True,
              help="Seeded ladders (seed, seed + 1, ...).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--last", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Matches the report's prediction covers (the site's LADDER_RATINGS_REPORT_LAST).")
@click.option("--bootstrap-every", type=click.IntRange(min=0), default=5, show_default=True,
              help="Take the bootstrap deviation at every N-th game of a version (0: never; it is slow).")
@click.option("--every", type=click.IntRange(min=1), default=200, show_default=True,
              help="Progress line every N matches.")
def bench_ratings(game, matches, ladders, seed, last, bootstrap_every, every) -> None:
    """Seeded ladders of the house bots (a bot arriving late, a new version arriving later), played
    in-process: how well each kind of deviation covers the true levels, and the accuracy report."""
    from ladder.cli.bench.ratings import coverage, coverage_lines, ladder_report, play_ladder, report_lines
    from ladder.games import FLAGSHIP, available_games

    game = game or FLAGSHIP
    if game not in available_games():
        raise click.UsageError(f"unknown game {game!r} (available: {', '.join(available_games())})")
    played = []
    for i in range(ladders):
        lad = play_ladder(game=game, matches=matches, seed=seed + i, bootstrap_every=bootstrap_every,
                          progress=lambda message: click.echo(message, err=True), every=every)
        played.append(lad)
        click.echo(f"ladder {i + 1} (seed {seed + i}): {matches} matches of {game} in {lad.seconds:.0f} s")
        for line in report_lines(ladder_report(lad, last)):
            click.echo(f"  {line}")
    found, spread = coverage(played)
    for line in coverage_lines(found, spread):
        click.echo(line)


@bench.command("clients")
@click.option("--target", "targets", type=click.Choice(["up", "web3"]), multiple=True,
              help="up: `ladder up` on its embedded SQLite; web3: `ladder up --web-workers 3` on PostgreSQL and "
                   "Redis (repeatable; default both).")
@click.option("--port", type=int, default=5200, show_default=True, help="Loopback port the ladder listens on.")
@click.option("--seconds", type=click.FloatRange(min=5, max=600), default=30, show_default=True,
              help="How long the load is held while pages are timed.")
@click.option("--slow", type=click.IntRange(min=0, max=500), default=50, show_default=True, help="Slowloris sockets.")
@click.option("--websockets", type=click.IntRange(min=0, max=200), default=20, show_default=True)
@click.option("--polls", type=click.IntRange(min=0, max=200), default=20, show_default=True,
              help="Waiting seat long polls.")
@click.option("--game", help="Registered game name (default: the flagship).")
@click.option("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres", show_default=True,
              help="web3: a PostgreSQL server's admin URL, where --database is made afresh.")
@click.option("--database", "database_name", default="ladder_bench_clients", show_default=True)
@click.option("--redis-url", help="web3: a Redis of your own (its database is used by the ladder).")
def bench_clients(targets, port, seconds, slow, websockets, polls, game, postgres, database_name, redis_url) -> None:
    """Slowloris sockets, seat websockets and waiting long polls held open against a real ladder while
    GET / and the leaderboard are timed (medians), and another user's remote seat plays: exit 1 when
    a median is 200 ms or more or that seat was forfeited (ladder/cli/bench/clients.py)."""
    from ladder.cli.bench.clients import run_clients_bench
    from ladder.games import FLAGSHIP

    results = run_clients_bench(port=port, seconds=seconds, slow=slow, websockets=websockets, polls=polls,
                                game=game or FLAGSHIP, targets=list(targets or ("up", "web3")), postgres=postgres,
                                redis_url=redis_url, database_name=database_name, say=click.echo)
    if not all(r.ok for r in results):
        raise click.exceptions.Exit(1)
