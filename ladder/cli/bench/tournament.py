"""`ladder bench tournament`: how much duplicate seating saves, in matches, for the same confidence.

The field is the game's starter bots at one table (or the built-in bots named with --bots; a name
given twice plays twice, which measures pure luck: the true difference is zero). The same number
of matches is played twice: with duplicate seating (D deals, each in every seat order of
ladder.tournaments.model) and with random seating (every match its own seed and a random seat
order, as a ladder seats a table).
For each pair of entrants it prints the standard error of the difference of their mean ranks:

- duplicate: the deal is the independent unit (its matches share the cards), so the difference
  of the two entrants' mean ranks is taken per deal and SE = sd(per-deal differences) / sqrt(D);
- random: every match is independent, SE = sd(per-match differences) / sqrt(matches).

The ratio (SE random / SE duplicate)^2 is how many times more matches random seating needs for
the same standard error. Games are played in-process with the built-in bots (`ladder.play`), not
sandboxed: the ranks are the same either way (bots are seeded by the match), only the clock
differs, and in-process keeps the measurement fast. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bots import builtin_names
from ladder.games import get_game
from ladder.tournaments.model import Entrant, MatchSpec, TournamentSpec, round_robin
from ladder.tournaments.standings import PlayedMatch, SeatResult


@dataclass(frozen=True, slots=True)
class PairRow:
    a: str
    b: str
    diff_duplicate: float  # mean rank of a minus mean rank of b
    se_duplicate: float
    diff_random: float
    se_random: float

    @property
    def ratio(self) -> float:
        if not self.se_duplicate:
            return math.nan if not self.se_random else math.inf
        return (self.se_random / self.se_duplicate) ** 2


@dataclass(frozen=True, slots=True)
class BenchJob:
    match: MatchSpec
    game: str
    options: dict


def play_inprocess(job: BenchJob) -> PlayedMatch:
    from ladder.play import play_builtin

    names = [key.split("#")[0] for key in job.match.seats]  # greedy#2 is a second greedy
    played = play_builtin(job.game, names, seed=job.match.seed, options=job.options)
    return PlayedMatch(job.match, tuple(SeatResult(r.rank, r.score, s.forfeit)
                                        for r, s in zip(played.results, played.seats, strict=True)))


def field_of(game: str, bots: Sequence[str] | None = None) -> list[str]:
    """Entrant keys: the given built-in names (a repeated one becomes name#2, ...), else the game's
    starter bots. Raises KeyError for a name the game does not have."""
    names = list(bots) if bots else builtin_names(game)[: get_game(game).max_players]
    known = builtin_names(game)
    keys: list[str] = []
    for name in names:
        if name not in known:
            raise KeyError(f"no built-in {game} bot {name!r} (known: {', '.join(known)})")
        key, n = name, 1
        while key in keys:
            n += 1
            key = f"{name}#{n}"
        keys.append(key)
    return keys


def rank_of(match: PlayedMatch) -> dict[str, int]:
    return dict(zip(match.spec.seats, match.ranks(), strict=True))


def se_duplicate(played: Sequence[PlayedMatch], a: str, b: str) -> tuple[float, float]:
    """(mean difference, standard error) with deals as the independent units."""
    per_deal: dict[int, list[float]] = defaultdict(list)
    for match in played:
        ranks = rank_of(match)
        per_deal[match.spec.deal].append(ranks[a] - ranks[b])
    diffs = [statistics.fmean(v) for v in per_deal.values()]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def se_random(played: Sequence[PlayedMatch], a: str, b: str) -> tuple[float, float]:
    """(mean difference, standard error) with each match independent."""
    diffs = [rank_of(m)[a] - rank_of(m)[b] for m in played]
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def run_tournament_bench(*, game: str, deals: int, seed: int, workers: int, bots: Sequence[str] | None = None,
                         on_done: Callable[[PlayedMatch], None] | None = None) -> tuple[list[PairRow], int]:
    """(a row per pair of entrants, matches per seating)."""
    from ladder.cli.tournament_local import run_pool

    names = field_of(game, bots)
    entrants = tuple(Entrant(n, n) for n in names)
    options = get_game(game).resolve_options({})
    results = {}
    for duplicate in (True, False):
        spec = TournamentSpec(game, entrants, table_size=len(names), deals=deals, duplicate=duplicate, seed=seed)
        jobs = [BenchJob(m, game, options) for m in round_robin(spec)]
        results[duplicate] = run_pool(jobs, play_inprocess, workers, on_done)
    rows = []
    for a, b in itertools.combinations(names, 2):
        dd, sd = se_duplicate(results[True], a, b)
        dr, sr = se_random(results[False], a, b)
        rows.append(PairRow(a, b, dd, sd, dr, sr))
    return rows, len(results[True])


def render(rows: Sequence[PairRow], *, game: str, matches: int, deals: int, bots: Sequence[str] | None = None):
    from rich.table import Table

    table = Table(title=f"{game}: {', '.join(field_of(game, bots))}, {matches} matches per seating "
                        f"(duplicate: {deals} deals x {matches // deals} seat orders)", title_justify="left",
                  caption="diff: mean rank of a minus b; SE: its standard error; ratio = (SE random / SE "
                          "duplicate)^2 = matches random seating needs per duplicate match", caption_justify="left")
    for name in ("a", "b"):
        table.add_column(name)
    for name in ("diff dup", "SE dup", "diff random", "SE random", "ratio"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(r.a, r.b, f"{r.diff_duplicate:+.3f}", f"{r.se_duplicate:.3f}", f"{r.diff_random:+.3f}",
                      f"{r.se_random:.3f}", f"{r.ratio:.2f}")
    return table


def summary(rows: Sequence[PairRow]) -> str:
    ratios = sorted(r.ratio for r in rows if not math.isnan(r.ratio))
    if not ratios:
        return "no pair's ranks varied: no ratio to measure"
    return (f"variance ratio over {len(ratios)} pairs: median {statistics.median(ratios):.2f}, "
            f"min {ratios[0]:.2f}, max {ratios[-1]:.2f}")
