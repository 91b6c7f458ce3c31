"""Ex-post worths of Drachengold's tokens, and what they say of an allocation (the scorecard's,
view/scorecard.py; the formulas: docs/scorecard.md (Drachengold)).

Worths. The game_over event reveals every final hoard (the replay's end state, not a
re-simulation). A token's worth to a seat is its marginal effect on that seat's final score, by
the rules' own scoring (rules/scoring.py: majorities, sets and the curse included): the seat's
score with the token added to its final hoard, less its score without it, with the token taken
out of whichever hoard holds it at the end (or out of the box) in both. A seat's utility for a set
of tokens is the sum of their worths.

Pareto and Nash: every allocation of a split's pool among its involved seats is searched at once
by one dynamic programme over the pool's tokens whose states are the first k-1 seats' utilities,
keeping the largest utility the last seat can have with them (`frontier`): exact, since for each
prefix that largest last utility dominates every other; a split whose programme would pass
MAX_STATES states is not searched (in the house bots' seeded games: none of 421 agreed splits at 3 and 4
players, 4 of 504 at 5 and 6; docs/scorecard.md (Drachengold), "Cost").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import prod

from ladder.games.base import competition_ranks
from ladder.games.drachengold.rules.data import DECK
from ladder.games.drachengold.rules.scoring import cursed_seats, majority, score_totals, set_points

__all__ = ["MAX_STATES", "Worths", "efficiency", "face", "frontier", "worth_giving"]

MAX_STATES = 4_000  # the programme's cap for one split: a few ms of Python (docs, "Cost")


def frontier(values: Sequence[Sequence[int]], k: int) -> list[tuple[tuple[int, ...], int]] | None:
    """Every allocation of tokens with per-seat `values` among k seats that no other one beats by
    giving a token to a seat valuing it more (`worth_giving`), as (the first k-1 seats' utilities,
    the largest utility the last seat has with them) pairs. None past MAX_STATES.

    The first k-1 utilities are kept as one integer, each seat's utility (less the least it can
    have) a digit of its own radix: giving a token to a seat adds its value times the seat's radix,
    an integer addition where a tuple would be rebuilt (the programme's whole cost)."""
    last = k - 1
    low = [sum(min(0, v[i]) for v in values) for i in range(last)]
    radix, r = [], 1
    for i in range(last):
        radix.append(r)
        r *= sum(abs(v[i]) for v in values) + 1
    states: dict[int, int] = {sum(-lo * rad for lo, rad in zip(low, radix, strict=True)): 0}
    for v in values:
        seats = worth_giving(v)
        steps = [v[i] * radix[i] for i in seats if i < last]
        mine = v[last] if last in seats else None
        # given to the last seat: every state's key stays, so these fill the next states unopposed
        nxt: dict[int, int] = {key: u + mine for key, u in states.items()} if mine is not None else {}
        get = nxt.get
        for key, u in states.items():
            for step in steps:
                moved = key + step
                if get(moved, u - 1) < u:
                    nxt[moved] = u
        if len(nxt) > MAX_STATES:
            return None
        states = nxt
    if last == 1:  # two seats (most splits): the key is the first seat's utility less its least
        lo = low[0]
        return [((key + lo,), u) for key, u in states.items()]
    sizes = [radix[i + 1] // radix[i] if i + 1 < last else r // radix[i] for i in range(last)]
    return [(tuple(key // radix[i] % sizes[i] + low[i] for i in range(last)), u) for key, u in states.items()]


def worth_giving(v: Sequence[int]) -> list[int]:
    """The seats a token may go to in an allocation no other allocation beats: giving it to a seat
    that values it less than nothing, or at nothing while another values it, is dominated by giving
    it to that other seat instead (one seat better off, nobody worse), so neither the Pareto check
    nor the largest Nash product needs those allocations. Every seat when all value it below zero."""
    best = max(v)
    if best > 0:
        return [i for i, x in enumerate(v) if x > 0]
    return [i for i, x in enumerate(v) if x == best] if best == 0 else list(range(len(v)))


def efficiency(values: Sequence[Sequence[int]], k: int, got: Sequence[int]) -> tuple[bool, float | None] | None:
    """(Pareto-optimal?, Nash product over the largest one, None when that largest is 0) of the
    utilities `got`, among every allocation of the tokens; None when the programme is too big."""
    # The seat whose utilities spread widest is the last, the one the states do not enumerate.
    spread = [sum(abs(v[i]) for v in values) for i in range(k)]
    order = sorted(range(k), key=spread.__getitem__)
    values = [tuple(v[i] for i in order) for v in values]
    got = [got[i] for i in order]
    states = frontier(values, k)
    if states is None:
        return None
    total = sum(got)
    head, tail = got[:-1], got[-1]
    dominated = False
    best = 0
    if k == 2:  # most splits: one utility in each key, no tuples to walk
        (mine_first,) = head
        for (a,), u in states:
            if u >= tail and a >= mine_first and a + u > total:
                dominated = True
            if a > 0 and u > 0 and a * u > best:
                best = a * u
    else:
        for key, u in states:
            if not dominated and u >= tail and sum(key) + u > total and all(
                    a >= b for a, b in zip(key, head, strict=True)):
                dominated = True
            if u > 0 and min(key, default=1) > 0:
                p = prod(key) * u
                if p > best:
                    best = p
    mine = prod(max(0, x) for x in got)
    return not dominated, (mine / best if best > 0 else None)


class Worths:
    """Ex-post worths from the final hoards: of(token, seat) (see the module's doc).

    Each worth is two scorings of the final hoards; scorings are the cost here (tens of
    microseconds each), so each is made once per match and only when asked for: the hoards without
    one token of a colour where it ended, and with it given to one seat, per (colour, holder, seat).
    A colour outside the gems and the black diamond scores its face value alone (no majority, set
    or curse reads it: rules/scoring.py), so its worth is the same whatever the holdings: scored
    once per rule set, from empty hoards with and without the token."""

    def __init__(self, hoards: Sequence[Sequence[Mapping[str, str]]], rules: str, n: int) -> None:
        self.n, self.rules = n, rules
        self.scoring, self.gems = DECK["scoring"][rules], DECK["gems"]
        self.counts: list[dict[str, int]] = [{} for _ in range(n)]
        self.holder: dict[str, int] = {}
        for s, hoard in enumerate(hoards[:n]):
            for t in hoard:
                self.holder[t["id"]] = s
                self.counts[s][t["colour"]] = self.counts[s].get(t["colour"], 0) + 1
        self.final: list[int] | None = None
        self.cursed: set[int] | None = None
        self.first: set[int] | None = None
        self.without: dict[tuple[str, int], list[int]] = {}
        self.cache: dict[tuple[str, int | None, int], int] = {}

    def of(self, token: Mapping[str, str], seat: int) -> int:
        colour = token["colour"]
        if colour not in self.gems and colour != "black":
            return face(self.rules, colour, self.n)
        key = (colour, self.holder.get(token["id"]), seat)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self._compute(*key)
        return got

    def _totals(self, counts: Sequence[Mapping[str, int]]) -> list[int]:
        return score_totals(counts, self.scoring, self.gems)

    def _compute(self, colour: str, holder: int | None, seat: int) -> int:
        if colour in self.gems:
            return self._gem(colour, holder, seat)
        if self.final is None:
            self.final = self._totals(self.counts)
        if holder is None:  # in the box lid at the end: the final hoards are the ones without it
            without = self.final
        else:
            without = self.without.get((colour, holder))
            if without is None:
                counts = list(self.counts)
                counts[holder] = {**counts[holder], colour: counts[holder][colour] - 1}
                without = self.without[(colour, holder)] = self._totals(counts)
        if seat == holder:  # its holder's hoards with it are the final ones
            return self.final[seat] - without[seat]
        counts = list(self.counts)
        if holder is not None:
            counts[holder] = {**counts[holder], colour: counts[holder][colour] - 1}
        counts[seat] = {**counts[seat], colour: counts[seat].get(colour, 0) + 1}
        return self._totals(counts)[seat] - without[seat]

    def _gem(self, colour: str, holder: int | None, seat: int) -> int:
        """A gem's worth from its colour's majority and the seat's sets alone: a gem has no face
        value and the curse reads the black diamond only, so moving one changes nothing else of
        the seat's score (the same figure as scoring every hoard twice, at a fraction of it)."""
        if self.cursed is None:
            self.cursed = cursed_seats(self.counts, self.scoring)
        held = [c.get(colour, 0) for c in self.counts]
        if holder is not None:
            held[holder] -= 1  # without it: taken out of its final hoard
        mine = self.counts[seat]
        without = dict(mine)
        if seat == holder:
            without[colour] -= 1
        had = held[seat]
        held[seat] = had + 1
        scoring, points = majority(held, self.scoring, self.cursed)
        gained = points if seat in scoring else 0
        held[seat] = had
        scoring, points = majority(held, self.scoring, self.cursed)
        gained -= points if seat in scoring else 0
        cursed = seat in self.cursed
        return gained + (set_points({**without, colour: had + 1}, self.scoring, self.gems, cursed)
                         - set_points(without, self.scoring, self.gems, cursed))

    def utility(self, seat: int, tokens: Sequence[Mapping[str, str]]) -> int:
        of = self.of
        return sum(of(t, seat) for t in tokens)

    def actual_winners(self) -> set[int]:
        if self.first is None:
            self.first = self.winners({}, {})
        return self.first

    def winners(self, moves: Mapping[str, int | None], colours: Mapping[str, str]) -> set[int]:
        """The seats ranked first by the final hoards with each token of `moves` given to its seat
        there (None: the box lid)."""
        counts = [dict(c) for c in self.counts]
        for tid, to in moves.items():
            was = self.holder.get(tid)
            if was is not None:
                counts[was][colours[tid]] -= 1
            if to is not None:
                counts[to][colours[tid]] = counts[to].get(colours[tid], 0) + 1
        ranks = competition_ranks(self._totals(counts))
        return {s for s, r in enumerate(ranks) if r == 1}


@cache
def face(rules: str, colour: str, n: int) -> int:
    """A colour's worth where no holding changes it: one token of it scored alone."""
    empty: list[dict[str, int]] = [{} for _ in range(n)]
    alone = [{colour: 1}, *empty[1:]]
    scoring, gems = DECK["scoring"][rules], DECK["gems"]
    return score_totals(alone, scoring, gems)[0] - score_totals(empty, scoring, gems)[0]
