"""`ladder bench engine`: how fast each game's rules run in-process, single-threaded.

For every available game, two line-ups of 4 seats (clamped to the game's player range): the
game's greedy-style starter bot, and the random bot. Per repeat it plays the same seeded games
and reports complete games per second and decisions per second (everything: engine, observations,
bots, replay log), the engine's own cost per decision (time inside state.validate + state.apply
only, measured with perf_counter_ns around those calls by the play loop) and, separately, the
cost of building the observation for each decision. Each figure is the median over the repeats.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass

from bots import builtin_names, reference_bot
from ladder.games import available_games, get_game
from ladder.play import play_builtin
from workers.queue import heap

TARGET_US = 20  # engine µs per decision; a sandboxed bot's round trip is about 75 µs
SEATS = 4


@dataclass(frozen=True)
class BenchRow:
    game: str
    bots: str  # e.g. "4 x greedy"
    players: int
    games_per_s: float
    decisions_per_s: float
    decisions_per_game: float
    engine_us: float  # per decision, validate + apply
    observation_us: float  # per decision


def lineups(game: str) -> list[str]:
    names = builtin_names(game)
    return [n for n in dict.fromkeys((reference_bot(game), "random")) if n in names]


def bench_lineup(game: str, bot: str, *, games: int, repeats: int, seed: int = 0) -> BenchRow:
    game_obj = get_game(game)
    players = max(game_obj.min_players, min(SEATS, game_obj.max_players))
    names = [bot] * players
    samples = []
    for _ in range(repeats):
        decisions = engine_ns = observation_ns = 0
        # Freeze the heap, as a worker's pool process does (workers/queue/heap.py). Unfrozen, a full
        # collection walks every loaded module, and its cost lands in whichever timed call triggers
        # it: the flagship's 4 x greedy observation read 33 µs at 20 games and 19 µs at 24.
        heap.freeze()
        start = time.perf_counter_ns()
        try:
            for index in range(games):
                played = play_builtin(game, names, seed=seed + index)
                decisions += played.decisions
                engine_ns += played.engine_ns
                observation_ns += played.observation_ns
        finally:
            gc.unfreeze()
        seconds = (time.perf_counter_ns() - start) / 1e9
        samples.append(
            (
                games / seconds,
                decisions / seconds,
                decisions / games,
                engine_ns / max(decisions, 1) / 1000,
                observation_ns / max(decisions, 1) / 1000,
            )
        )
    medians = [statistics.median(column) for column in zip(*samples, strict=True)]
    return BenchRow(game, f"{players} x {bot}", players, *medians)


def run_engine_bench(
    *, games: int = 20, repeats: int = 5, only_game: str | None = None, seed: int = 0
) -> list[BenchRow]:
    chosen = [only_game] if only_game else available_games()
    return [
        bench_lineup(game, bot, games=games, repeats=repeats, seed=seed) for game in chosen for bot in lineups(game)
    ]


def render(rows: list[BenchRow], *, games: int, repeats: int):
    from rich.table import Table

    table = Table(
        title=f"Engine speed, one thread: medians of {repeats} repeats of {games} games",
        title_justify="left",
        caption="engine µs: per decision, inside state.validate + state.apply only; "
        "obs µs: building the deciding seat's observation, per decision\n"
        "µs depend on the machine and its load: for the flagship, `python bench/instructions.py measure` "
        "counts instructions per decision (callgrind) and translates them, and issue #29's targets "
        "(12 µs engine, 20 µs obs on the baseline machine = 111,700 and 157,800 instructions), "
        "through the baseline's ns per instruction (docs/performance.md)",
        caption_justify="left",
    )
    table.add_column("game", no_wrap=True)
    table.add_column("bots", no_wrap=True)
    for name in ("games/s", "dec/s", "dec/game", "engine µs"):
        table.add_column(name, justify="right")
    table.add_column("obs µs", justify="right")
    for row in rows:
        style = "green" if row.engine_us < TARGET_US else "red"
        table.add_row(
            row.game,
            row.bots,
            f"{row.games_per_s:,.1f}",
            f"{row.decisions_per_s:,.0f}",
            f"{row.decisions_per_game:,.1f}",
            f"[{style}]{row.engine_us:.2f}[/{style}]",
            f"{row.observation_us:.2f}",
        )
    return table
