"""The `ladder` command line. Heavy modules load inside each command so `ladder --help` is fast."""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ladder import __version__
from ladder.games import FLAGSHIP


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ladder")
def main() -> None:
    """The dragon bot ladder: play games between bots, check replays, measure speed."""


# --- helpers ---------------------------------------------------------------------------------


def _hex_key(ctx: click.Context, param: click.Parameter, value: str | None) -> bytes | None:
    if value is None:
        return None
    try:
        key = bytes.fromhex(value)
    except ValueError:
        raise click.BadParameter("not a hex string (a replay's seed_key)") from None
    if not key:
        raise click.BadParameter("empty")
    return key


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.UsageError(f"--option {pair!r}: write it as key=value")
        options[key.strip()] = value.strip()
    return options


def _lineup(game: str, bots: str | None, players: int | None) -> list[str]:
    """Bot names per seat from --bots/--players; one name alone fills every seat."""
    from ladder.games import get_game
    from ladder.play import default_bot_names

    game_obj = get_game(game)
    names = [n.strip() for n in bots.split(",")] if bots else []
    if any(not n for n in names):
        raise click.UsageError(f"--bots {bots!r}: an empty bot name")
    count = players if players is not None else (len(names) if len(names) > 1 else game_obj.default_players)
    if len(names) == 1:
        names = names * count
    game_obj.check_players(count)
    if names and len(names) != count:
        raise click.UsageError(f"--bots names {len(names)} bots for {count} players")
    return names or default_bot_names(game, count)


def _breakdown_text(breakdown: Any) -> str:
    """Compact: `key value, ...` of the non-zero entries; a nested object goes in brackets."""
    if isinstance(breakdown, dict):
        parts = []
        for key, value in breakdown.items():
            if key == "seat" or value in (0, None):  # seat has its own column; zeros say nothing
                continue
            if isinstance(value, dict):
                inner = ", ".join(f"{k} {_breakdown_text(v)}" for k, v in value.items() if v not in (0, None))
                parts.append(f"{key} ({inner or '-'})")
            else:
                parts.append(f"{key} {_breakdown_text(value)}")
        return ", ".join(parts)
    if isinstance(breakdown, str | int | float):
        return str(breakdown)
    return json.dumps(breakdown, separators=(",", ":"))


def _results_table(replay: dict[str, Any], title: str):
    from rich.table import Table

    faulty = any(seat["status"] != "ok" for seat in replay["seats"])
    table = Table(title=title, title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    table.add_column("Score", justify="right")
    table.add_column("Rank", justify="right")
    if faulty:
        table.add_column("Status")
    table.add_column("Breakdown")
    for result, seat in zip(replay["results"], replay["seats"], strict=True):
        row = [str(result["seat"]), result["bot"], str(result["score"]), str(result["rank"])]
        if faulty:
            status = seat["status"] if seat["status"] == "ok" else f"{seat['status']} x{seat['faults']}"
            row.append(status)
        row.append(_breakdown_text(result["breakdown"]))
        table.add_row(*row, style="bold" if result["rank"] == 1 else None)
    return table


def _fault_lines(replay: dict[str, Any]) -> list[str]:
    return [
        f"seat {s['seat']} ({s['bot']}): {s['status']}, {s['faults']} fault(s), first: {s['reason']}"
        for s in replay["seats"]
        if s["status"] != "ok"
    ]


def _title(game: str, seed: int, options: dict[str, Any]) -> str:
    from ladder.games import get_game

    shown = " ".join(f"{k}={v}" for k, v in options.items())
    return f"{get_game(game).title} · seed {seed}" + (f" · {shown}" if shown else "")


def _indexed(path: Path, index: int) -> Path:
    """out.json -> out-3.json, out.json.gz -> out-3.json.gz."""
    name = path.name
    for suffix in (".json.gz", ".json", ".gz"):
        if name.endswith(suffix):
            return path.with_name(f"{name[: -len(suffix)]}-{index}{suffix}")
    return path.with_name(f"{name}-{index}")


def _json_summary(replay: dict[str, Any], replay_path: Path | None) -> dict[str, Any]:
    return {
        "game": replay["game"],
        "seed": replay["seed"],
        "options": replay["options"],
        "results": [
            {"seat": r["seat"], "bot": r["bot"], "score": r["score"], "rank": r["rank"], "status": s["status"]}
            for r, s in zip(replay["results"], replay["seats"], strict=True)
        ],
        "replay": str(replay_path) if replay_path else None,
    }


def _summary_table(replays: list[dict[str, Any]]):
    from rich.table import Table

    per_bot: dict[str, dict[str, float]] = {}
    for replay in replays:
        for result in replay["results"]:
            row = per_bot.setdefault(result["bot"], {"seats": 0, "wins": 0, "score": 0, "rank": 0})
            row["seats"] += 1
            row["wins"] += result["rank"] == 1
            row["score"] += result["score"]
            row["rank"] += result["rank"]
    table = Table(title=f"{len(replays)} games", title_justify="left")
    for name, justify in (("Bot", "left"), ("Seats", "right"), ("Wins", "right"), ("Avg score", "right")):
        table.add_column(name, justify=justify)
    table.add_column("Avg rank", justify="right")
    for name, row in sorted(per_bot.items(), key=lambda item: -item[1]["wins"] / item[1]["seats"]):
        seats = row["seats"]
        table.add_row(
            name, str(seats), str(int(row["wins"])), f"{row['score'] / seats:.2f}", f"{row['rank'] / seats:.2f}"
        )
    return table


# --- play ------------------------------------------------------------------------------------


@main.command()
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--players", type=int, help="Number of seats (default: as many as --bots, else the game's).")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed (first of them with --games).")
@click.option("--bots", help="Comma-separated built-in bot names, one per seat; one name fills every seat.")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="Game option, repeatable.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the replay.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per game instead of tables.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True, help="Seeds seed..seed+N-1.")
def play(game, players, seed, bots, option_pairs, replay_path, as_json, games) -> None:
    """Play games in-process between built-in bots and print the results."""
    from rich.console import Console
    from rich.progress import Progress

    from ladder.games import OptionError
    from ladder.play import play_builtin
    from ladder.replay import write_replay

    options = _parse_options(option_pairs)
    try:
        names = _lineup(game, bots, players)
        first = play_builtin(game, names, seed=seed, options=options)
    except (OptionError, KeyError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    console = Console()
    replays = []
    with Progress(console=Console(stderr=True), transient=True, disable=games == 1 or as_json) as progress:
        task = progress.add_task(f"{game}: {games} games", total=games)
        for index in range(games):
            played = first if index == 0 else play_builtin(game, names, seed=seed + index, options=options)
            path = None
            if replay_path is not None:
                path = write_replay(played.replay, _indexed(replay_path, index) if games > 1 else replay_path)
            replays.append(played.replay)
            if as_json:
                click.echo(json.dumps(_json_summary(played.replay, path), sort_keys=True))
            elif games == 1:
                replay = played.replay
                console.print(_results_table(replay, _title(game, replay["seed"], replay["options"])))
                for line in _fault_lines(replay):
                    console.print(line, style="yellow")
                if path is not None:
                    console.print(f"replay written to {path}")
            progress.advance(task)
    if games > 1 and not as_json:
        console.print(_summary_table(replays))
        if replay_path is not None:
            console.print(f"replays written to {_indexed(replay_path, 0)} .. {_indexed(replay_path, games - 1)}")


# --- match -----------------------------------------------------------------------------------


@main.command()
@click.argument("bots", nargs=-1, required=True)
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1),
              help="Game seed [default: a random one, printed; a small seed is one a bot could guess].")
@click.option("--seed-key", callback=_hex_key, metavar="HEX",
              help="The bots' seed key, to repeat a recorded match (its replay's seed_key) [default: fresh].")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="Game option, repeatable.")
@click.option("--sandbox", type=click.Choice(["auto", "strict", "user", "none"]), default="auto", show_default=True,
              help="auto: strict when available (root), else user. none: no isolation, your own bots only.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the replay.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--logs", "logs_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write every seat's stderr to DIR/seat-<n>.log.")
def match(bots, game, seed, seed_key, option_pairs, sandbox, replay_path, as_json, logs_dir) -> None:
    """Play one game, each BOT a sandboxed process: a .py file, a .zip, a directory, or builtin:NAME.

    Exits 1 when a bot given as a file faulted (crashed, timed out, or had an answer refused)."""
    from workers.match_cli import run_match_command

    seed = secrets.randbits(63) if seed is None else seed
    run_match_command(bots, game, seed, _parse_options(option_pairs), sandbox, replay_path, as_json, logs_dir,
                      seed_key=seed_key)



# --- demo ------------------------------------------------------------------------------------

@main.command()
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed.")
def demo(game: str, seed: int) -> None:
    """Play one game of starter bots with a live log of the public events, then the results."""
    from rich.console import Console
    from rich.markup import escape

    from ladder.games import OptionError, get_game
    from ladder.games.render import renderer_for, seat_namer
    from ladder.play import default_bot_names, play_builtin

    console = Console(highlight=False)
    try:
        game_obj = get_game(game)
        names = default_bot_names(game, game_obj.default_players)
        line = renderer_for(game_obj).event_line
        who = seat_namer(names)

        def show(entry: dict[str, Any]) -> None:
            # public events only, in the game's own words: what an audience may see
            text = line(entry, who) if "type" in entry and entry["to"] is None else ""
            if text:
                console.print(escape(text), overflow="ellipsis", no_wrap=True)

        played = play_builtin(game, names, seed=seed, on_entry=show)
    except (OptionError, KeyError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    replay = played.replay
    console.print()
    console.print(_results_table(replay, _title(game, seed, replay["options"])))
    for fault in _fault_lines(replay):
        console.print(fault, style="yellow")


# --- replay ----------------------------------------------------------------------------------


@main.group()
def replay() -> None:
    """Work with replay files."""


@replay.command("verify")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay_verify(file: Path) -> None:
    """Re-simulate FILE; exit 0 when every event and result matches, 1 with the first difference."""
    from ladder.replay import ReplayError, load_replay, verify_replay

    try:
        loaded = load_replay(file)
    except ReplayError as exc:
        click.echo(f"MALFORMED {file}: {exc}")
        sys.exit(1)
    result = verify_replay(loaded)
    click.echo(result.summary())
    sys.exit(0 if result.ok else 1)


from ladder.commands.replay_view import view as _replay_view  # noqa: E402 (the viewer's own module)

replay.add_command(_replay_view)


# --- bench -----------------------------------------------------------------------------------


@main.group()
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

    from ladder.bench.engine import TARGET_US, render, run_engine_bench
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
    from ladder.bench.soak import run_soak

    result = run_soak(matches=matches, hog=hog, game=game, players=players, echo=click.echo, every=every,
                      minutes=minutes)
    click.echo(f"{result.matches} matches in {result.seconds:.0f} s; {result.voided} attempts voided by the "
               f"ladder, {result.failed} matches failed, {result.charged} seats charged with a ladder failure; "
               f"left behind: {len(result.leftover_processes)} processes, {len(result.leftover_cgroups)} cgroups, "
               f"{result.unfinished} teardowns")
    if not result.clean:
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
    from ladder.bench.runtimes import parse_names, run_runtime_bench
    from ladder.bench.sandbox import run_sandbox_bench

    try:
        names = parse_names(runtime_names)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--runtimes'") from None
    if not runtimes_only:
        run_sandbox_bench(mode=mode, round_trips=round_trips, starts=starts, echo=click.echo, matches=matches)
    if runtime_names is not None or runtimes_only:
        run_runtime_bench(names, mode=mode, starts=kit_starts, compiles=compiles, echo=click.echo,
                          progress=lambda message: click.echo(message, err=True))


# --- protocol --------------------------------------------------------------------------------


@main.group()
def protocol() -> None:
    """The bot protocol's JSON Schemas (ladder/protocol_schema, ladder/games/*/schema.json)."""


@protocol.command("docs")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Update the generated blocks of this page (docs/protocol.md) instead of printing them.")
def protocol_docs(write_path: Path | None) -> None:
    """The field tables docs/protocol.md holds, generated from the schemas."""
    from ladder.protocol_schema.docs import fill, generated

    blocks = generated()
    if write_path is None:
        for name, text in blocks.items():
            click.echo(f"<!-- BEGIN generated: {name} -->\n\n{text}\n<!-- END generated: {name} -->\n")
        return
    page = write_path.read_text()
    if "<!-- BEGIN generated: envelope -->" not in page:
        raise click.UsageError(f"{write_path} has no block for envelope: add "
                               "<!-- BEGIN generated: envelope --> and <!-- END generated: envelope --> lines")
    write_path.write_text(fill(page, blocks))
    click.echo(f"updated {len(blocks)} generated blocks in {write_path}")


# the service's commands (up, web, worker, scheduler, migrate, ratings, bench service)
from ladder.commands import register as _register_service_commands  # noqa: E402

_register_service_commands(main)


if __name__ == "__main__":
    main()
