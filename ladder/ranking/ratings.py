"""Multiplayer Elo from the final ranks of one match: pure maths, no database.

A match of n seats counts as n*(n-1)/2 two-player games, one per pair of seats (win 1, tie 0.5,
loss 0). Each pair exchanges points symmetrically, so every match is exactly zero-sum.

Ratings are integers in milli-points (1500.000 Elo is 1_500_000): integer sums are exact, so the
zero-sum check is an equality and a replay of the history gives the same integers on any
machine. The expected score goes through `decimal` (correctly rounded `exp`, fixed precision)
rather than the platform's floating-point `pow`, which may differ in the last bit between
machines and flip a rounding. See docs/ratings.md for the formulas.
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

MATCH_FINISHED = "finished"


class RatingInvariantError(AssertionError):
    """A rating update broke an invariant (zero-sum); never expected, always a bug."""


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat's state before the match, as rate_match needs it."""

    rating: int  # milli-points
    games: int  # rated matches played before this one
    rank: int  # 1 is best; equal ranks are a tie


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


@dataclass(frozen=True, slots=True)
class RatingChange:
    player: Hashable
    before: int
    delta: int
    games_before: int

    @property
    def after(self) -> int:
        return self.before + self.delta


@dataclass(frozen=True, slots=True)
class MatchRating:
    match_id: Hashable
    changes: tuple[RatingChange, ...]  # in seat order


@dataclass
class RatingBook:
    """Current ratings and rated-game counts; `apply` rates one match and records it."""

    ratings: dict[Hashable, int] = field(default_factory=dict)
    games: dict[Hashable, int] = field(default_factory=dict)
    initial: int = INITIAL_RATING

    def rating(self, player: Hashable) -> int:
        return self.ratings.get(player, self.initial)

    def apply(self, match_id: Hashable, seats: Sequence[RankedSeat]) -> MatchRating:
        players = [s.player for s in seats]
        if len(set(players)) != len(players):
            raise ValueError(f"match {match_id!r}: a player holds two seats")
        ranks = ranks_with_forfeits([s.rank for s in seats], [s.forfeited for s in seats])
        before = [RatedSeat(self.rating(p), self.games.get(p, 0), r) for p, r in zip(players, ranks, strict=True)]
        deltas = rate_match(before)
        changes = []
        for p, b, d in zip(players, before, deltas, strict=True):
            changes.append(RatingChange(p, b.rating, d, b.games))
            self.ratings[p] = b.rating + d
            self.games[p] = b.games + 1
        return MatchRating(match_id, tuple(changes))


@dataclass(frozen=True, slots=True)
class Recomputed:
    ratings: dict[Hashable, int]
    games: dict[Hashable, int]
    matches: list[MatchRating]


def recompute(
    history: Iterable[tuple[Hashable, Sequence[RankedSeat | tuple[Hashable, int, bool]]]],
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
    return Recomputed(dict(book.ratings), dict(book.games), out)


def to_points(milli: int) -> float:
    """Milli-points to Elo points, for display only (never feed floats back into ratings)."""
    return milli / MILLI
