"""The learned Treasure bot's features: what each choice of a flip request looks like as numbers.

A flip request has at most a few kinds of answer: stop, flip an unseen square, or flip a face-down
tile the bot remembers (one choice per remembered kind). Each choice becomes one row of FEATURES;
the model (model.json, fitted by train.py) is one weight per feature, and the bot plays the choice
with the highest weighted sum. The bot (main.py) and the training (train.py) both call `choices`,
so the model sees in training exactly the numbers the bot computes in play.

The numbers are tiles kept, estimated by looking one and two unseen flips ahead (the expectimax
of bots/treasure/memory.py, copied here so the bot is one self-contained folder), the chance that
an unseen flip ends the turn, and where the bot stands in the game. Plain Python: nothing to
import, so the bot starts as fast as any Python bot.
"""

from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

DRAGON, SPIDER = "dragon", "spider"
DRAGON_WEIGHT = 1.25  # the most Dragons at the end takes the 3 Spiders: a Dragon is worth a bit more

FEATURES = (
    "stop", "unseen", "known",   # which kind of choice (the model learns a bias for each)
    "value",                     # tiles kept, looking one unseen flip ahead
    "value_deep",                # tiles kept, looking two unseen flips ahead
    "unseen_ends",               # unseen: the chance the flip ends the turn
    "unseen_at_stake",           # unseen: what stopping now would keep (lost if the turn ends)
    "unseen_first",              # unseen: the turn's first flip (it decides the kind of turn)
    "unseen_run",                # unseen: during a Dragon run
    "unseen_behind",             # unseen: tiles the leading other seat has over this one, / 10
    "unseen_late",               # unseen: share of the cave's tiles already taken
    "known_ends",                # known: the remembered tile would end the turn
)

Square = tuple[int, int]


class Memory:
    """Where the face-down tiles the seat has seen lie: every flip is public, kept from events."""

    def __init__(self) -> None:
        self.known: dict[Square, str] = {}

    def on_event(self, event: dict[str, Any]) -> None:
        data = event["data"]
        if event["type"] == "game_start":
            self.known = {}
        elif event["type"] == "flip":
            self.known[tuple(data["square"])] = data["kind"]
        elif event["type"] == "keep":
            for square in data["squares"]:
                self.known.pop(tuple(square), None)
        elif event["type"] == "spider_move" and data["to"] is not None:
            self.known.pop(tuple(data["from"]), None)
            self.known[tuple(data["to"])] = SPIDER


def choices(observation: dict[str, Any], known: dict[Square, str]) -> list[tuple[dict[str, Any], list[float]]]:
    """Every distinct answer to a flip request with its feature row, in a fixed order: stop,
    unseen (a square the caller draws: the answer holds "unseen"), then each known kind."""
    request = observation["request"]
    sets = observation["set_sizes"]
    down = [tuple(sq) for sq in request["squares"]]
    mine = {sq: known[sq] for sq in down if sq in known}
    unknown = [sq for sq in down if sq not in mine]
    kinds = Counter(mine.values())
    hand = Counter(f["kind"] for f in observation["flipped"])
    run = bool(observation["dragon_run"])
    first = not hand
    pool = unseen_pool(observation, mine)
    stop_now = stop_value(hand, run, kinds, sets) if hand else 0.0
    out = []

    def row(**values: float) -> list[float]:
        return [float(values.get(name, 0.0)) for name in FEATURES]

    if request["can_stop"]:
        out.append(({"stop": True}, row(stop=1, value=stop_now, value_deep=stop_now)))
    if unknown:
        unseen = sum(pool.values())
        ends = sum(n for k, n in pool.items() if ends_turn(k, run, first)) / unseen if unseen else 0.0
        hoards = [sum(h.values()) for h in observation["hoards"]]
        me = observation["seat"]
        behind = max((h for s, h in enumerate(hoards) if s != me), default=0) - hoards[me]
        total = sum(observation["tile_counts"].values())
        out.append(({"square": "unseen"}, row(
            unseen=1, value=flip_value(hand, run, kinds, pool, sets, 1),
            value_deep=flip_value(hand, run, kinds, pool, sets, 2), unseen_ends=ends,
            unseen_at_stake=stop_now, unseen_first=float(first), unseen_run=float(run), unseen_behind=behind / 10,
            unseen_late=sum(hoards) / total)))
    for kind in sorted(kinds):
        square = min(sq for sq, k in mine.items() if k == kind)
        ends = ends_turn(kind, run, first)
        after, rest = hand.copy(), kinds.copy()
        after[kind] += 1
        rest[kind] -= 1
        after_run = run or (first and kind == DRAGON)
        value = 0.0 if ends else stop_value(after, after_run, rest, sets)
        deep = 0.0 if ends else best_value(after, after_run, rest, pool, sets, 1)
        out.append(({"square": list(square)}, row(known=1, value=value, value_deep=deep, known_ends=float(ends))))
    return out


# ---- tiles kept, looking ahead (as bots/treasure/memory.py) ---------------------------------

def stop_value(hand: Counter, run: bool, known: Counter, sets: dict[str, int]) -> float:
    """Tiles kept by stopping after flipping every known tile that is safe to flip now."""
    if run:
        return (hand[DRAGON] + known[DRAGON]) * DRAGON_WEIGHT
    return float(sum((hand[k] + known[k]) // s * s for k, s in sets.items()))


def ends_turn(kind: str, run: bool, first: bool) -> bool:
    if kind == SPIDER:
        return True
    if first:
        return False  # the first flip picks the kind of turn
    return (kind != DRAGON) if run else (kind == DRAGON)


def best_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
    best = stop_value(hand, run, known, sets) if hand else 0.0
    return max(best, flip_value(hand, run, known, pool, sets, depth))


def flip_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
    """The expected tiles kept after flipping one unseen square now, then choosing well."""
    unseen = sum(pool.values())
    if unseen <= 0:
        return 0.0
    first = not +hand
    total = 0.0
    for kind, n in sorted(pool.items()):
        if n <= 0 or ends_turn(kind, run, first):
            continue
        pool[kind] -= 1
        hand[kind] += 1
        after_run = run or (first and kind == DRAGON)
        if depth == 1:
            value = stop_value(hand, after_run, known, sets)
        else:
            value = best_value(hand, after_run, known, pool, sets, depth - 1)
        hand[kind] -= 1
        pool[kind] += 1
        total += n / unseen * value
    return total


def unseen_pool(observation: dict[str, Any], known: dict[Square, str]) -> Counter:
    """The tiles nobody has seen: the cave's, less the hoards, the face-up and the known ones."""
    left = Counter(observation["tile_counts"])
    for hoard in observation["hoards"]:
        left.subtract(hoard)
    left[SPIDER] -= sum(observation["spider_bonus"])
    left.subtract(f["kind"] for f in observation["flipped"])
    left.subtract(known.values())
    return Counter({k: n for k, n in left.items() if n > 0})


def score(weights: list[float], features: list[float]) -> float:
    return sum(w * x for w, x in zip(weights, features, strict=True))
