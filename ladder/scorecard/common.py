"""The measures every game has (docs/scorecard.md, "every game"), and one seat's whole scorecard
of a match: its game's part (Game.scorecard) and these, with the same measures of the match's
winners beside them.

From the replay alone: the results (rank, score and the game's own breakdown by category) and,
for a sandboxed seat, what the runner saw (SandboxRun: faults, strikes, the wall time of each
answer, the clock and the bank left). A seat played in-process (`ladder play`) has no run, so no
time or strike measures.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ladder.games.base import Game
from ladder.games.scorecard import Kind, Measure, Tally
from ladder.replay import Replay

MAX_SEATS = 6  # the largest table of any game: a results-by-seat measure per seat
SCORE_PREFIX = "score."  # the breakdown's categories: score.<key>[.<key>], one measure each

COMMON: tuple[Measure, ...] = (
    Measure("first", "first places", "matches it finished first in (a shared first place counts)", "rate", "%",
            "first"),
    Measure("placing", "placing", "how far up the table it finished: 1 first, 0 last, (players - rank) / "
            "(players - 1)", "mean", "%", "placing"),
    Measure("score", "score", "the game's score, per match", "mean", "", "score"),
    *(Measure(f"first_seat_{k}", f"first from seat {k + 1}", f"first places in the matches it played from seat "
              f"{k + 1} (the seat order is the turn order)", "rate", "%", "results-by-seat")
      for k in range(MAX_SEATS)),
    Measure("faults", "faults", "answers the ladder replaced with the default decision, per match", "total", "",
            "faults"),
    Measure("strikes", "strikes", "answers refused (late, malformed or illegal), per match", "total", "", "faults"),
    Measure("timeouts", "timeouts", "answers refused for being late, per match", "total", "", "faults"),
    Measure("forfeits", "forfeits", "matches it forfeited (ranked last for its faults)", "rate", "%", "faults"),
    Measure("decision_ms", "ms per decision", "wall time of each answer, the median over every decision", "median",
            " ms", "decision-time"),
    Measure("decision_p99_ms", "p99 ms per decision", "the 99th percentile of a match's answer times, the median "
            "over matches", "median", " ms", "decision-time"),
    Measure("clock_used", "of the clock", "each answer's wall time as a share of the per-decision clock, the "
            "median over every decision", "median", "%", "decision-time"),
    Measure("bank_left", "bank left", "the time bank left at the end as a share of the bank it started with, per "
            "match", "mean", "%", "decision-time"),
)
COMMON_BY_NAME = {m.name: m for m in COMMON}


def breakdown_measure(name: str) -> Measure:
    """The measure of one category of a game's score breakdown (`score.tiles.chest`)."""
    key = name.removeprefix(SCORE_PREFIX)
    return Measure(name, f"points: {key.replace('.', ' ')}", f"'{key}' of the game's score breakdown, per match",
                   "total", "", "score-breakdown")


@dataclass(frozen=True, slots=True)
class Catalogue:
    """A game's measures: its part's, then every game's; `score.*` names are made on demand."""

    game: tuple[Measure, ...]
    # name -> kind of the game's own measures, made once: kind() is asked for every tally merged
    own: Mapping[str, Kind] = field(default_factory=dict, compare=False, repr=False)

    def __iter__(self) -> Iterator[Measure]:
        yield from self.game
        yield from COMMON

    def get(self, name: str) -> Measure | None:
        for measure in self.game:
            if measure.name == name:
                return measure
        if name.startswith(SCORE_PREFIX):
            return breakdown_measure(name)
        return COMMON_BY_NAME.get(name)

    def kind(self, name: str) -> Kind | None:
        if name.startswith(SCORE_PREFIX):
            return "total"
        return _KINDS.get(name) or self.own.get(name)

    def kinds(self, names) -> dict[str, Kind]:
        return {name: kind for name in names if (kind := self.kind(name)) is not None}


_KINDS: dict[str, Kind] = {m.name: m.kind for m in COMMON}


def catalogue(game: Game) -> Catalogue:
    part = game.part("scorecard")
    measures = tuple(part.MEASURES) if part is not None else ()
    return Catalogue(measures, {m.name: m.kind for m in measures})


def _leaves(value: object, prefix: str) -> Iterator[tuple[str, float]]:
    """Numeric leaves of a breakdown (bools and lists are no categories)."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if key not in ("seat", "total"):
                yield from _leaves(inner, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, int | float) and not isinstance(value, bool) and prefix:
        yield prefix, value


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def measure_common(replay: Replay) -> dict[int, dict[str, Tally]]:
    players = replay.header.players
    out: dict[int, dict[str, Tally]] = {}
    for result in replay.results:
        row: dict[str, Tally] = {"first": (int(result.rank == 1), 1)}
        if players > 1:
            row["placing"] = ((players - result.rank) / (players - 1), 1)
        if isinstance(result.score, int | float) and not isinstance(result.score, bool):
            row["score"] = (result.score, 1)
        if result.seat < MAX_SEATS:
            row[f"first_seat_{result.seat}"] = (int(result.rank == 1), 1)
        for key, points in _leaves(result.breakdown, ""):
            row[SCORE_PREFIX + key] = (points, 1)
        out[result.seat] = row
    for seat in replay.seats:
        row = out.setdefault(seat.seat, {})
        row["faults"] = (seat.faults, 1)
        row["forfeits"] = (int(seat.forfeit), 1)
        run = seat.run
        if run is None:
            continue
        row["strikes"] = (len(run.strikes), 1)
        row["timeouts"] = (sum(1 for s in run.strikes if isinstance(s, Mapping) and s.get("code") == "timeout"), 1)
        walls = [float(t[0]) for t in run.timings if isinstance(t, list | tuple) and t]
        clock = run.clock if isinstance(run.clock, Mapping) else {}
        if walls:
            row["decision_ms"] = tuple(walls)
            row["decision_p99_ms"] = (p99(walls),)
            if clock.get("decision_ms"):
                row["clock_used"] = tuple(100 * w / clock["decision_ms"] for w in walls)
        if run.bank_left_ms is not None and clock.get("bank_ms"):
            row["bank_left"] = (run.bank_left_ms / clock["bank_ms"], 1)
    return out


def seat_tallies(game: Game, replay: Replay) -> dict[int, dict[str, Tally]]:
    """Seat -> measure name -> tally: the game's part's measures, then every game's."""
    part = game.part("scorecard")
    own = part.measure(replay) if part is not None else {}
    common = measure_common(replay)
    return {seat: {**own.get(seat, {}), **common.get(seat, {})} for seat in sorted(set(own) | set(common))}
