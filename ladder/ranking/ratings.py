"""Multiplayer Elo from the final ranks of one match: pure maths, no database.

A match of n seats counts as n*(n-1)/2 two-player games, one per pair of seats (win 1, tie 0.5,
loss 0). Each pair exchanges points symmetrically, so every match is exactly zero-sum.

Ratings are integers in milli-points (1500.000 Elo is 1_500_000): integer sums are exact, so the
zero-sum check is an equality and a replay of the history gives the same integers on any
machine. The expected score goes through `decimal` (correctly rounded `exp`, fixed precision)
rather than the platform's floating-point `pow`, which may differ in the last bit between
machines and flip a rounding. See docs/ratings.md for the formulas.

Beside each rating, a deviation: the standard deviation of the rating's error (the Elo against
the bot's true level), carried forward through each match by the Elo update itself (a linearised
variance propagation, `next_deviation`), so it says how far the number shown may be off. It is
integer milli-points too, computed in `decimal`, and replayed exactly by `recompute`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal
from functools import lru_cache

MILLI = 1000
INITIAL_RATING = 1500 * MILLI
K_ESTABLISHED = 32  # Elo points per match, for a seat with PROVISIONAL_GAMES rated games or more
K_PROVISIONAL = 64  # while provisional: a new bot moves quickly towards its level
PROVISIONAL_GAMES = 20

# ln(10) / 400_000: 10 ** (d / 400 points) == exp(_LN10_PER_MILLI_400 * d) with d in milli-points.
# Written out so the value never depends on how a platform computes a logarithm.
_LN10_PER_MILLI_400 = Decimal("0.000005756462732485114210044978637")
_CTX = Context(prec=28, rounding=ROUND_HALF_EVEN)
_HALF = Decimal("0.5")

# The deviation (docs/ratings.md, "How sure a rating is"), in milli-points. A new bot's error is
# its level's distance from 1500: the spread of the house bots' levels, measured by
# `ladder bench ratings` (INITIAL_DEVIATION); a new version of a bot may play anywhere near its
# old level or far from it (VERSION_DEVIATION, added in variance, capped at the initial one).
INITIAL_DEVIATION = 300 * MILLI
VERSION_DEVIATION = 150 * MILLI
# How much more a match's pair results vary than the Elo's own logistic says: measured on the
# house bots' ladders (`ladder bench ratings`, docs/ratings.md): a table's ranks are one outcome of
# a game whose tables differ, not independent pair games. A variance factor on the outcome noise.
NOISE_FACTOR = 2
# "?" on a rating while its 95% interval (UNCERTAIN_Z deviations) is wider than +-UNCERTAIN_HALF_WIDTH:
# an established bot's settles near +-113 (K = 32, four seats), so "?" marks the ratings still well
# above it: a new bot's first 30 games or so, a new version's first 20.
UNCERTAIN_Z = 2
UNCERTAIN_HALF_WIDTH = 150 * MILLI
_SLOPE = Decimal("0.005756462732485114210044978637")  # ln(10) / 400: d(expected score)/d(points) at E = 1/2, / E(1-E)

MATCH_FINISHED = "finished"


class RatingInvariantError(AssertionError):
    """A rating update broke an invariant (zero-sum); never expected, always a bug."""


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat's state before the match, as rate_match needs it."""

    rating: int  # milli-points
    games: int  # rated matches played before this one
    rank: int  # 1 is best; equal ranks are a tie
    deviation: int = INITIAL_DEVIATION  # milli-points, before the match (see next_deviations)


def k_factor(games: int) -> int:
    """K in Elo points for a seat with `games` rated matches behind it."""
    return K_PROVISIONAL if games < PROVISIONAL_GAMES else K_ESTABLISHED


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@lru_cache(maxsize=1 << 16)
def expected_score(diff: int) -> Decimal:
    """Expected score of a player against one rated `diff` milli-points higher (diff >= 0)."""
    if diff < 0:
        raise ValueError("expected_score takes the non-negative difference (lower-rated player's view)")
    return _CTX.divide(1, _CTX.add(1, _CTX.exp(_CTX.multiply(_LN10_PER_MILLI_400, Decimal(diff)))))


def _pair_delta(low: RatedSeat, high: RatedSeat, opponents: int) -> int:
    """Milli-points the lower-rated seat of a pair gains (the other loses as many).

    Always computed from the lower-rated side, so the result does not depend on seat order;
    with equal ratings the expected score is exactly 0.5 and either side gives the same number.
    """
    score = Decimal(1) if low.rank < high.rank else _HALF if low.rank == high.rank else Decimal(0)
    diff = high.rating - low.rating
    # K of the pair = mean of both seats' K, divided by (n - 1), in milli-points: (Ka + Kb) * 500 / (n-1)
    k_pair = _CTX.divide(Decimal((k_factor(low.games) + k_factor(high.games)) * MILLI // 2), opponents)
    raw = _CTX.multiply(k_pair, _CTX.subtract(score, expected_score(diff)))
    return int(raw.to_integral_value(rounding=ROUND_HALF_EVEN))


def rate_match(seats: Sequence[RatedSeat]) -> list[int]:
    """Rating change per seat, in milli-points, in seat order. The changes sum to exactly zero."""
    n = len(seats)
    if n < 2:
        raise ValueError("a rated match needs at least two seats")
    deltas = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            lo, hi = (i, j) if seats[i].rating <= seats[j].rating else (j, i)
            d = _pair_delta(seats[lo], seats[hi], n - 1)
            deltas[lo] += d
            deltas[hi] -= d
    if sum(deltas) != 0:
        raise RatingInvariantError(f"match not zero-sum: {deltas}")
    return deltas


def half_width(deviation: int) -> int:
    """The +- shown beside a rating: its 95% interval's half-width (UNCERTAIN_Z deviations), milli-points."""
    return UNCERTAIN_Z * deviation


def is_uncertain(deviation: int) -> bool:
    """Whether a rating shows "?": its interval is wider than the smallest matchmaking window."""
    return half_width(deviation) > UNCERTAIN_HALF_WIDTH


def _expected(me: int, other: int) -> Decimal:
    """Expected score of a seat rated `me` against one rated `other` (milli-points)."""
    if me <= other:
        return expected_score(other - me)
    return _CTX.subtract(1, expected_score(me - other))


def next_deviations(seats: Sequence[RatedSeat]) -> list[int]:
    """Each seat's deviation after the match, in milli-points, in seat order.

    The Elo update is r' = r + sum_j k_j (S_j - E_j), k_j the pair's K over (n - 1). With e the
    rating's error, linearised (E moves by s_j = E_j (1 - E_j) ln10/400 per point of error):
        e' = (1 - sum_j k_j s_j) e + sum_j k_j s_j e_j + sum_j k_j (S_j - E_j)
    so, taking the errors and the outcomes' noise as independent, the variance P = deviation^2 is
        P' = (1 - a)^2 P + sum_j k_j^2 s_j^2 P_j + (n + 1)/3 sum_j k_j^2 E_j (1 - E_j),   a = sum_j k_j s_j
    where (n + 1)/3 is how much more a seat's pair results vary together than apart (one ranking
    decides them all: exact for equal bots, whose rank is uniform on 1..n), times NOISE_FACTOR. A bot's level does
    not drift between matches (a program changes when a new version comes: next_version_deviation),
    so nothing else is added. Capped at INITIAL_DEVIATION; rounded once, half to even.
    """
    n = len(seats)
    if n < 2:
        raise ValueError("a rated match needs at least two seats")
    correlated = _CTX.multiply(_CTX.divide(n + 1, 3), NOISE_FACTOR)
    variances = [_CTX.multiply(Decimal(s.deviation), Decimal(s.deviation)) for s in seats]  # milli-points^2
    out = []
    for i, me in enumerate(seats):
        gain = Decimal(0)
        carried = Decimal(0)
        noise = Decimal(0)
        for j, other in enumerate(seats):
            if j == i:
                continue
            k = _CTX.divide(Decimal((k_factor(me.games) + k_factor(other.games)) * MILLI // 2), n - 1)
            e = _expected(me.rating, other.rating)
            var = _CTX.multiply(e, _CTX.subtract(1, e))
            ks = _CTX.divide(_CTX.multiply(_CTX.multiply(k, var), _SLOPE), MILLI)  # per milli-point of error
            gain = _CTX.add(gain, ks)
            carried = _CTX.add(carried, _CTX.multiply(_CTX.multiply(ks, ks), variances[j]))
            noise = _CTX.add(noise, _CTX.multiply(_CTX.multiply(k, k), var))
        kept = _CTX.subtract(1, gain)
        total = _CTX.add(_CTX.add(_CTX.multiply(_CTX.multiply(kept, kept), variances[i]), carried),
                         _CTX.multiply(correlated, noise))
        out.append(min(INITIAL_DEVIATION, int(_CTX.sqrt(total).to_integral_value(rounding=ROUND_HALF_EVEN))))
    return out


def next_version_deviation(deviation: int) -> int:
    """A bot's deviation when a new version of it plays its first rated match: VERSION_DEVIATION
    added in variance (the new code may be stronger or weaker), capped at INITIAL_DEVIATION."""
    total = _CTX.add(_CTX.multiply(Decimal(deviation), Decimal(deviation)),
                     Decimal(VERSION_DEVIATION) * Decimal(VERSION_DEVIATION))
    return min(INITIAL_DEVIATION, int(_CTX.sqrt(total).to_integral_value(rounding=ROUND_HALF_EVEN)))


def starting_deviation(deviation: int, last_version: Hashable, version: Hashable) -> int:
    """The deviation a match starts from: widened when `version` differs from the version the
    player's last rated match was played with (None for either: nothing to compare)."""
    if version is not None and last_version is not None and version != last_version:
        return next_version_deviation(deviation)
    return deviation


def ranks_with_forfeits(ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Ranks after forfeits: forfeited seats share the last rank, the others keep their order.

    Competition ranking ("1224") throughout: with m seats not forfeited, those are re-ranked
    among themselves (1..m, ties kept) and every forfeiter gets rank m + 1.
    """
    if len(ranks) != len(forfeited):
        raise ValueError("ranks and forfeited must have one entry per seat")
    playing = [r for r, f in zip(ranks, forfeited, strict=True) if not f]
    last = len(playing) + 1
    return [
        last if f else 1 + sum(1 for other in playing if other < r)
        for r, f in zip(ranks, forfeited, strict=True)
    ]


def is_rated(status: str, *, ranked: bool = True, forfeited: Sequence[bool] = ()) -> bool:
    """Whether a match changes ratings.

    Only a `finished` ranked match is rated. `failed` means the infrastructure failed (worker,
    sandbox, broker), which says nothing about the bots; a bot's own misbehaviour is a forfeit
    inside a finished match. A match where every seat forfeited is not rated either: nobody
    showed strength, and it usually means the sandbox itself was broken.
    """
    if status != MATCH_FINISHED or not ranked:
        return False
    return not (forfeited and all(forfeited))


@dataclass(frozen=True, slots=True)
class RankedSeat:
    """One seat of a stored match: who sat there, their rank, whether they forfeited."""

    player: Hashable  # bot version id (or bot id): whatever ratings are kept per
    rank: int
    forfeited: bool = False
    version: Hashable = None  # the code that played (None: not tracked): a new one widens the deviation


@dataclass(frozen=True, slots=True)
class RatingChange:
    player: Hashable
    before: int
    delta: int
    games_before: int
    deviation_before: int = INITIAL_DEVIATION  # after any new version's widening: what the match used
    deviation: int = INITIAL_DEVIATION  # after the match

    @property
    def after(self) -> int:
        return self.before + self.delta


@dataclass(frozen=True, slots=True)
class MatchRating:
    match_id: Hashable
    changes: tuple[RatingChange, ...]  # in seat order


@dataclass
class RatingBook:
    """Current ratings, deviations, rated-game counts and the version each player last played
    with; `apply` rates one match and records it."""

    ratings: dict[Hashable, int] = field(default_factory=dict)
    games: dict[Hashable, int] = field(default_factory=dict)
    initial: int = INITIAL_RATING
    deviations: dict[Hashable, int] = field(default_factory=dict)
    versions: dict[Hashable, Hashable] = field(default_factory=dict)

    def rating(self, player: Hashable) -> int:
        return self.ratings.get(player, self.initial)

    def deviation(self, player: Hashable) -> int:
        return self.deviations.get(player, INITIAL_DEVIATION)

    def deviation_before(self, player: Hashable, version: Hashable) -> int:
        """The deviation a match starts from: widened when `version` is new for the player."""
        return starting_deviation(self.deviation(player), self.versions.get(player), version)

    def apply(self, match_id: Hashable, seats: Sequence[RankedSeat]) -> MatchRating:
        players = [s.player for s in seats]
        if len(set(players)) != len(players):
            raise ValueError(f"match {match_id!r}: a player holds two seats")
        ranks = ranks_with_forfeits([s.rank for s in seats], [s.forfeited for s in seats])
        before = [RatedSeat(self.rating(s.player), self.games.get(s.player, 0), r,
                            self.deviation_before(s.player, s.version)) for s, r in zip(seats, ranks, strict=True)]
        deltas = rate_match(before)
        deviations = next_deviations(before)
        changes = []
        for s, b, d, dev in zip(seats, before, deltas, deviations, strict=True):
            p = s.player
            changes.append(RatingChange(p, b.rating, d, b.games, b.deviation, dev))
            self.ratings[p] = b.rating + d
            self.games[p] = b.games + 1
            self.deviations[p] = dev
            if s.version is not None:
                self.versions[p] = s.version
        return MatchRating(match_id, tuple(changes))


@dataclass(frozen=True, slots=True)
class Recomputed:
    ratings: dict[Hashable, int]
    games: dict[Hashable, int]
    matches: list[MatchRating]
    deviations: dict[Hashable, int] = field(default_factory=dict)


def recompute(
    history: Iterable[tuple[Hashable, Sequence[RankedSeat | tuple]]],
    *,
    initial: int = INITIAL_RATING,
) -> Recomputed:
    """Replay rated matches in the order given (the order they were applied), from scratch.

    `history` holds only rated matches (see is_rated), as (match id, seats). The same history
    in the same order always gives the same integers; another order gives other ratings.
    """
    book = RatingBook(initial=initial)
    out = [book.apply(mid, [s if isinstance(s, RankedSeat) else RankedSeat(*s) for s in seats])
           for mid, seats in history]
    return Recomputed(dict(book.ratings), dict(book.games), out, dict(book.deviations))


def to_points(milli: int) -> float:
    """Milli-points to Elo points, for display only (never feed floats back into ratings)."""
    return milli / MILLI
