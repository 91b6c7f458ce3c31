"""Treasure of the Dragons' scorecard (ladder/games/scorecard.py): what decides the game.

One pass over the replay's log. Every flip is public, so the pass knows exactly what the table
knew at each decision: the tiles won, the tiles face up this turn, and every face-down square whose
tile some earlier flip showed. From that it computes, at each decision where the seat could stop
(a turn with at least one flip made and not ended), the expected value of one more flip and
compares it with stopping now (docs/scorecard.md, "treasure-ev"):

- stopping now keeps V tiles: the complete sets among this turn's flips (a Dragon run keeps every
  Dragon flipped);
- flipping a square whose tile the table has seen gives that kind for sure; flipping a square
  nobody has seen gives kind k with probability (tiles of k not won, not face up and not known to
  lie on a seen square) / (unseen squares). Either way the value after the flip is what stopping
  right after it would keep, 0 when the flip ends the turn (a Spider; a Dragon after a treasure; a
  treasure in a Dragon run);
- the one-flip optimum is the better of V and the best flip's expected value.

The measures say how often the seat's choice was that optimum, how often it stopped with a better
flip on offer or flipped into a worse one, and what it gave up in expected tiles.
"""

from __future__ import annotations

from collections import Counter

from ladder.games.scorecard import Measure, Tally
from ladder.games.treasure.rules.decisions import FLIP
from ladder.games.treasure.rules.tiles import COLS, COUNTS, DRAGON, NAMES, SET_SIZE, SPIDER, kept_from
from ladder.replay import Decision, Replay

BUSTS = ("spider", "dragon", "not_dragon")  # turn_end reasons that lose the turn's flips
EPSILON = 1e-9
SET_KINDS = tuple(SET_SIZE)  # chest, sword, scroll, potion, egg, diamond

MEASURES: tuple[Measure, ...] = (
    Measure("bust_rate", "bust rate", "turns that ended on a Spider or a Dragon (or a treasure in a Dragon run), "
            "losing the turn's flips, of the turns played", "rate", "%", "treasure-bust-rate"),
    Measure("flips_per_turn", "flips per turn", "tiles turned over per turn played", "mean", "",
            "treasure-flips-per-turn"),
    Measure("tiles_per_turn", "tiles per turn", "tiles kept per turn played", "mean", "", "treasure-tiles-per-turn"),
    Measure("ev_optimal", "one-flip optimum", "choices between stopping and flipping on that matched the one-flip "
            "expected-value optimum from the public tiles left", "rate", "%", "treasure-ev"),
    Measure("stopped_early", "stopped early", "stops made while some flip's expected value was higher than what "
            "stopping kept", "rate", "%", "treasure-ev"),
    Measure("pushed_on", "pushed on", "flips whose expected value was lower than what stopping would have kept",
            "rate", "%", "treasure-ev"),
    Measure("ev_lost", "EV given up", "expected tiles given up per choice against the one-flip optimum", "mean", "",
            "treasure-ev"),
    Measure("stop_tiles", "tiles at a stop", "tiles kept per turn the seat ended by stopping", "mean", "",
            "treasure-stop-tiles"),
    *(Measure(f"sets_{kind}", f"{NAMES[kind]} sets", f"{NAMES[kind]} sets of {SET_SIZE[kind]} completed per match",
              "total", "", "treasure-sets") for kind in SET_KINDS),
    Measure("dragons_kept", "Dragons kept", "Dragons kept by a Dragon run, per match", "total", "", "treasure-sets"),
)


def _kept_value(kinds: list[str], dragon_run: bool) -> int:
    if dragon_run:
        return len(kinds)
    return sum(kept_from(kinds).values())


def _flip_values(kinds: list[str], dragon_run: bool) -> dict[str, int]:
    """Kind -> what stopping right after flipping one of it would keep; 0 when that flip ends the
    turn (a Spider; a treasure in a Dragon run; a Dragon after a treasure)."""
    if dragon_run:
        return {kind: len(kinds) + 1 if kind == DRAGON else 0 for kind in COUNTS}
    have = Counter(kinds)
    base = sum(n - n % SET_SIZE[k] for k, n in have.items() if k in SET_SIZE)
    out = dict.fromkeys(COUNTS, 0)
    for kind, size in SET_SIZE.items():
        n = have[kind]
        out[kind] = base - (n - n % size) + (n + 1 - (n + 1) % size)
    return out


class _Seat:
    __slots__ = (
        "busts",
        "choices",
        "dragons",
        "early",
        "flips",
        "kept",
        "late",
        "lost",
        "optimal",
        "pushes",
        "sets",
        "stop_kept",
        "stop_turns",
        "stops",
        "turns",
    )

    def __init__(self) -> None:
        self.turns = self.busts = self.flips = self.kept = 0
        self.choices = self.optimal = self.stops = self.early = self.pushes = self.late = 0
        self.lost = 0.0
        self.stop_turns = self.stop_kept = 0
        self.sets: Counter[str] = Counter()
        self.dragons = 0

    def tallies(self) -> dict[str, Tally]:
        out: dict[str, Tally] = {}
        if self.turns:
            out["bust_rate"] = (self.busts, self.turns)
            out["flips_per_turn"] = (self.flips, self.turns)
            out["tiles_per_turn"] = (self.kept, self.turns)
        if self.choices:
            out["ev_optimal"] = (self.optimal, self.choices)
            out["ev_lost"] = (round(self.lost, 6), self.choices)
        if self.stops:
            out["stopped_early"] = (self.early, self.stops)
        if self.pushes:
            out["pushed_on"] = (self.late, self.pushes)
        if self.stop_turns:
            out["stop_tiles"] = (self.stop_kept, self.stop_turns)
        for kind in SET_KINDS:
            out[f"sets_{kind}"] = (self.sets[kind], 1)
        out["dragons_kept"] = (self.dragons, 1)
        return out


class _Cave:
    """What the table knows: this turn's flips, the kinds of the squares seen (until won), and the
    tiles nobody has seen yet (every kind's count less each tile some flip showed)."""

    def __init__(self) -> None:
        self.known: dict[int, str] = {}  # squares still holding a tile the table has seen
        self.unseen: Counter[str] = Counter(COUNTS)
        self.flipped: list[int] = []
        self.dragon_run = False

    def options(self) -> tuple[float | None, dict[int, int]]:
        """(expected value of flipping an unseen square, None when there is none; the value of
        flipping each seen face-down square)."""
        values = _flip_values([self.known[i] for i in self.flipped], self.dragon_run)
        up = set(self.flipped)
        total = sum(self.unseen.values())
        unknown = sum(n * values[k] for k, n in self.unseen.items()) / total if total else None
        return unknown, {i: values[k] for i, k in self.known.items() if i not in up}


def measure(replay: Replay) -> dict[int, dict[str, Tally]]:
    players = replay.header.players
    seats = [_Seat() for _ in range(players)]
    cave = _Cave()
    current = 0
    for entry in replay.log:
        if isinstance(entry, Decision):
            if entry.kind == FLIP and cave.flipped:
                _choice(seats[entry.seat], cave, entry.decision)
            continue
        data = entry.data
        kind = entry.type
        if kind == "turn_start":
            current = data["seat"]
            cave.flipped = []
            cave.dragon_run = False
        elif kind == "flip":
            square = data["square"][0] * COLS + data["square"][1]
            if square not in cave.known:
                cave.unseen[data["kind"]] -= 1
            cave.known[square] = data["kind"]
            if not cave.flipped:  # a turn's first flip: a turn played
                cave.dragon_run = data["kind"] == DRAGON
                seats[current].turns += 1
            cave.flipped.append(square)
            seats[current].flips += 1
        elif kind == "keep":
            tiles = data["tiles"]
            seat = seats[data["seat"]]
            for tile, n in tiles.items():
                seat.kept += n
                if tile in SET_SIZE:
                    seat.sets[tile] += n // SET_SIZE[tile]
                elif tile == DRAGON:
                    seat.dragons += n
            for r, c in data["squares"]:
                cave.known.pop(r * COLS + c, None)
        elif kind == "turn_end":
            seat = seats[data["seat"]]
            if data["reason"] in BUSTS:
                seat.busts += 1
            elif data["reason"] == "stop":
                seat.stop_turns += 1
                seat.stop_kept += len(cave.flipped) - len(data["returned"])
            cave.flipped = []
        elif kind == "spider_move" and data.get("to") is not None:
            start = data["from"][0] * COLS + data["from"][1]
            target = data["to"][0] * COLS + data["to"][1]
            cave.known.pop(start, None)
            cave.known[target] = SPIDER
    return {s: seat.tallies() for s, seat in enumerate(seats)}


def _choice(seat: _Seat, cave: _Cave, decision: dict) -> None:
    """A flip-or-stop decision with at least one flip made: scored against the one-flip optimum."""
    stop_value = _kept_value([cave.known[i] for i in cave.flipped], cave.dragon_run)
    unknown, seen = cave.options()
    best_flip = max([v for v in (unknown,) if v is not None] + list(seen.values()), default=None)
    best = stop_value if best_flip is None else max(stop_value, best_flip)
    square = decision.get("square")
    if square is None:  # a stop
        chosen = stop_value
        seat.stops += 1
        seat.early += best_flip is not None and best_flip > stop_value + EPSILON
    else:
        index = square[0] * COLS + square[1]
        chosen = seen.get(index, unknown or 0.0)
        seat.pushes += 1
        seat.late += chosen < stop_value - EPSILON
    seat.choices += 1
    seat.optimal += chosen >= best - EPSILON
    seat.lost += best - chosen
