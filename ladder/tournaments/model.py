"""The tournament schedule: entrants, format (round robin or Swiss) and duplicate seating.

Duplicate seating plays every deal (a game seed) once in each of a set of seat orders of the same
table, so every entrant at that table meets that deal from every seat; the deal's and the seat's
luck then falls on everybody alike and what differs is play. The orders are all n! when that is
at most `max_orders` (default 6: tables of 2 or 3), else Williams squares (balanced Latin squares)
under relabellings, `round_table`: every entrant holds every seat equally often and sits directly
after every other entrant equally often around the table (in a game whose turns go round, whose
left you sit on matters too): 12 orders at a table of 4, 20 of 5, 30 of 6.

Formats:
- round robin: every group of `table_size` entrants is a table (all combinations); every table
  plays the same deals, so deal luck also cancels across tables.
- Swiss: rounds; each round sorts the field by standing so far and cuts it into tables of
  neighbours, and plays that round's own deals. Round r's tables depend on the results before it,
  so `swiss_round` is called once per round with the standings so far.

Without duplicate seating every match gets its own seed and a random seat order (drawn from the
tournament's seeded generator), the way a ladder seats a table: `random_seating`.

Deal seeds are keyed (`deal_seed`: HMAC-SHA256 of the key and the deal's number), never a constant
stride from a base: one deal's seed, public once its match is over, then tells nothing of another
deal's. The site's events key them with a secret of their own kept on the server
(`TournamentSpec.secret`, events.deal_key); a local tournament (`ladder tournament`) with its seed,
so that seed repeats it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
MAX_ORDERS = 6  # all orders up to this many (tables of 2-3); a balanced set beyond
MAX_MATCHES = 20_000  # a schedule bigger than this is a mistake in the options, not a tournament


class TournamentError(ValueError):
    """The tournament cannot be scheduled as asked; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One competitor, frozen at the start: `key` identifies it (a bot spec or a version id)."""

    key: str
    name: str


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    game: str
    entrants: tuple[Entrant, ...]
    table_size: int
    deals: int  # per round (round robin: one round)
    format: str = ROUND_ROBIN
    rounds: int = 1  # Swiss only
    duplicate: bool = True
    seed: int = 1
    options: dict = field(default_factory=dict)
    max_orders: int = MAX_ORDERS
    secret: bytes = field(default=b"", repr=False)  # keys the seeds (the site's events); b"": the seed does

    @property
    def key(self) -> bytes:
        return seed_key(self.seed, self.secret)

    def __post_init__(self) -> None:
        keys = [e.key for e in self.entrants]
        if len(set(keys)) != len(keys):
            raise TournamentError("an entrant is listed twice")
        if self.format not in FORMATS:
            raise TournamentError(f"unknown format {self.format!r} (choose {', '.join(FORMATS)})")
        if self.table_size < 2:
            raise TournamentError("a table needs at least two seats")
        if len(self.entrants) < self.table_size:
            raise TournamentError(f"{len(self.entrants)} entrants cannot fill a table of {self.table_size}")
        if self.deals < 1 or self.rounds < 1:
            raise TournamentError("deals and rounds must be at least 1")
        if self.format == ROUND_ROBIN and self.rounds != 1:
            raise TournamentError("a round robin has one round; use --format swiss for rounds")


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match of the schedule: who sits where (entrant keys in seat order) on which deal."""

    index: int  # position in the schedule: replays and results are named by it
    round: int
    table: int  # index of the table (group of entrants) within the round
    deal: int  # index of the deal within the tournament
    seed: int
    seats: tuple[str, ...]
    order: int  # which seat order of the table (duplicate), or -1 (random seating)


def seed_key(seed: int, secret: bytes = b"") -> bytes:
    """What keys a schedule's seeds: the secret when there is one, else the schedule's own seed."""
    return secret or f"seed:{seed}".encode()


def keyed_seed(key: bytes, label: str) -> int:
    """A game seed (0 .. 2^63 - 1) from the key and a label: without the key, no seed tells another."""
    return int.from_bytes(hmac.new(key, label.encode(), hashlib.sha256).digest()[:8], "big") >> 1


def deal_seed(key: bytes, deal: int) -> int:
    """The seed every seat order (and table) of deal `deal` plays."""
    return keyed_seed(key, f"deal:{deal}")


def williams(n: int) -> list[tuple[int, ...]]:
    """A Williams design: n orders (2n for odd n) of range(n); each value takes each position
    equally often and directly follows each other value equally often."""
    first = [0]
    low, high = 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = [tuple((v + shift) % n for v in first) for shift in range(n)]
    if n % 2:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


def _around(orders: list[tuple[int, ...]], n: int) -> dict[tuple[int, int], int]:
    """How often each member sits directly after each other one around the table (the last seat
    is followed by the first: turns go round)."""
    follows: dict[tuple[int, int], int] = {}
    for order in orders:
        for s in range(n):
            pair = (order[s], order[(s + 1) % n])
            follows[pair] = follows.get(pair, 0) + 1
    return follows


def _relabelled(relabellings: Sequence[Sequence[int]], n: int) -> list[tuple[int, ...]]:
    return [tuple(p[v] for v in row) for p in relabellings for row in williams(n)]


@functools.cache
def round_table(n: int) -> tuple[tuple[int, ...], ...]:
    """Williams squares under relabellings chosen so that every member also sits directly after
    every other equally often around the table, the wrap from the last seat to the first included.

    One Williams square balances who follows whom along the row of seats only. Its wrap pairs each
    member with the one n/2 further on (even n), so around a table where turns go round, those
    pairs follow each other twice as often: in one game a plain copy of a house bot finished 0.10
    of a rank behind the original when one square sat the original after the weakest bot twice a
    deal (docs/bots.md, Tournaments).
    For even n the n-1 relabellings send the wrap pairs onto the matchings of a 1-factorization
    of the complete graph on n members (vertex n-1 and Z_{n-1}, the standard GK_n), so each pair
    is a wrap pair in exactly one square: n(n-1) orders. For odd n, multiplications mod n of the
    2n-order square (n = 5: 20 orders, 7: 42) are tried; where none balance, one square stands."""
    if n % 2 == 0:
        h, m = n // 2, n - 1
        relabellings = []
        for i in range(m):
            p = [0] * n
            p[0], p[h] = m, i
            for j in range(1, h):
                p[j], p[j + h] = (i + j) % m, (i - j) % m
            relabellings.append(p)
        return tuple(_relabelled(relabellings, n))
    units = [[(k * v) % n for v in range(n)] for k in range(1, n) if math.gcd(k, n) == 1]
    for size in range(1, len(units) + 1):
        for chosen in itertools.combinations(units, size):
            orders = _relabelled(chosen, n)
            follows = _around(orders, n)
            if chosen[0] == units[0] and len(follows) == n * (n - 1) and len(set(follows.values())) == 1:
                return tuple(orders)
    return tuple(williams(n))


def seat_orders(n: int, max_orders: int = MAX_ORDERS) -> list[tuple[int, ...]]:
    """The seat orders a duplicate table plays each deal in: order[s] is the table member in seat s."""
    if math.factorial(n) <= max_orders:
        return list(itertools.permutations(range(n)))
    return list(round_table(n))


def round_robin_tables(entrants: Sequence[Entrant], size: int) -> list[tuple[Entrant, ...]]:
    return list(itertools.combinations(entrants, size))


def split_sizes(count: int, size: int) -> list[int]:
    """Cut `count` entrants into tables of `size` or `size - 1` (as few smaller ones as possible)."""
    tables = math.ceil(count / size)
    small = tables * size - count
    if small > tables or (small and size - 1 < 2):
        raise TournamentError(f"{count} entrants cannot be cut into tables of {size} or {size - 1}")
    return [size] * (tables - small) + [size - 1] * small


def _table_matches(spec: TournamentSpec, rnd: int, table_no: int, table: Sequence[Entrant],
                   deals: Sequence[int], start: int, rng: random.Random) -> list[MatchSpec]:
    out = []
    keys = [e.key for e in table]
    for deal in deals:
        if spec.duplicate:
            seed = deal_seed(spec.key, deal)
            for o, order in enumerate(seat_orders(len(keys), spec.max_orders)):
                out.append(MatchSpec(start + len(out), rnd, table_no, deal, seed, tuple(keys[i] for i in order), o))
        else:
            # the same number of matches as duplicate seating, each on its own seed and seat order
            for _ in seat_orders(len(keys), spec.max_orders):
                seated = keys[:]
                rng.shuffle(seated)
                index = start + len(out)
                out.append(MatchSpec(index, rnd, table_no, deal, keyed_seed(spec.key, f"match:{index}"), tuple(seated),
                                     -1))
    return out


def _check_size(matches: int) -> None:
    if matches > MAX_MATCHES:
        raise TournamentError(f"{matches} matches is more than {MAX_MATCHES}: fewer deals or entrants, or Swiss")


def round_robin(spec: TournamentSpec) -> list[MatchSpec]:
    """The whole schedule of a round robin: every table plays every deal."""
    if spec.format != ROUND_ROBIN:
        raise TournamentError("round_robin needs format round-robin")
    tables = round_robin_tables(spec.entrants, spec.table_size)
    _check_size(len(tables) * spec.deals * len(seat_orders(spec.table_size, spec.max_orders)))
    rng = random.Random(spec.seed)
    out: list[MatchSpec] = []
    for t, table in enumerate(tables):
        out += _table_matches(spec, 0, t, table, range(spec.deals), len(out), rng)
    return out


def swiss_round(spec: TournamentSpec, rnd: int, standing: Sequence[str], start: int = 0) -> list[MatchSpec]:
    """Round `rnd` (0-based) of a Swiss event: `standing` lists every entrant key best first (ties
    already broken; round 0 takes the entrants in a seeded random order). Neighbours share tables;
    the round plays deals rnd*deals .. (rnd+1)*deals-1. `start` numbers the first match."""
    if spec.format != SWISS:
        raise TournamentError("swiss_round needs format swiss")
    if not 0 <= rnd < spec.rounds:
        raise TournamentError(f"round {rnd} outside 0..{spec.rounds - 1}")
    if sorted(standing) != sorted(e.key for e in spec.entrants):
        raise TournamentError("the standing must list every entrant once")
    by_key = {e.key: e for e in spec.entrants}
    order = list(standing)
    rng = random.Random(f"{spec.seed}:{rnd}")
    if rnd == 0:
        rng.shuffle(order)
    deals = range(rnd * spec.deals, (rnd + 1) * spec.deals)
    out: list[MatchSpec] = []
    pos = 0
    for t, size in enumerate(split_sizes(len(order), spec.table_size)):
        table = [by_key[k] for k in order[pos: pos + size]]
        pos += size
        out += _table_matches(spec, rnd, t, table, deals, start + len(out), rng)
    return out


def table_sizes(spec: TournamentSpec) -> list[int]:
    """The sizes of the tables the event seats (check them against the game's player range)."""
    if spec.format == ROUND_ROBIN:
        return [spec.table_size]
    return sorted(set(split_sizes(len(spec.entrants), spec.table_size)))


def schedule_size(spec: TournamentSpec) -> int:
    """How many matches the whole event plays (Swiss: every round)."""
    if spec.format == ROUND_ROBIN:
        tables = math.comb(len(spec.entrants), spec.table_size)
        return tables * spec.deals * len(seat_orders(spec.table_size, spec.max_orders))
    per_round = sum(len(seat_orders(s, spec.max_orders)) for s in split_sizes(len(spec.entrants), spec.table_size))
    return per_round * spec.deals * spec.rounds
