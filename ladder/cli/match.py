"""`ladder match`: run one match of sandboxed bot processes and print the seats' results.

It is where an author tries a bot, so it shows what went wrong where they look: the tail of the
stderr of every seat that faulted (the traceback of a crash), every refused answer, a warning for a
seat that ended with under a quarter of its time bank (it would time out on a slower machine), and
it exits 1 when a bot given as a file (not a `builtin:`) faulted, so a script or CI notices. A
match the ladder's own failures void (workers/match/blame.py) is played again; after the last attempt
it exits 2, naming the ladder's failure, never a bot's.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ladder.cli.options import hex_key, parse_options
from ladder.games import FLAGSHIP

if TYPE_CHECKING:
    from ladder.replay import SeatRecord

TAIL_LINES = 20  # of a faulted seat's stderr: a Python traceback's end, where its cause is
BANK_WARNING = 0.25  # of the time bank left at the end, below which a seat gets a warning


def results_table(result: Any):
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{result.plan.game.name} · seed {result.plan.seed} · sandbox {result.sandbox}" + (
        f" (cgroup {result.replay.header.cgroup})" if result.replay.header.cgroup else ""), title_justify="left")
    for name, justify in (("Seat", "right"), ("Bot", "left"), ("Score", "right"), ("Rank", "right"),
                          ("Status", "left"), ("Reason", "left")):
        table.add_column(name, justify=justify)
    for r in result.results:
        table.add_row(str(r["seat"]), escape(r["bot"]), str(r["score"]), str(r["rank"]), r["status"],
                      escape(r["reason"] or ""),
                      style="bold" if r["rank"] == 1 else None)
    return table


def faulted(seat: SeatRecord) -> bool:
    """A seat whose bot was taken over or had an answer refused."""
    return seat.run is not None and (seat.run.takeover is not None or bool(seat.run.strikes))


def stderr_tail(text: str, lines: int = TAIL_LINES) -> str:
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])


def strike_lines(result: Any) -> list[str]:
    """Every refused answer: each is a bug of the author's, even when the seat kept playing."""
    return [
        f"seat {s.seat} ({s.bot}): strike {n} at request {k['request']} ({k['kind']}): {k['code']}: {k['reason']}"
        for s in result.replay.seats if s.run is not None
        for n, k in enumerate(s.run.strikes, start=1)
    ]


def bank_warnings(result: Any, bank_ms: int) -> list[str]:
    """Seats that kept their seat but ended with under BANK_WARNING of the time bank."""
    out = []
    for s in result.replay.seats:
        left = None if s.run is None else s.run.bank_left_ms
        if s.run is not None and s.run.takeover is None and left is not None and left < BANK_WARNING * bank_ms:
            out.append(f"seat {s.seat} ({s.bot}): only {left:.0f} ms of its {bank_ms} ms time bank left at the "
                       f"end; decisions slower than the per-decision allowance draw on it, and a slower or busier "
                       f"machine would time this bot out")
    return out


def write_logs(result: Any, folder: Path) -> list[Path]:
    """Every seat's stderr as `seat-<n>.log` in `folder` (created), empty logs included."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in result.replay.seats:
        path = folder / f"seat-{s.seat}.log"
        path.write_text(s.stderr or "")
        paths.append(path)
    return paths


def author_faulted(result: Any) -> list[int]:
    """Seats played by a bot given as a file (not builtin:NAME) that faulted."""
    from ladder.match import HouseBot

    return [s.seat for s in result.replay.seats if not isinstance(result.plan.seats[s.seat], HouseBot) and faulted(s)]


def run_match_command(
    bots: tuple[str, ...], game: str, seed: int, options: dict[str, str], sandbox: str,
    replay_path: Path | None, as_json: bool, logs_dir: Path | None = None, seed_key: bytes | None = None,
) -> None:
    from rich.console import Console
    from rich.markup import escape

    from ladder.games import OptionError
    from ladder.match import local_plan
    from ladder.replay import write_replay
    from workers.build.packaging import PackagingError
    from workers.match import blame
    from workers.match.runner import BuildError, Env, RunnerError, run

    def on_build(seat: int, runtime: str) -> None:
        click.echo(f"building seat {seat} ({bots[seat]}) with the {runtime} runtime, in the sandbox "
                   "(the artifact is cached for later matches)...", err=True)

    try:
        plan = local_plan(game, bots, seed=seed, options=options, sandbox=sandbox, seed_key=seed_key)
    except (OptionError, KeyError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    env = Env(on_build=on_build)

    def attempt(final: bool):
        return run(plan, replace(env, final_attempt=final))

    def voided(number: int, fault) -> None:
        click.echo(f"attempt {number} void, the ladder failed (not a bot): {fault.reason}; playing it again",
                   err=True)

    try:
        result = blame.retrying(attempt, on_void=voided)
    except blame.LadderFault as fault:
        click.echo(f"the ladder failed {blame.ATTEMPTS} times (not a bot): {fault.reason}", err=True)
        raise click.exceptions.Exit(2) from None
    except BuildError as exc:
        click.echo(f"seat {exc.seat} ({bots[exc.seat]}) did not build; the compiler said:", err=True)
        click.echo(exc.build.log.rstrip(), err=True)
        raise click.exceptions.Exit(1) from None
    except (OptionError, KeyError, RunnerError, PackagingError) as exc:
        raise click.UsageError(str(exc.args[0]) if exc.args else str(exc)) from None
    if replay_path is not None:
        write_replay(result.replay, replay_path)
    log_paths = write_logs(result, logs_dir) if logs_dir is not None else []
    bad = author_faulted(result)
    if as_json:
        click.echo(json.dumps(result.as_json(replay_path), sort_keys=True))
    else:
        err = Console(stderr=True, highlight=False)
        Console(highlight=False).print(results_table(result))
        for seat in result.replay.seats:
            if faulted(seat) and (seat.stderr or "").strip():
                err.print(f"seat {seat.seat} ({escape(seat.bot)}) faulted; the end of its stderr:",
                          style="bold red")
                err.print(stderr_tail(seat.stderr), markup=False, highlight=False, soft_wrap=True)
        for line in strike_lines(result):
            err.print(escape(line), style="yellow")
        for line in bank_warnings(result, plan.clock.bank_ms):
            err.print(escape(line), style="yellow")
        if log_paths:
            err.print(f"every seat's stderr written to {logs_dir}/seat-<n>.log")
        if replay_path is not None:
            err.print(f"replay written to {replay_path} (each bot's stderr is in it)")
    if bad:
        raise click.exceptions.Exit(1)




@click.command()
@click.argument("bots", nargs=-1, required=True)
@click.option("--game", default=FLAGSHIP, show_default=True, help="Registered game name.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1),
              help="Game seed [default: a random one, printed; a small seed is one a bot could guess].")
@click.option("--seed-key", callback=hex_key, metavar="HEX",
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
    seed = secrets.randbits(63) if seed is None else seed
    run_match_command(bots, game, seed, parse_options(option_pairs), sandbox, replay_path, as_json, logs_dir,
                      seed_key=seed_key)
