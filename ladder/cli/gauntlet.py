"""`ladder gauntlet`: the game's strongest house bot (or any bot) against the bots written outside
the house (bots/gauntlet/, listed per game in gauntlet.json), each at its own table with the same
fillers, in every seat order of the same deals; prints how often the measured bot finished above
each outside bot, with 95% intervals (ladder/tournaments/gauntlet.py). Matches are played by
workers.match.runner, as `ladder tournament` plays them, in a pool of processes.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import click

import bots
from ladder.games import FLAGSHIP

GAUNTLET_DIR = Path(bots.__file__).resolve().parent / "gauntlet"  # shipped as package data
# Two sets of outside bots: the gauntlet (bots/gauntlet/gauntlet.json), which house bots may be
# tuned against, and the held-out bots (bots/heldout/heldout.json), which no house bot is ever
# tuned against: the boss's standing is its share against those (issue #47).
SETS = {"gauntlet": GAUNTLET_DIR / "gauntlet.json",
        "heldout": GAUNTLET_DIR.parent / "heldout" / "heldout.json"}
# A boss must finish above each held-out outsider in at least 65% of games (issue #47): the bar's mark
TARGET = 0.65


def lineup(game: str, manifest_file: Path = SETS["gauntlet"]) -> tuple[list[str], list[str], int]:
    """The game's outside bots (paths), its filler bots and its table size (4 unless the manifest
    says), from a set's manifest."""
    manifest = json.loads(manifest_file.read_text())
    entry = manifest.get(game)
    if entry is None:
        raise click.UsageError(f"{manifest_file.parent.name}/{manifest_file.name} lists no outside bot for {game}")
    return ([str(manifest_file.parent / name) for name in entry["bots"]], list(entry["fillers"]),
            int(entry.get("players", 4)))


def _bar(share: float, low: float, high: float, width: int = 30) -> str:
    """The share as a bar, its interval as the span of '-' around the bar's end; '|' marks TARGET."""
    if math.isnan(share):
        return ""
    cells = []
    for i in range(width):
        x = (i + 0.5) / width
        cells.append("█" if x <= share else "-" if low <= x <= high else "·")
    mark = int(TARGET * width)
    cells[mark] = "|" if cells[mark] == "·" else cells[mark]
    return "".join(cells)


@click.command()
@click.argument("house", required=False)
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--against", "outsiders", multiple=True, metavar="BOT",
              help="An outside bot, repeatable [default: the game's bots of --set].")
@click.option("--set", "bot_set", type=click.Choice(sorted(SETS)), default="gauntlet", show_default=True,
              help="Which outside bots by default: the gauntlet (tuning) or the held-out bots (the boss's standing).")
@click.option("--fillers", help="Comma-separated bots that fill the other seats [default: the gauntlet's].")
@click.option("--players", type=click.IntRange(min=2), default=None,
              help="Seats per table [default: the set's table for the game, else 4].")
@click.option("--deals", type=click.IntRange(min=1), default=4, show_default=True,
              help="Deals, each played in every seat order (24 at 4 seats; a balanced set beyond).")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="Game option, repeatable.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seeds the deals [default: a fresh secret one, printed]. Give one to repeat a measurement.")
@click.option("--sandbox", type=click.Choice(["auto", "strict", "user", "none"]), default="strict",
              show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Matches at once (default: the cores).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every match and the table as JSON.")
def gauntlet(house, game, outsiders, bot_set, fillers, players, deals, option_pairs, seed, sandbox, jobs,
             out_file) -> None:
    """How often HOUSE (default: the game's boss, its strongest house bot) finishes above each outside bot."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from ladder.cli.options import parse_options
    from ladder.cli.progress import Progress
    from ladder.cli.tournament_local import Job, play_job, run_pool
    from ladder.games import OptionError, get_game
    from ladder.tournaments import gauntlet as model
    from ladder.tournaments.model import TournamentError
    from workers.match.runner import RunnerError, choose_mode

    seed = secrets.randbits(62) if seed is None else seed  # as `ladder tournament`: no deal a bot could guess
    default_outsiders, default_fillers, default_players = (
        lineup(game, SETS[bot_set]) if not (outsiders and fillers and players) else ([], [], 4))
    players = players or default_players
    try:
        game_obj = get_game(game)
        resolved = game_obj.resolve_options(parse_options(option_pairs))
        game_obj.check_players(players)
    except OptionError as exc:
        raise click.UsageError(str(exc)) from None
    house = house or (f"builtin:{game_obj.boss}" if game_obj.boss else None)
    if house is None:
        raise click.UsageError(f"{game} names no boss: give the bot to measure")
    spec_outsiders = tuple(outsiders) or tuple(default_outsiders)
    spec_fillers = tuple(f.strip() for f in fillers.split(",") if f.strip()) if fillers else tuple(default_fillers)
    try:
        spec = model.GauntletSpec(game, house, spec_outsiders, spec_fillers, players, deals, seed, resolved)
        matches = model.schedule(spec)
        mode = choose_mode(sandbox, require_strict=False)
    except (TournamentError, RunnerError) as exc:
        raise click.UsageError(str(exc)) from None
    _check_staging([house, *spec.outsiders, *spec.fillers], game)
    workers = jobs or os.cpu_count() or 1
    # piped or logged output is read later, in full: no terminal's width to fit
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    console.print(f"{game}: {escape(house)} against {len(spec.outsiders)} outside bot(s) at tables of {players} "
                  f"with {escape(', '.join(spec.fillers) or 'no fillers')}; {deals} deal(s) in every seat order, "
                  f"{len(matches)} matches, sandbox {mode}, {workers} at once, seed {seed}")
    jobs_list = [Job(m, m.seats, _names(spec, m), game, resolved, mode, None) for m in matches]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        task = progress.add_task("matches", total=len(jobs_list))
        played = run_pool(jobs_list, play_job, workers, lambda _: progress.advance(task))
    rows = model.finishing_above(spec, played, seed=seed)
    table = Table(title=f"{escape(_short(house))} finishing above each outside bot (95% intervals: bootstrap "
                        "over deals; forfeits: house/outside; lost: matches not counted)", title_justify="left")
    for name, justify in (("Outside bot", "left"), ("Above/games", "right"), ("Share [95%]", "right"),
                          (f"0 ... | {TARGET:.0%} ... 1", "left"), ("Ties", "right"), ("Forfeits", "right"),
                          ("Lost", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for row in rows:
        table.add_row(escape(_short(row.outsider)), f"{row.above}/{row.games}",
                      f"{row.share:.2f} [{row.low:.2f}, {row.high:.2f}]", _bar(row.share, row.low, row.high, 20),
                      str(row.ties), f"{row.house_forfeits}/{row.outsider_forfeits}", str(row.failed))
    console.print(table)
    if out_file is not None:
        report: dict[str, Any] = {
            "game": game, "options": resolved, "house": house, "fillers": list(spec.fillers), "players": players,
            "deals": deals, "seed": seed, "sandbox": mode, "rows": [r.as_json() for r in rows],
            "matches": [{"outsider": p.spec.table, "seats": list(p.spec.seats), "deal": p.spec.deal,
                         "order": p.spec.order, "house_seat": model.seat_of(spec, p.spec, model.HOUSE),
                         "outsider_seat": model.seat_of(spec, p.spec, model.OUTSIDER), "failed": p.failed,
                         "ranks": p.ranks() if p.counts() else None} for p in played],
        }
        out_file.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
        console.print(f"written to {out_file}")


def _check_staging(specs: list[str], game: str) -> None:
    """A bot that does not stage (a missing file, a bad package) fails here once, not in every match."""
    import tempfile

    from ladder.games import get_game
    from ladder.match import local_seat
    from workers.build.packaging import PackagingError, remove_staged
    from workers.match.runner import RunnerError, stage_seat

    with tempfile.TemporaryDirectory(prefix="ladder-check-") as tmp:
        for spec in dict.fromkeys(specs):
            try:
                remove_staged(stage_seat(local_seat(spec), 0, get_game(game), Path(tmp)).path)
            except (OSError, KeyError, RunnerError, PackagingError) as exc:
                raise click.UsageError(f"{spec}: {exc.args[0] if exc.args else exc}") from None


def _names(spec: Any, match: Any) -> tuple[str, ...]:
    """Seat names for the replay: the bot's short name, made unique at the table."""
    out: list[str] = []
    for seat in match.seats:
        base = _short(seat)
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}#{n}"
        out.append(name)
    return tuple(out)


def _short(spec: str) -> str:
    return spec.removeprefix("builtin:") if spec.startswith("builtin:") else Path(spec.rstrip("/")).stem
