"""`ladder bench collusion`: the collusion report's power and false alarms, measured in-process.

Matches are played by ladder/play.py with the house bots (no sandbox: the bench measures the
statistics, not the bots' isolation), rated with ladder.ranking.ratings as the ladder rates them, and their
replays read by the game's negotiation facts, exactly as services/collusion.py reads stored ones.

- false alarms: independent honest ladders (`--reports`, each `--matches` tables of the game's
  starter bots); every pair each report flags is a false alarm;
- power: the game's sock puppets (Game.sock_puppets) at tables with two honest bots, among honest tables
  of the puppets apart; the number of shared matches after which the report first flags them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.games import get_game
from ladder.play import make_bots, play_game
from ladder.ranking.collusion import MatchFacts, PairEvidence, evidence
from ladder.ranking.ratings import MILLI, RankedSeat, RatingBook


def puppet_game() -> str:
    """The game the bench plays: the first with negotiation facts and sock puppets (Game attributes)."""
    from ladder.games import GAMES

    return next(name for name in sorted(GAMES)
                if get_game(name).part("negotiations") is not None and get_game(name).sock_puppets)


GAME = puppet_game()
PLAYERS = 4
FEEDER, TAKER = "feeder", "taker"


@dataclass(slots=True)
class Ladder:
    """A small in-process ladder: bot names as ids, one rating book, the facts of every match."""

    rng: random.Random
    names: list[str]
    book: RatingBook
    facts: list[MatchFacts]

    def play(self, seated: Sequence[str]) -> None:
        seed = self.rng.randrange(2**31)
        ids = [self.names.index(n) for n in seated]
        ratings = [self.book.rating(i) / MILLI for i in ids]
        bots = seat_bots(seated)
        played = play_game(GAME, bots, seed=seed, names=list(seated))
        ranks = [r.rank for r in sorted(played.replay.results, key=lambda r: r.seat)]
        self.book.apply(len(self.facts), [RankedSeat(i, r) for i, r in zip(ids, ranks, strict=True)])
        offers, votes = get_game(GAME).part("negotiations").acts(played.replay.to_json())
        self.facts.append(MatchFacts(len(self.facts), ids, ranks, ratings, offers, votes))


def seat_bots(seated: Sequence[str]) -> list[Any]:
    """Fresh bots for the seats: the sock puppets by their names (FEEDER, TAKER), else house bots."""
    puppets = get_game(GAME).sock_puppet_module()
    out = []
    for name in seated:
        if name == FEEDER:
            out.append(puppets.FeederBot(seated.index(TAKER) if TAKER in seated else -1))  # -1: no partner here
        elif name == TAKER:
            out.append(puppets.TakerBot())
        else:
            out.extend(make_bots(GAME, [name]))
    return out


def honest_names() -> list[str]:
    return sorted(get_game(GAME).starter_bots)


@dataclass(frozen=True, slots=True)
class FalseAlarms:
    reports: int
    matches: int
    pairs: int  # pair tests over all reports
    flagged: int
    reports_flagging: int
    strongest: PairEvidence | None
    seconds: float


def false_alarms(*, reports: int, matches: int, seed: int, progress: Callable[[str], None] = lambda _: None
                 ) -> FalseAlarms:
    started = time.monotonic()
    names = honest_names()
    pairs = flagged = flagging = 0
    strongest = None
    for r in range(reports):
        ladder = Ladder(random.Random(seed * 1000 + r), names, RatingBook(), [])
        for _ in range(matches):
            ladder.play(ladder.rng.sample(names, PLAYERS))
        found = evidence(ladder.facts)
        pairs += len(found)
        hits = [e for e in found if e.flagged]
        flagged += len(hits)
        flagging += bool(hits)
        if found and (strongest is None or found[0].p_value < strongest.p_value):
            strongest = found[0]
        progress(f"report {r + 1}/{reports}: {len(hits)} of {len(found)} pairs flagged; "
                 f"smallest p {found[0].p_value:.2g}")
    return FalseAlarms(reports, matches, pairs, flagged, flagging, strongest, time.monotonic() - started)


@dataclass(frozen=True, slots=True)
class Power:
    trials: int
    within: int
    first_flagged: list[int | None]  # per trial: shared matches until flagged (None: not within)
    seconds: float


def power(*, trials: int, within: int, honest_between: int, seed: int) -> Power:
    """Per trial: a fresh ladder of the honest bots and the two puppets; each round, one table of
    both puppets with two honest bots, and `honest_between` tables of the others (each puppet
    seated apart too), until the report flags the puppets or `within` shared matches pass."""
    started = time.monotonic()
    honest = honest_names()
    names = [*honest, FEEDER, TAKER]
    feeder, taker = names.index(FEEDER), names.index(TAKER)
    firsts: list[int | None] = []
    for t in range(trials):
        ladder = Ladder(random.Random(seed * 1000 + t), names, RatingBook(), [])
        first = None
        for shared in range(1, within + 1):
            ladder.play(ladder.rng.sample([*ladder.rng.sample(honest, 2), FEEDER, TAKER], PLAYERS))
            for i in range(honest_between):
                apart = [FEEDER, TAKER][i % 2]
                ladder.play(ladder.rng.sample([*ladder.rng.sample(honest, PLAYERS - 1), apart], PLAYERS))
            pair = next(e for e in evidence(ladder.facts) if {e.a, e.b} == {feeder, taker})
            if pair.flagged:
                first = shared
                break
        firsts.append(first)
    return Power(trials, within, firsts, time.monotonic() - started)


def report_lines(alarms: FalseAlarms, found: Power) -> list[str]:
    pairs_rate = alarms.flagged / alarms.pairs if alarms.pairs else 0.0
    flagged = [k for k in found.first_flagged if k is not None]
    lines = [
        f"false alarms: {alarms.flagged} of {alarms.pairs} honest pairs flagged ({pairs_rate:.2%}) over "
        f"{alarms.reports} reports of {alarms.matches} matches each ({alarms.reports * alarms.matches} matches "
        f"of the {len(honest_names())} house bots, {alarms.seconds:.0f} s); reports flagging any pair: "
        f"{alarms.reports_flagging} of {alarms.reports} (the report's bound: under 1%)",
    ]
    if alarms.strongest is not None:
        s = alarms.strongest
        lines.append(f"  strongest honest pair: {honest_names()[s.a]}/{honest_names()[s.b]}, p = {s.p_value:.2g}, "
                     f"Bonferroni-adjusted {s.adjusted:.2g}")
    lines.append(f"sock puppets: flagged in {len(flagged)} of {found.trials} trials within {found.within} shared "
                 f"matches; shared matches until flagged: "
                 f"{', '.join('-' if k is None else str(k) for k in found.first_flagged)} ({found.seconds:.0f} s)")
    return lines
