"""Collusion evidence, pure: which pairs of bots negotiate with each other as they negotiate with
nobody else, and win against each other more than their ratings say.

For each ordered pair (A, B) over the matches given, three tests, each against A's own behaviour
towards every OTHER bot (so a generous bot is not flagged for being generous to everyone):

- gifts: of A's opening proposals in negotiations with B, how many give B at least EXCESS (40%)
  of the tokens' worth more than B's fair share (its part of the attack); binomial tail against
  A's rate of such offers to others;
- concessions: of B's proposals that give A at least EXCESS less than A's fair share (before the
  last two rounds, when accepting anything can be right), how many A accepted; binomial tail
  against A's rate of accepting such proposals from others;
- head to head: how often A finished above B, against the Elo expectation at each meeting
  (Poisson-binomial, two-sided).

A pair's p-value combines the five tests of both directions that have data (Fisher's method:
-2 sum ln p is chi-squared with 2k degrees of freedom when nothing is going on). A pair is
flagged when that p-value, times the number of pairs looked at (Bonferroni), is below ALPHA: the
chance that a report over honest bots flags any pair at all stays under ALPHA, however many pairs.
The tests assume a bot's choices are independent from one negotiation to the next; docs/ratings.md
("Collusion") gives the false alarm rate measured over thousands of honest matches
(`ladder bench collusion`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

EXCESS = 0.4  # a gift, or a concession: this share of the tokens' worth beyond the fair share
ALPHA = 0.01  # the report's family-wise false alarm rate


@dataclass(frozen=True, slots=True)
class Offer:
    """A proposal's offer: `share` of the tokens' worth from `proposer` to `receiver`."""

    proposer: int  # seats of the match
    receiver: int
    share: float
    fair: float  # the receiver's part of the attack


@dataclass(frozen=True, slots=True)
class Vote:
    """`voter`'s vote on `proposer`'s proposal, which gave the voter `share`."""

    voter: int
    proposer: int
    share: float
    fair: float  # the voter's part of the attack
    accepted: bool


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """One match: the bot in each seat, their ranks, their ratings before it, and the acts."""

    match_id: int
    bots: Sequence[int]
    ranks: Sequence[int]
    ratings: Sequence[float]  # Elo points before the match
    offers: Sequence[Offer]
    votes: Sequence[Vote]


@dataclass(slots=True)
class _Counts:
    gifts: list[int] = field(default_factory=lambda: [0, 0])  # [gifts, offers]
    concessions: list[int] = field(default_factory=lambda: [0, 0])  # [accepted, low proposals voted on]
    above: list[tuple[bool, float]] = field(default_factory=list)  # (finished above, Elo expectation)
    matches: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Test:
    name: str
    observed: int
    trials: int
    expected: float  # what the bot's behaviour towards others predicts
    p_value: float


@dataclass(frozen=True, slots=True)
class PairEvidence:
    a: int
    b: int
    tests: tuple[Test, ...]
    p_value: float  # Fisher's combination of the tests
    adjusted: float  # times the number of pairs (Bonferroni), at most 1
    flagged: bool
    matches: tuple[int, ...]  # the matches they shared, newest first

    @property
    def strength(self) -> float:
        """-log10 of the combined p-value: 2 means 1 in 100, 6 one in a million."""
        return -math.log10(max(self.p_value, 1e-300))


def binomial_upper(x: int, n: int, p: float) -> float:
    """P(X >= x) for X ~ Binomial(n, p)."""
    if x <= 0:
        return 1.0
    if x > n:
        return 0.0
    p = min(max(p, 1e-12), 1 - 1e-12)
    log_terms = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
                 + (n - k) * math.log1p(-p) for k in range(x, n + 1)]
    top = max(log_terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in log_terms))


def poisson_binomial_two_sided(outcomes: Sequence[tuple[bool, float]]) -> float:
    """Two-sided p-value of the number of successes of independent trials with their own chances."""
    dist = [1.0]
    for _, p in outcomes:
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    x = sum(1 for won, _ in outcomes if won)
    upper, lower = sum(dist[x:]), sum(dist[:x + 1])
    return min(1.0, 2 * min(upper, lower))


def fisher(p_values: Sequence[float]) -> float:
    """Fisher's combined p-value: chi-squared survival of -2 sum ln p with 2k degrees of freedom."""
    if not p_values:
        return 1.0
    half = -sum(math.log(max(p, 1e-300)) for p in p_values)  # (-2 sum ln p) / 2
    term, total = 1.0, 1.0
    for i in range(1, len(p_values)):
        term *= half / i
        total += term
    return min(1.0, math.exp(-half) * total)


def elo_expectation(mine: float, theirs: float) -> float:
    return 1.0 / (1.0 + 10 ** ((theirs - mine) / 400.0))


def evidence(matches: Iterable[MatchFacts], skip: Callable[[int, int], bool] | None = None, alpha: float = ALPHA
             ) -> list[PairEvidence]:
    """Every pair of bots that shared a match, strongest evidence first. `skip(a, b)`: a pair not
    to test (two bots of one owner, which never share a table on the ladder)."""
    pairs: dict[tuple[int, int], _Counts] = {}
    gifts_out: dict[int, list[int]] = {}  # bot -> [gifts, offers] to anyone
    conc_out: dict[int, list[int]] = {}  # bot -> [accepted, low proposals voted on] from anyone
    for m in matches:
        for (sa, a), (sb, b) in combinations(enumerate(m.bots), 2):
            if a == b:
                continue
            for me, s_me, other, s_other in ((a, sa, b, sb), (b, sb, a, sa)):
                c = pairs.setdefault((me, other), _Counts())
                c.matches.append(m.match_id)
                if m.ranks[s_me] != m.ranks[s_other]:
                    c.above.append((m.ranks[s_me] < m.ranks[s_other],
                                    elo_expectation(m.ratings[s_me], m.ratings[s_other])))
        for o in m.offers:
            giver, receiver = m.bots[o.proposer], m.bots[o.receiver]
            gift = o.share - o.fair >= EXCESS
            _add(gifts_out.setdefault(giver, [0, 0]), gift)
            _add(pairs.setdefault((giver, receiver), _Counts()).gifts, gift)
        for v in m.votes:
            if v.fair - v.share < EXCESS:
                continue
            voter, proposer = m.bots[v.voter], m.bots[v.proposer]
            _add(conc_out.setdefault(voter, [0, 0]), v.accepted)
            _add(pairs.setdefault((voter, proposer), _Counts()).concessions, v.accepted)
    tested = [(a, b) for a, b in pairs if a < b and (a, b) in pairs and (b, a) in pairs
              and not (skip is not None and skip(a, b))]
    out = []
    for a, b in tested:
        tests = []
        for me, other in ((a, b), (b, a)):
            c = pairs[(me, other)]
            for name, mine, overall in (("gifts", c.gifts, gifts_out.get(me, [0, 0])),
                                        ("concessions", c.concessions, conc_out.get(me, [0, 0]))):
                x, n = mine
                if n == 0:
                    continue
                # the bot's rate towards everyone else, smoothed (a bot never seen to give still might)
                rate = (overall[0] - x + 1) / (overall[1] - n + 2)
                tests.append(Test(f"{name} {me}->{other}", x, n, rate * n, binomial_upper(x, n, rate)))
        above = pairs[(a, b)].above
        if above:
            tests.append(Test(f"head to head {a} above {b}", sum(w for w, _ in above), len(above),
                              sum(p for _, p in above), poisson_binomial_two_sided(above)))
        p = fisher([t.p_value for t in tests])
        adjusted = min(1.0, p * len(tested))
        shared = tuple(sorted(set(pairs[(a, b)].matches), reverse=True))
        out.append(PairEvidence(a, b, tuple(tests), p, adjusted, adjusted < alpha, shared))
    out.sort(key=lambda e: (e.p_value, e.a, e.b))
    return out


def _add(count: list[int], hit: bool) -> None:
    count[0] += hit
    count[1] += 1
