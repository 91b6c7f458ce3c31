"""`ladder play` and `ladder demo`: games in-process between built-in bots, and their results."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ladder.cli.options import parse_options
from ladder.games import FLAGSHIP

if TYPE_CHECKING:
    from ladder.replay import Replay


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


def _results_table(replay: Replay, title: str):
    from rich.table import Table

    faulty = any(seat.status != "ok" for seat in replay.seats)
    table = Table(title=title, title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    table.add_column("Score", justify="right")
    table.add_column("Rank", justify="right")
    if faulty:
        table.add_column("Status")
    table.add_column("Breakdown")
    for result, seat in zip(replay.results, replay.seats, strict=True):
        row = [str(result.seat), result.bot, str(result.score), str(result.rank)]
        if faulty:
            row.append(seat.status if seat.status == "ok" else f"{seat.status} x{seat.faults}")
        row.append(_breakdown_text(result.breakdown))
        table.add_row(*row, style="bold" if result.rank == 1 else None)
    return table


def _fault_lines(replay: Replay) -> list[str]:
    return [
        f"seat {s.seat} ({s.bot}): {s.status}, {s.faults} fault(s), first: {s.reason}"
        for s in replay.seats
        if s.status != "ok"
    ]


def _title(game: str, seed: int, options: Mapping[str, Any]) -> str:
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


def _json_summary(replay: Replay, replay_path: Path | None) -> dict[str, Any]:
    return {
        "game": replay.header.game,
        "seed": replay.header.seed,
        "options": dict(replay.header.options),
        "results": [
            {"seat": r.seat, "bot": r.bot, "score": r.score, "rank": r.rank, "status": s.status}
            for r, s in zip(replay.results, replay.seats, strict=True)
        ],
        "replay": str(replay_path) if replay_path else None,
    }


def _summary_table(replays: list[Replay]):
    from rich.table import Table

    per_bot: dict[str, dict[str, float]] = {}
    for replay in replays:
        for result in replay.results:
            row = per_bot.setdefault(result.bot, {"seats": 0, "wins": 0, "score": 0, "rank": 0})
            row["seats"] += 1
            row["wins"] += result.rank == 1
            row["score"] += result.score
            row["rank"] += result.rank
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


@click.command()
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--players", type=int, help="Number of seats (default: as many as --bots, else the game's).")
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed (first of them with --games).")
@click.option("--bots", help="Comma-separated built-in bot names, one per seat; one name fills every seat.")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="Game option, repeatable.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the replay.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per game instead of tables.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True, help="Seeds seed..seed+N-1.")
@click.option("--record", is_flag=True,
              help="Also store each game as a finished, unranked match of the ladder's database (the starter "
                   "bots' current versions, each bot in one seat), so `ladder export` writes it out.")
def play(game, players, seed, bots, option_pairs, replay_path, as_json, games, record) -> None:
    """Play games in-process between built-in bots and print the results."""
    from rich.console import Console

    from ladder.cli.progress import Progress
    from ladder.games import OptionError
    from ladder.play import play_builtin
    from ladder.replay import write_replay

    options = parse_options(option_pairs)
    try:
        names = _lineup(game, bots, players)
        if record:
            games_played = _record(game, names, seed, games, options)
            first = next(games_played)
        else:
            first = play_builtin(game, names, seed=seed, options=options)
    except (OptionError, KeyError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    console = Console()
    replays = []
    with Progress(console=Console(stderr=True), transient=True, disable=games == 1 or as_json) as progress:
        task = progress.add_task(f"{game}: {games} games", total=games)
        for index in range(games):
            if index == 0:
                played = first
            elif record:
                played = next(games_played)
            else:
                played = play_builtin(game, names, seed=seed + index, options=options)
            path = None
            if replay_path is not None:
                path = write_replay(played.replay, _indexed(replay_path, index) if games > 1 else replay_path)
            replays.append(played.replay)
            if as_json:
                click.echo(json.dumps(_json_summary(played.replay, path), sort_keys=True))
            elif games == 1:
                replay = played.replay
                console.print(_results_table(replay, _title(game, replay.header.seed, replay.header.options)))
                for line in _fault_lines(replay):
                    console.print(line, style="yellow")
                if path is not None:
                    console.print(f"replay written to {path}")
            progress.advance(task)
    if games > 1 and not as_json:
        console.print(_summary_table(replays))
        if replay_path is not None:
            console.print(f"replays written to {_indexed(replay_path, 0)} .. {_indexed(replay_path, games - 1)}")
    if record:
        games_played.close()  # its session and engine now, not whenever the generator is collected
    if record and not as_json:
        ids = f"match {first.match_id}" if games == 1 else f"matches {first.match_id} .. {played.match_id}"
        console.print(f"recorded as {ids} in the ladder's database")


def _record(game: str, names: list[str], seed: int, games: int, options: dict[str, Any]) -> Iterator[Any]:
    """The recorded games one at a time (each committed as it is played), from the ladder's own
    database (LADDER_INSTANCE_DIR or DATABASE_URL), migrated first as `ladder up` does."""
    from ladder.cli.service import _settings
    from ladder.db import make_engine, session_factory, session_scope, upgrade
    from ladder.services.errors import Invalid
    from ladder.services.house_games import record_house_games

    engine = make_engine(_settings())
    try:
        upgrade(engine)
        with session_scope(session_factory(engine)) as session:
            for index in range(games):
                try:
                    [recorded] = record_house_games(session=session, game=game, bots=names, seeds=[seed + index],
                                                    options=options)
                except Invalid as exc:
                    raise click.UsageError(str(exc)) from None
                yield recorded
    finally:
        engine.dispose()


# --- demo ------------------------------------------------------------------------------------

@click.command()
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
    console.print(_results_table(replay, _title(game, seed, replay.header.options)))
    for fault in _fault_lines(replay):
        console.print(fault, style="yellow")
