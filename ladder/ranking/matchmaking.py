"""Who plays whom: pure functions of the candidates, a `random.Random` and the current time.

One table = a seed bot plus opponents drawn from a window around the seed's rating:
- a version that still owes placement games is seeded first;
- otherwise the seed is the bot that has waited longest, a provisional bot's wait counting
  PROVISIONAL_PRIORITY times, so every bot's turn comes (no starvation) and new bots settle fast;
- the window's half-width is random in [WINDOW_MIN, WINDOW_MAX], at least the seed's own +-
  (its rating's 95% interval: a new version, whose rating is unsure, meets a spread of
  opponents), and doubles until enough opponents fit in it, so tables are close in rating but
  not always the same bots;
- never two bots of one owner at a table, except the house's starter bots when allowed;
- seats are shuffled so no bot keeps the same seat.

Ratings are in milli-points, as in ladder/ranking/ratings.py. The same inputs and the same rng state
give the same tables, whatever order the candidates come in. See docs/ratings.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.ranking.ratings import MILLI, half_width, is_provisional

WINDOW_MIN = 100 * MILLI  # half-width of the first rating window, drawn uniformly in [MIN, MAX]
WINDOW_MAX = 300 * MILLI
WINDOW_GROWTH = 2  # the window is multiplied by this until enough opponents fit
PROVISIONAL_PRIORITY = 2  # a provisional bot's waiting time counts double when choosing a seed


@dataclass(frozen=True, slots=True)
class TableSize:
    minimum: int
    maximum: int
    default: int

    def __post_init__(self) -> None:
        if not 2 <= self.minimum <= self.default <= self.maximum:
            raise ValueError(f"bad table size {self}")

    @classmethod
    def of(cls, game: Any) -> TableSize:
        """A game's table sizes, derived from what it declares: its player range and the size
        it prefers (ladder.games.base.Game), so no second table of sizes can drift from it."""
        return cls(game.min_players, game.max_players, game.preferred_players)


@dataclass(frozen=True, slots=True)
class Candidate:
    bot: Hashable  # what plays a seat (a bot version id, or a bot id)
    owner: Hashable
    game: str
    rating: int  # milli-points
    games: int = 0  # rated games played
    placement_owed: int = 0  # placement games still to play before normal matchmaking
    last_played: float | None = None  # any monotonic number (e.g. a Unix time); None = never
    active: bool = True
    deviation: int = 0  # milli-points (ladder/ranking/ratings.py): how sure its rating is; 0: not given


@dataclass(frozen=True, slots=True)
class Table:
    seats: tuple[Candidate, ...]  # in seat order
    seed: Candidate
    window: int  # half-width of the rating window that filled the table, milli-points

    @property
    def bots(self) -> tuple[Hashable, ...]:
        return tuple(c.bot for c in self.seats)


def eligible(
    candidates: Iterable[Candidate], *, game: str | None = None, exclude: Collection[Hashable] = ()
) -> list[Candidate]:
    """Active candidates (of `game` when given) not in `exclude`, in a canonical order."""
    out = [c for c in candidates if c.active and (game is None or c.game == game) and c.bot not in exclude]
    # sorting by repr gives one order whatever order the database returned rows in
    out.sort(key=lambda c: repr(c.bot))
    if len({c.bot for c in out}) != len(out):
        raise ValueError("a bot is listed twice among the candidates")
    return out


def owner_key(c: Candidate, house_owner: Hashable | None, house_together: bool = True) -> Hashable:
    """Two bots may share a table iff their keys differ; each house bot is its own key if allowed."""
    if house_together and house_owner is not None and c.owner == house_owner:
        return ("house", c.bot)
    return ("owner", c.owner)


def seed_priority(c: Candidate, now: float) -> tuple[bool, float]:
    """Larger is seeded first: placement owed, then waiting time (provisional counts more)."""
    wait = math.inf if c.last_played is None else max(0.0, now - c.last_played)
    factor = PROVISIONAL_PRIORITY if is_provisional(c.games) else 1
    return (c.placement_owed > 0, wait * factor)


def pick_seed(pool: Sequence[Candidate], rng: random.Random, now: float) -> Candidate:
    """The highest-priority candidate; ties (e.g. several never played) broken by `rng`."""
    order = list(pool)
    rng.shuffle(order)
    return max(order, key=lambda c: seed_priority(c, now))  # max keeps the first of equals


def _fill(
    seed: Candidate,
    pool: Sequence[Candidate],
    need: int,
    rng: random.Random,
    key: Callable[[Candidate], Hashable],
) -> list[Candidate]:
    """Up to `need` random bots from `pool` whose owners collide neither with the seed nor each other."""
    shuffled = list(pool)
    rng.shuffle(shuffled)
    taken, used = [], {key(seed)}
    for c in shuffled:
        if len(taken) == need:
            break
        if key(c) not in used:
            used.add(key(c))
            taken.append(c)
    return taken


def make_table(
    candidates: Iterable[Candidate],
    sizes: TableSize,
    rng: random.Random,
    now: float,
    *,
    game: str | None = None,
    seats: int | None = None,
    exclude: Collection[Hashable] = (),
    house_owner: Hashable | None = None,
    house_together: bool = True,
    host: Candidate | None = None,
    seeds: Collection[Hashable] | None = None,
) -> Table | None:
    """One table, or None when fewer bots can sit together than `sizes.minimum`.

    `seats` asks for a table size (default `sizes.default`); the table is smaller when owners
    leave too few bots that may sit together, never below `sizes.minimum`. Bots whose owner is
    `house_owner` (the starter bots) may share a table when `house_together` is true.
    A league's table (ladder/ranking/leagues.py): `host` (its boss) sits at every table, `exclude` or not, and
    only the bots in `seeds` (the league's own) seed one; None = any bot.
    """
    pool = eligible(candidates, game=game, exclude=exclude)
    if host is not None:
        pool = [c for c in pool if c.bot != host.bot]
    wanted = sizes.default if seats is None else seats
    if not sizes.minimum <= wanted <= sizes.maximum:
        raise ValueError(f"{wanted} seats is outside {sizes.minimum}..{sizes.maximum}")

    def key(c: Candidate) -> Hashable:
        return owner_key(c, house_owner, house_together)

    seeding = [c for c in pool if seeds is None or c.bot in seeds]
    if host is not None:
        seeding = [c for c in seeding if key(c) != key(host)]
    if not seeding:
        return None
    hosted = () if host is None else (host,)
    # any seed reaches it: each owner key fills one seat
    capacity = len({key(c) for c in (*pool, *hosted)})
    size = min(wanted, capacity)
    if size < sizes.minimum:
        return None
    seed = pick_seed(seeding, rng, now)
    others = [c for c in pool if c is not seed and (host is None or key(c) != key(host))]
    farthest = max((abs(c.rating - seed.rating) for c in others), default=0)
    # an unsure seed's window spans its whole interval: its first tables reach above and below it
    window = max(rng.randint(WINDOW_MIN, WINDOW_MAX), half_width(seed.deviation))
    need = size - 1 - len(hosted)
    while True:
        near = [c for c in others if abs(c.rating - seed.rating) <= window]
        opponents = _fill(seed, near, need, rng, key)
        if len(opponents) == need:
            break
        if window >= farthest:  # cannot happen: capacity counted every owner key in the pool
            raise AssertionError("window covers every candidate but the table is not full")
        window *= WINDOW_GROWTH
    table = [seed, *hosted, *opponents]
    rng.shuffle(table)  # nobody keeps a fixed seat; the seed is not always first
    return Table(tuple(table), seed, window)


def make_tables(
    candidates: Iterable[Candidate],
    sizes: TableSize,
    rng: random.Random,
    now: float,
    count: int,
    *,
    game: str | None = None,
    seats: int | None = None,
    exclude: Collection[Hashable] = (),
    house_owner: Hashable | None = None,
    house_together: bool = True,
    host: Candidate | None = None,
    seeds: Collection[Hashable] | None = None,
) -> list[Table]:
    """Up to `count` tables for one scheduler tick; no bot sits at two of them but `host`, a
    league's boss, which sits at each (make_table says what `host` and `seeds` are).

    Pass the bots already queued or playing in `exclude` so they are not booked twice.
    Fewer tables come back when the bots run out.
    """
    pool = list(candidates)
    booked = set(exclude)
    tables = []
    for _ in range(count):
        table = make_table(
            pool, sizes, rng, now, game=game, seats=seats, exclude=booked,
            house_owner=house_owner, house_together=house_together, host=host, seeds=seeds,
        )
        if table is None:
            break
        tables.append(table)
        booked.update(bot for bot in table.bots if host is None or bot != host.bot)
    return tables


PRIORITY_SHARE = 0.5  # of the matches running, at most this part are validation and challenge games


def next_class(
    *, running_ladder: int, running_priority: int, ladder_waiting: bool, priority_waiting: bool,
    share: float = PRIORITY_SHARE,
) -> str | None:
    """Which queue a free worker serves next: "priority" (validation and challenge games: a user is
    waiting) or "ladder" (rated matches); None when nothing waits.

    A fair share, not absolute priority: priority games go first while they hold less than `share`
    of the running matches, or when no rated match waits; otherwise the rated match goes first.
    So any flood of uploads or challenges leaves rated play at least 1 - `share` of the workers.
    """
    if not 0 < share < 1:
        raise ValueError(f"share {share} is not strictly between 0 and 1")
    if not (ladder_waiting or priority_waiting):
        return None
    if not ladder_waiting:
        return "priority"
    if not priority_waiting:
        return "ladder"
    total = running_ladder + running_priority
    return "priority" if running_priority < share * (total + 1) else "ladder"
