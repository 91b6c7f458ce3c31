"""How accurate the ratings are: the accuracy report's figures from a rated history, pure maths.

Three parts (docs/ratings.md, "The accuracy report"):

- prediction: over the last matches, how well the ratings each seat had BEFORE a match predicted
  its ranks, pair by pair (each pair of seats is one two-player game, as the Elo counts it): the
  log loss of the Elo expectation and the share of pairs whose higher-rated seat finished above,
  beside the naive prediction (every pair even: log loss ln 2, accuracy 1/2);
- settling: how many rated games a version plays before its rating settles. A version's level
  is the mean of its rating over its last SETTLE_TAIL games; it has settled after game g when its
  rating after each of games g .. g + SETTLE_RUN - 1 lies within SETTLED_BAND of that level;
- calibration of the deviation: the share of ratings whose +- interval (before a match) holds the
  version's level, by width of the interval; a well calibrated +- holds it about 95% of the time.

Floats are fine here: the report is a description computed again from the history, never fed
back into ratings.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from ladder.ranking.ratings import MILLI, half_width

SETTLE_TAIL = 50  # games whose mean rating is the version's level
SETTLE_RUN = 20  # games in a row inside the band
SETTLED_BAND = 100 * MILLI  # a quarter of the logistic's 400-point scale: expected score 0.36..0.64
# a version needs this many games for its level (tail) to be known and a settling run to fit before it
SETTLE_MIN_GAMES = SETTLE_TAIL + SETTLE_RUN
# the +- buckets of the calibration, upper bounds in milli-points (the last is open)
CALIBRATION_BUCKETS = (150 * MILLI, 250 * MILLI, 400 * MILLI)
NOMINAL_COVERAGE = 0.95  # what a +- of UNCERTAIN_Z = 2 deviations should hold


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of one rated match, as stored (rating_changes): the rating and deviation it had
    before the match (after a new version's widening), its rank after forfeits, and after."""

    player: Hashable  # the bot
    version: Hashable  # the code that played
    rank: int
    before: int  # milli-points
    deviation_before: int
    after: int


def _expected(me: int, other: int) -> float:
    return 1.0 / (1.0 + 10.0 ** ((other - me) / (400 * MILLI)))


@dataclass(frozen=True, slots=True)
class Prediction:
    matches: int
    pairs: int
    log_loss: float | None  # natural log, per pair; None with no pair
    accuracy: float | None  # pairs of different ranks whose higher-rated seat finished above (ratings equal: 1/2)
    decided_pairs: int  # pairs of different ranks (ties have no winner to predict)
    naive_log_loss: float = math.log(2)
    naive_accuracy: float = 0.5


def prediction(matches: Sequence[Sequence[Entry]]) -> Prediction:
    """The Elo's pairwise predictions over `matches` (each a match's seats), against the naive."""
    loss = 0.0
    pairs = decided = 0
    right = 0.0
    for seats in matches:
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                p = min(max(_expected(a.before, b.before), 1e-12), 1 - 1e-12)  # P(a above b)
                score = 1.0 if a.rank < b.rank else 0.5 if a.rank == b.rank else 0.0
                loss -= score * math.log(p) + (1 - score) * math.log(1 - p)
                pairs += 1
                if a.rank != b.rank:
                    decided += 1
                    if a.before == b.before:
                        right += 0.5
                    elif (a.before > b.before) == (a.rank < b.rank):
                        right += 1
    return Prediction(len(matches), pairs, loss / pairs if pairs else None, right / decided if decided else None,
                      decided)


def versions_of(history: Iterable[Sequence[Entry]]) -> dict[tuple[Hashable, Hashable], list[Entry]]:
    """Each (bot, version)'s entries in the order played."""
    out: dict[tuple[Hashable, Hashable], list[Entry]] = {}
    for seats in history:
        for e in seats:
            out.setdefault((e.player, e.version), []).append(e)
    return out


def level(entries: Sequence[Entry]) -> float:
    """A version's level: the mean of its rating after each of its last SETTLE_TAIL games."""
    tail = entries[-SETTLE_TAIL:]
    return sum(e.after for e in tail) / len(tail)


def games_to_settle(entries: Sequence[Entry]) -> int | None:
    """Rated games a version played until its rating settled (see the module's docstring): the
    first g with its rating after each of games g .. g + SETTLE_RUN - 1 within SETTLED_BAND of its
    level, searched before its tail; None when it never did or has fewer than SETTLE_MIN_GAMES games."""
    if len(entries) < SETTLE_MIN_GAMES:
        return None
    target = level(entries)
    inside = [abs(e.after - target) <= SETTLED_BAND for e in entries]
    run = 0
    for g in range(len(entries) - SETTLE_TAIL):  # g is 0-based: the rating after game g + 1
        run = run + 1 if inside[g] else 0
        if run == SETTLE_RUN:
            return g - SETTLE_RUN + 2
    return None


@dataclass(frozen=True, slots=True)
class Settling:
    versions: int  # versions whose first rated game is in the history and that have SETTLE_MIN_GAMES
    settled: int
    median: float | None  # games to settle, over the settled ones
    p90: float | None
    games: tuple[int, ...] = ()  # each settled version's count, ascending
    too_few: int = 0  # versions with fewer games than SETTLE_MIN_GAMES (not counted above)


def quantile(values: Sequence[float], q: float) -> float | None:
    """Linear interpolation between the closest ranks (numpy's default), of sorted `values`."""
    if not values:
        return None
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def settling(versions: dict[tuple[Hashable, Hashable], list[Entry]], new: Iterable[tuple[Hashable, Hashable]]
             ) -> Settling:
    """Games to settle over the versions in `new` (those that started inside the history)."""
    counts, considered, too_few = [], 0, 0
    for key in new:
        entries = versions[key]
        if len(entries) < SETTLE_MIN_GAMES:
            too_few += 1
            continue
        considered += 1
        g = games_to_settle(entries)
        if g is not None:
            counts.append(g)
    counts.sort()
    return Settling(considered, len(counts), quantile(counts, 0.5), quantile(counts, 0.9), tuple(counts), too_few)


@dataclass(frozen=True, slots=True)
class Bucket:
    low: int  # milli-points, the +- of the bucket's ratings: low < +- <= high
    high: int | None  # None: open
    ratings: int
    inside: int

    @property
    def coverage(self) -> float | None:
        return self.inside / self.ratings if self.ratings else None


@dataclass(frozen=True, slots=True)
class Calibration:
    buckets: tuple[Bucket, ...]
    ratings: int
    inside: int
    nominal: float = NOMINAL_COVERAGE

    @property
    def coverage(self) -> float | None:
        return self.inside / self.ratings if self.ratings else None


def bucket_of(width: int) -> int:
    return next((i for i, high in enumerate(CALIBRATION_BUCKETS) if width <= high), len(CALIBRATION_BUCKETS))


def calibration(versions: dict[tuple[Hashable, Hashable], list[Entry]]) -> Calibration:
    """Of the versions with SETTLE_MIN_GAMES games or more, each rating before a match outside the
    version's tail: whether its +- (before the match) holds the version's level."""
    counts = [[0, 0] for _ in range(len(CALIBRATION_BUCKETS) + 1)]
    for entries in versions.values():
        if len(entries) < SETTLE_MIN_GAMES:
            continue
        target = level(entries)
        for e in entries[:-SETTLE_TAIL]:
            width = half_width(e.deviation_before)
            b = counts[bucket_of(width)]
            b[0] += 1
            b[1] += abs(e.before - target) <= width
    lows = (0, *CALIBRATION_BUCKETS)
    highs = (*CALIBRATION_BUCKETS, None)
    buckets = tuple(Bucket(lo, hi, n, k) for lo, hi, (n, k) in zip(lows, highs, counts, strict=True))
    return Calibration(buckets, sum(b.ratings for b in buckets), sum(b.inside for b in buckets))


@dataclass(frozen=True, slots=True)
class Report:
    prediction: Prediction
    settling: Settling
    calibration: Calibration
    matches: int  # in the history read


def report(history: Sequence[Sequence[Entry]], *, last: int, new_versions: Iterable[tuple[Hashable, Hashable]]
           ) -> Report:
    """The whole report over `history` (rated matches in the order rated, each its seats):
    prediction over the `last` matches, settling over `new_versions` (the versions whose first
    rated game is in the history), calibration over every version with enough games."""
    versions = versions_of(history)
    new = [key for key in new_versions if key in versions]
    return Report(prediction(history[-last:] if last else []), settling(versions, new), calibration(versions),
                  len(history))
