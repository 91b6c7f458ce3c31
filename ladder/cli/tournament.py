"""`ladder tournament`: a duplicate round robin (or Swiss event) of local bots on this machine.

The schedule and the standings come from ladder/tournaments (the code the site uses); every match
is played by workers.match.runner.run, as `ladder match` and the site's workers play it, in a pool
of processes (ladder/cli/tournament_local.py). Writes OUT/tournament.json and OUT/replays/.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

import click

from ladder.games import FLAGSHIP

SANDBOXES = ["auto", "strict", "user", "none"]


def entrant_names(specs: list[str]) -> list[str]:
    """Short display names (builtin:greedy -> greedy, dir/mybot.py -> mybot), made unique with #2, #3."""
    out: list[str] = []
    for spec in specs:
        base = spec.removeprefix("builtin:") if spec.startswith("builtin:") else Path(spec.rstrip("/")).name
        for suffix in (".tar.gz", ".zip", ".py", ".js"):
            if base.endswith(suffix) and base != suffix:
                base = base[: -len(suffix)]
                break
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}#{n}"
        out.append(name)
    return out


WIDE = 10_000  # written to a file, the standings keep their natural width, one row a line


def _fmt(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}"


def standings_table(table: Any, title: str):
    from rich.markup import escape
    from rich.table import Table

    out = Table(title=title, title_justify="left")
    for name, justify in (("#", "right"), ("Bot", "left"), ("Matches", "right"), ("Mean rank [95% CI]", "right"),
                          ("Mean score [95% CI]", "right"), ("Wins", "right"), ("Forfeits", "right")):
        out.add_column(name, justify=justify)
    for place, row in enumerate(table.rows, 1):
        out.add_row(str(place), escape(row.entrant.name), str(row.matches),
                    f"{_fmt(row.rank.mean)} [{_fmt(row.rank.low)}, {_fmt(row.rank.high)}]",
                    f"{_fmt(row.score.mean)} [{_fmt(row.score.low)}, {_fmt(row.score.high)}]",
                    str(row.wins), str(row.forfeits))
    return out


def crosstable(table: Any):
    """Row bot's share of points against the column bot (win 1, tie 1/2) over their meetings."""
    from rich.markup import escape
    from rich.table import Table

    keys = [r.entrant.key for r in table.rows]
    out = Table(title="Crosstable: row's points against column (win 1, tie ½) / meetings", title_justify="left")
    out.add_column("Bot")
    for row in table.rows:
        out.add_column(escape(row.entrant.name), justify="right")
    for row in table.rows:
        cells = []
        for other in keys:
            pair = table.crosstable.get((row.entrant.key, other))
            cells.append("" if other == row.entrant.key or pair is None else f"{pair.points:.2f}/{pair.meetings}")
        out.add_row(escape(row.entrant.name), *cells)
    return out


@click.command()
@click.argument("bots", nargs=-1, required=True)
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="Game option, repeatable.")
@click.option("--players", type=int, help="Seats per table (default: every bot at one table if the game allows).")
@click.option("--deals", type=click.IntRange(min=1), default=10, show_default=True,
              help="Deals (seeds) per round; with duplicate seating each is played in every seat order.")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Duplicate seating; --no-duplicate plays as many matches, each on its own seed and seating.")
@click.option("--format", "fmt", type=click.Choice(["round-robin", "swiss"]), default="round-robin",
              show_default=True)
@click.option("--rounds", type=click.IntRange(min=1), default=None, help="Swiss rounds (default 3).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seeds the deals and any random seating [default: a fresh secret one, recorded in tournament.json]. "
                   "Give one to repeat an event; a small or known seed lets a sandboxed bot search for the deals.")
@click.option("--sandbox", type=click.Choice(SANDBOXES), default="strict", show_default=True,
              help="strict needs root (bubblewrap); user works without; none: no isolation, your own bots only.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Matches at once (default: the cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("tournament"),
              show_default=True, help="Folder for tournament.json and replays/ (must be new or empty).")
def tournament(bots, game, option_pairs, players, deals, duplicate, fmt, rounds, seed, sandbox, jobs,
               out_dir) -> None:
    """Play BOTS (files, folders, .zip or builtin:NAME) against each other, duplicate seated, and rank them."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from ladder.cli.options import parse_options
    from ladder.cli.progress import Progress
    from ladder.cli.tournament_local import Job, freeze_entrants, play_job, replay_name, run_pool
    from ladder.games import OptionError, get_game
    from ladder.match import local_seat
    from ladder.tournaments import model
    from ladder.tournaments.standings import standing_order, standings
    from workers.build.packaging import PackagingError, remove_staged
    from workers.match.runner import RunnerError, choose_mode, stage_seat

    options = parse_options(option_pairs)
    # The deals follow from the seed (base + deal * stride): a seed a bot could guess (1, the old
    # default) lets it search the few candidate deals for the one matching its own cards, then
    # rebuild every hidden one with the engine. A fresh 62-bit secret leaves nothing to search.
    seed = secrets.randbits(62) if seed is None else seed
    try:
        game_obj = get_game(game)
        resolved = game_obj.resolve_options(options)
    except (OptionError, KeyError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    size = players or (len(bots) if len(bots) <= game_obj.max_players else game_obj.default_players)
    try:
        game_obj.check_players(size)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    if fmt == "round-robin" and rounds is not None:
        raise click.UsageError("--rounds is for --format swiss")
    names = entrant_names(list(bots))
    try:
        spec = model.TournamentSpec(
            game, tuple(model.Entrant(n, n) for n in names), table_size=size, deals=deals, format=fmt,
            rounds=rounds or (3 if fmt == "swiss" else 1), duplicate=duplicate, seed=seed, options=resolved)
        total = model.schedule_size(spec)
        for seats in model.table_sizes(spec):
            game_obj.check_players(seats)
        if total > model.MAX_MATCHES:
            raise model.TournamentError(f"{total} matches is more than {model.MAX_MATCHES}")
        mode = choose_mode(sandbox, require_strict=False)
    except (model.TournamentError, RunnerError, OptionError) as exc:
        raise click.UsageError(f"tables of {seats}: {exc}" if isinstance(exc, OptionError) else str(exc)) from None
    if out_dir.exists() and any(out_dir.iterdir()):
        raise click.UsageError(f"{out_dir} is not empty: give a new folder with --out")
    replays = out_dir / "replays"
    replays.mkdir(parents=True, exist_ok=True)
    try:
        frozen = freeze_entrants(bots, out_dir / "entrants")
        with tempfile.TemporaryDirectory(prefix="ladder-check-") as tmp:
            for path in frozen:  # a bot that does not stage fails here, once, not in every match
                remove_staged(stage_seat(local_seat(path), 0, game_obj, Path(tmp)).path)
    except (OSError, RunnerError, PackagingError) as exc:
        raise click.UsageError(str(exc)) from None
    by_name = dict(zip(names, frozen, strict=True))
    workers = jobs or os.cpu_count() or 1
    console = Console(highlight=False)
    if not console.is_terminal:  # a file or a pipe: rich would wrap the tables at 80 columns
        console = Console(highlight=False, width=WIDE)
    console.print(f"{game}: {len(names)} bots, tables of {size}, {deals} deal(s)"
                  f"{' per round' if fmt == 'swiss' else ''}, {fmt}, "
                  f"{'duplicate' if duplicate else 'random'} seating, {total} matches, sandbox {mode}, "
                  f"{workers} at once, seed {seed}")

    def jobs_for(matches):
        return [Job(m, tuple(by_name[k] for k in m.seats), m.seats, game, resolved, mode,
                    str(replays / replay_name(m))) for m in matches]

    played = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("matches", total=total)

        def done(result):
            progress.advance(task)

        if fmt == "round-robin":
            played = run_pool(jobs_for(model.round_robin(spec)), play_job, workers, done)
        else:
            order = [e.key for e in spec.entrants]
            for rnd in range(spec.rounds):
                matches = model.swiss_round(spec, rnd, order, start=len(played))
                played += run_pool(jobs_for(matches), play_job, workers, done)
                order = standing_order(standings(spec.entrants, played, seed=seed))
    table = standings(spec.entrants, played, seed=seed)
    report = {
        "game": game, "options": resolved, "format": fmt, "rounds": spec.rounds, "deals": deals,
        "duplicate": duplicate, "table_size": size, "seed": seed, "sandbox": mode,
        "entrants": [{"name": n, "bot": b} for n, b in zip(names, bots, strict=True)],
        "matches": [_match_json(p, replays) for p in played],
        **table.as_json(),
    }
    (out_dir / "tournament.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    console.print(standings_table(table, f"Standings · {len(played)} matches · mean rank and score with 95% "
                                         "intervals (bootstrap over deals)"))
    console.print(crosstable(table))
    for index, why in table.excluded:
        console.print(f"match {index} not counted: {why}", style="yellow")
    console.print(f"results in {out_dir / 'tournament.json'}, replays in {replays}")


def _match_json(played: Any, replays: Path) -> dict[str, Any]:
    from ladder.cli.tournament_local import replay_name

    m = played.spec
    out: dict[str, Any] = {"index": m.index, "round": m.round, "table": m.table, "deal": m.deal, "seed": m.seed,
                           "order": m.order, "seats": list(m.seats)}
    if played.failed is not None:
        out["failed"] = played.failed
    else:
        out["results"] = [{"rank": s.rank, "score": s.score, "forfeited": s.forfeited} for s in played.seats]
        out["replay"] = str(replays / replay_name(m))
    return out


@click.command("tournament")
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--deals", type=click.IntRange(min=3), default=24, show_default=True,
              help="Deals of the duplicate event; the random one plays as many matches.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Processes (default: the cores).")
@click.option("--bots", "bot_list", help="Comma-separated built-in bots, one table (default: the starter bots); "
                                          "a name twice plays twice.")
def bench_tournament(game: str, deals: int, seed: int, jobs: int | None, bot_list: str | None) -> None:
    """Standard error of mean-rank differences: duplicate against random seating, same match count."""
    from rich.console import Console

    from ladder.cli.bench.tournament import field_of, render, run_tournament_bench, summary
    from ladder.cli.progress import Progress
    from ladder.games import OptionError, get_game
    from ladder.tournaments.model import seat_orders

    bots = [b.strip() for b in bot_list.split(",")] if bot_list else None
    try:
        names = field_of(game, bots)
        get_game(game).check_players(len(names))
    except (KeyError, OptionError) as exc:
        raise click.UsageError(str(exc.args[0])) from None
    console = Console()
    total = 2 * deals * len(seat_orders(len(names)))
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{game}: {total} in-process games", total=total)
        rows, matches = run_tournament_bench(game=game, deals=deals, seed=seed, workers=jobs or os.cpu_count() or 1,
                                             bots=bots, on_done=lambda _: progress.advance(task))
    console.print(render(rows, game=game, matches=matches, deals=deals, bots=bots))
    console.print(summary(rows))
