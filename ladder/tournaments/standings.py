"""Standings of a tournament from its played matches: pure, deterministic (seeded bootstrap).

Counting, the way the ladder counts (ladder/ranking/ratings.py, docs/ratings.md):
- a seat that forfeited (crash, timeout, illegal move, ...) takes the last rank, shared with any
  other forfeiter, whatever it scored; the other seats keep their order (`ranks_with_forfeits`).
  Its score is counted as the game reported it.
- a failed match (the infrastructure failed: sandbox, worker) counts for nobody, and neither does a
  match where every seat forfeited (the ladder does not rate it either). Both are listed in
  `excluded` so a reader sees what was dropped.

Mean rank and mean score come with 95% intervals from a bootstrap over deals: the deal is the
unit that is independent (in duplicate play one deal's matches share the cards), so deals are
resampled with replacement, each keeping all of its matches.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ladder.ranking.ratings import ranks_with_forfeits
from ladder.tournaments.model import Entrant, MatchSpec

BOOTSTRAP = 1000


@dataclass(frozen=True, slots=True)
class SeatResult:
    rank: int  # as the game ranked it
    score: float
    forfeited: bool = False


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A scheduled match and how it went: `seats` in seat order, or `failed` with a reason."""

    spec: MatchSpec
    seats: tuple[SeatResult, ...] = ()
    failed: str | None = None

    def counts(self) -> bool:
        return self.failed is None and bool(self.seats) and not all(s.forfeited for s in self.seats)

    def ranks(self) -> list[int]:
        """Ranks after forfeits, in seat order."""
        return ranks_with_forfeits([s.rank for s in self.seats], [s.forfeited for s in self.seats])


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float

    def as_json(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Row:
    entrant: Entrant
    matches: int
    wins: int  # first place after forfeits (shared first counts)
    forfeits: int
    rank: Interval
    score: Interval

    def as_json(self) -> dict:
        return {"key": self.entrant.key, "name": self.entrant.name, "matches": self.matches, "wins": self.wins,
                "forfeits": self.forfeits, "rank": self.rank.as_json(), "score": self.score.as_json()}


@dataclass(frozen=True, slots=True)
class Pair:
    """Meetings of `a` with `b` (both at the table): a ranked above, below, level."""

    meetings: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def points(self) -> float:
        return (self.wins + self.ties / 2) / self.meetings if self.meetings else 0.0


@dataclass
class Standings:
    rows: list[Row]  # best first: mean rank, then mean score, then name
    crosstable: dict[tuple[str, str], Pair]  # (a, b) from a's side
    deals: dict[int, dict[str, tuple[float, float]]]  # deal -> entrant key -> (mean rank, mean score)
    excluded: list[tuple[int, str]] = field(default_factory=list)  # (match index, why)

    def as_json(self) -> dict:
        return {
            "standings": [r.as_json() for r in self.rows],
            "crosstable": [{"a": a, "b": b, "meetings": p.meetings, "wins": p.wins, "losses": p.losses,
                            "ties": p.ties} for (a, b), p in sorted(self.crosstable.items())],
            "deals": [{"deal": d, "results": {k: {"rank": r, "score": s} for k, (r, s) in sorted(per.items())}}
                      for d, per in sorted(self.deals.items())],
            "excluded": [{"match": i, "why": why} for i, why in self.excluded],
        }


def _intervals(ranks: Sequence[tuple[float, int]], scores: Sequence[float], rng: random.Random,
               samples: int) -> tuple[Interval, Interval]:
    """Mean rank and mean score over the pooled seats, with the 2.5/97.5 percentiles of their
    bootstrap over deals. `ranks` holds (sum of ranks, seats) per deal; `scores` the sum of scores
    per deal. Both statistics use the same resampled deals."""
    total = sum(c for _, c in ranks)
    if total == 0:
        nan = Interval(float("nan"), float("nan"), float("nan"))
        return nan, nan
    rank_sums = [r for r, _ in ranks]
    counts = [c for _, c in ranks]
    mean_rank, mean_score = sum(rank_sums) / total, sum(scores) / total
    if len(ranks) < 2:
        return Interval(mean_rank, mean_rank, mean_rank), Interval(mean_score, mean_score, mean_score)
    deals = range(len(ranks))
    rank_means, score_means = [], []
    for _ in range(samples):
        picked = rng.choices(deals, k=len(ranks))
        seats = sum(map(counts.__getitem__, picked))
        rank_means.append(sum(map(rank_sums.__getitem__, picked)) / seats)
        score_means.append(sum(map(scores.__getitem__, picked)) / seats)
    low, high = int(0.025 * (samples - 1)), int(0.975 * (samples - 1))
    rank_means.sort()
    score_means.sort()
    return (Interval(mean_rank, rank_means[low], rank_means[high]),
            Interval(mean_score, score_means[low], score_means[high]))


def excluded_reason(match: PlayedMatch) -> str | None:
    if match.failed is not None:
        return f"failed: {match.failed}"
    if not match.seats:
        return "not played"
    if all(s.forfeited for s in match.seats):
        return "every seat forfeited"
    return None


def standings(entrants: Sequence[Entrant], played: Iterable[PlayedMatch], *, seed: int = 0,
              samples: int = BOOTSTRAP) -> Standings:
    """Standings, crosstable and per-deal results of the matches that count."""
    keys = [e.key for e in entrants]
    ranks: dict[str, dict[int, list[float]]] = {k: defaultdict(list) for k in keys}
    scores: dict[str, dict[int, list[float]]] = {k: defaultdict(list) for k in keys}
    wins = dict.fromkeys(keys, 0)
    forfeits = dict.fromkeys(keys, 0)
    pairs: dict[tuple[str, str], list[int]] = {}
    excluded = []
    for match in sorted(played, key=lambda m: m.spec.index):
        why = excluded_reason(match)
        if why is not None:
            excluded.append((match.spec.index, why))
            continue
        if len(match.seats) != len(match.spec.seats):
            raise ValueError(f"match {match.spec.index}: {len(match.seats)} results for {len(match.spec.seats)} seats")
        final = match.ranks()
        for key, rank, seat in zip(match.spec.seats, final, match.seats, strict=True):
            ranks[key][match.spec.deal].append(rank)
            scores[key][match.spec.deal].append(seat.score)
            wins[key] += rank == 1
            forfeits[key] += seat.forfeited
        seated = list(zip(match.spec.seats, final, strict=True))
        for (a, ra), (b, rb) in itertools.product(seated, seated):
            if a != b:
                pair = pairs.setdefault((a, b), [0, 0, 0, 0])
                pair[0] += 1
                pair[1 if ra < rb else 2 if ra > rb else 3] += 1
    rng = random.Random(seed)
    rows = []
    for entrant in entrants:
        deals = sorted(ranks[entrant.key])
        rank_iv, score_iv = _intervals([(sum(ranks[entrant.key][d]), len(ranks[entrant.key][d])) for d in deals],
                                       [sum(scores[entrant.key][d]) for d in deals], rng, samples)
        matches = sum(len(v) for v in ranks[entrant.key].values())
        rows.append(Row(entrant, matches, wins[entrant.key], forfeits[entrant.key], rank_iv, score_iv))
    rows.sort(key=lambda r: (r.matches == 0, r.rank.mean if r.matches else 0, -(r.score.mean if r.matches else 0),
                             r.entrant.name))
    per_deal: dict[int, dict[str, tuple[float, float]]] = defaultdict(dict)
    for key in keys:
        for deal, values in ranks[key].items():
            per_deal[deal][key] = (sum(values) / len(values), sum(scores[key][deal]) / len(scores[key][deal]))
    return Standings(rows, {k: Pair(*v) for k, v in pairs.items()}, dict(per_deal), excluded)


def standing_order(table: Standings) -> list[str]:
    """Entrant keys best first: what the next Swiss round is seated by."""
    return [r.entrant.key for r in table.rows]
