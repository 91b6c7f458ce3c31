"""The gauntlet measurement: how often a house bot finishes above each bot written outside the house.

Each outside bot meets the house bot at its own table, filled with the same filler bots (for
the flagship: greedy and trader), on the same deals, in every seat order of the table (all of them
up to 4 seats, a balanced set beyond: `model.seat_orders`). What is counted, per outside bot, is
the share of its games in which the house bot finished strictly above it (ranks after forfeits); a
tie is neither. The 95% interval is the percentile bootstrap over deals, since the seat orders of
one deal share its cards. Pure: the schedule and the statistics; `ladder gauntlet` plays it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ladder.tournaments.model import MAX_MATCHES, MatchSpec, TournamentError, deal_seed, seat_orders, seed_key
from ladder.tournaments.standings import PlayedMatch

HOUSE, OUTSIDER = 1, 0  # table members: the outside bot first, the house bot second, then the fillers
BOOTSTRAP = 2000
ALL_ORDERS = 24  # every order of a table of four; bigger tables take the balanced set


@dataclass(frozen=True, slots=True)
class GauntletSpec:
    game: str
    house: str
    outsiders: tuple[str, ...]
    fillers: tuple[str, ...]
    players: int
    deals: int
    seed: int = 1
    options: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.outsiders:
            raise TournamentError("no outside bot to measure against")
        if self.players < 2:
            raise TournamentError("a table needs at least two seats")
        if self.players > 2 and not self.fillers:
            raise TournamentError(f"tables of {self.players} need filler bots beside the two measured")
        if self.deals < 1:
            raise TournamentError("deals must be at least 1")

    def members(self, outsider: str) -> tuple[str, ...]:
        """The table of one outside bot: it, the house bot, then fillers in turn to fill the seats."""
        fill = [self.fillers[i % len(self.fillers)] for i in range(self.players - 2)] if self.fillers else []
        return (outsider, self.house, *fill)


def schedule(spec: GauntletSpec) -> list[MatchSpec]:
    """Table t is outsiders[t]; `order` indexes seat_orders(players); seats hold bot specs."""
    orders = seat_orders(spec.players, max_orders=ALL_ORDERS)
    total = len(spec.outsiders) * spec.deals * len(orders)
    if total > MAX_MATCHES:
        raise TournamentError(f"{total} matches is more than {MAX_MATCHES}: fewer deals")
    out = []
    for table, outsider in enumerate(spec.outsiders):
        members = spec.members(outsider)
        for deal in range(spec.deals):
            seed = deal_seed(seed_key(spec.seed), deal)  # the same deals for every outside bot: paired
            for number, order in enumerate(orders):
                out.append(MatchSpec(len(out), 0, table, deal, seed, tuple(members[m] for m in order), number))
    return out


def seat_of(spec: GauntletSpec, match: MatchSpec, member: int) -> int:
    return seat_orders(spec.players, max_orders=ALL_ORDERS)[match.order].index(member)


@dataclass(frozen=True, slots=True)
class Above:
    """The house bot against one outside bot."""

    outsider: str
    games: int
    above: int  # the house bot finished strictly above the outside bot
    ties: int
    share: float
    low: float
    high: float
    failed: int  # matches that could not be counted (the ladder failed, or every seat forfeited)
    house_forfeits: int
    outsider_forfeits: int

    def as_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def finishing_above(spec: GauntletSpec, played: Iterable[PlayedMatch], *, seed: int = 0,
                    samples: int = BOOTSTRAP) -> list[Above]:
    rng = random.Random(seed)
    per: dict[int, dict[int, list[int]]] = {t: {} for t in range(len(spec.outsiders))}  # table -> deal -> [above, n]
    counts = {t: {"ties": 0, "failed": 0, "house_forfeits": 0, "outsider_forfeits": 0} for t in per}
    for match in played:
        t = match.spec.table
        if not match.counts():
            counts[t]["failed"] += 1
            continue
        ranks = match.ranks()
        house, outsider = seat_of(spec, match.spec, HOUSE), seat_of(spec, match.spec, OUTSIDER)
        counts[t]["house_forfeits"] += match.seats[house].forfeited
        counts[t]["outsider_forfeits"] += match.seats[outsider].forfeited
        cell = per[t].setdefault(match.spec.deal, [0, 0])
        cell[0] += ranks[house] < ranks[outsider]
        cell[1] += 1
        counts[t]["ties"] += ranks[house] == ranks[outsider]
    out = []
    for t, outsider in enumerate(spec.outsiders):
        deals = list(per[t].values())
        games = sum(n for _, n in deals)
        above = sum(a for a, _ in deals)
        low, high = _bootstrap(deals, rng, samples)
        out.append(Above(outsider, games, above, counts[t]["ties"], above / games if games else float("nan"),
                         low, high, counts[t]["failed"], counts[t]["house_forfeits"], counts[t]["outsider_forfeits"]))
    return out


def _bootstrap(deals: Sequence[Sequence[int]], rng: random.Random, samples: int) -> tuple[float, float]:
    if not deals:
        return float("nan"), float("nan")
    if len(deals) < 2:
        share = deals[0][0] / deals[0][1]
        return share, share
    shares = []
    for _ in range(samples):
        picked = rng.choices(deals, k=len(deals))
        shares.append(sum(a for a, _ in picked) / sum(n for _, n in picked))
    shares.sort()
    return shares[int(0.025 * (samples - 1))], shares[int(0.975 * (samples - 1))]
