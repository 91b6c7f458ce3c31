"""`ladder match`: run one match of sandboxed bot processes and print the seats' results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


def results_table(result: Any):
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{result.game} · seed {result.seed} · sandbox {result.sandbox}", title_justify="left")
    for name, justify in (("Seat", "right"), ("Bot", "left"), ("Score", "right"), ("Rank", "right"),
                          ("Status", "left"), ("Reason", "left")):
        table.add_column(name, justify=justify)
    for r in result.results:
        table.add_row(str(r["seat"]), escape(r["bot"]), str(r["score"]), str(r["rank"]), r["status"],
                      escape(r["reason"] or ""),
                      style="bold" if r["rank"] == 1 else None)
    return table


def strike_lines(result: Any) -> list[str]:
    """Refused answers that did not cost the seat: worth a line, they are the author's bugs."""
    return [
        f"seat {s['seat']} ({s['bot']}): {len(s['strikes'])} refused answer(s), first: "
        f"{s['strikes'][0]['code']}: {s['strikes'][0]['reason']}"
        for s in result.replay["seats"]
        if s["strikes"] and s["takeover"] is None
    ]


def run_match_command(
    bots: tuple[str, ...], game: str, seed: int, options: dict[str, str], sandbox: str,
    replay_path: Path | None, as_json: bool,
) -> None:
    from rich.console import Console
    from rich.markup import escape

    from ladder.games import OptionError
    from workers.packaging import PackagingError
    from workers.runner import RunnerError, run_match

    try:
        result = run_match(list(bots), game=game, seed=seed, options=options, sandbox=sandbox,
                           replay_path=replay_path)
    except (OptionError, KeyError, RunnerError, PackagingError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    if as_json:
        click.echo(json.dumps(result.as_json(), sort_keys=True))
        return
    console = Console(highlight=False)
    console.print(results_table(result))
    for line in strike_lines(result):
        console.print(escape(line), style="yellow")
    if result.replay_path is not None:
        console.print(f"replay written to {result.replay_path} (each bot's stderr is in it)")
