"""A memory bot for Treasure of the Dragons: remembers every flipped tile, stops by expected value.

Every flip is public, so the bot keeps a map of the face-down tiles it has seen (`self.known`,
kept from the events). The tiles nobody has seen are the cave's tiles minus the hoards, the tiles
face up and the known ones; an unseen square holds each kind with that share. At each flip the bot
compares, in tiles it would keep (a Dragon counts DRAGON_WEIGHT, for the Spider bonus):

    stop   what stopping keeps after also flipping every known tile that is safe to flip
    flip   the expected value of flipping an unseen square and then choosing as well again,
           looking LOOKAHEAD flips ahead (a flip that ends the turn is worth nothing)

and flips an unseen square only when that is worth more. Known safe tiles (a remembered Diamond,
the second Scroll of a pair) are collected at the end, without risk.
"""

from __future__ import annotations

from collections import Counter

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

DRAGON, SPIDER = "dragon", "spider"
DRAGON_WEIGHT = 1.25  # the most Dragons at the end takes the 3 Spiders: a Dragon is worth a bit more
LOOKAHEAD = 3  # unseen flips looked ahead: 2 sees that a lone Sword needs two more to count

Square = tuple[int, int]


def stop_value(hand: Counter, run: bool, known: Counter, sets: dict[str, int]) -> float:
    """Tiles kept by stopping after flipping every known tile that is safe to flip now."""
    if run:
        return (hand[DRAGON] + known[DRAGON]) * DRAGON_WEIGHT
    return sum((hand[k] + known[k]) // s * s for k, s in sets.items())


def ends_turn(kind: str, run: bool, hand_empty: bool) -> bool:
    if kind == SPIDER:
        return True
    if hand_empty:
        return False  # the first flip picks the kind of turn
    return (kind != DRAGON) if run else (kind == DRAGON)


def best_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
    """What the turn is worth from here, looking `depth` unseen flips ahead (expectimax on kinds)."""
    best = stop_value(hand, run, known, sets) if hand else 0.0
    flip = flip_value(hand, run, known, pool, sets, depth)
    return max(best, flip)


def flip_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
    """The expected value of flipping one unseen square now, then choosing well."""
    unseen = sum(pool.values())
    if unseen <= 0:
        return 0.0
    first = not +hand
    total = 0.0
    for kind, n in pool.items():
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


def choose(hand: Counter, run: bool, known: dict[Square, str], unknown: list[Square], pool: Counter,
           sets: dict[str, int], depth: int = LOOKAHEAD) -> Square | str | None:
    """A known square to flip, "unseen" to flip an unseen one (the caller draws it), None to stop.

    `known` holds every known face-down tile; which of them are safe to flip depends on the turn
    (a Dragon run: the Dragons; a treasure hunt: the treasures), which stop_value sorts out."""
    kinds = Counter(known.values())
    if not hand:  # the first flip: a Dragon run, a treasure hunt, or an unseen square
        options = {}
        if kinds[DRAGON]:
            rest = kinds.copy()
            rest[DRAGON] -= 1
            options[DRAGON] = best_value(Counter({DRAGON: 1}), True, rest, pool, sets, depth)
        for kind in kinds:
            if kind in sets:
                rest = kinds.copy()
                rest[kind] -= 1
                options[kind] = best_value(Counter({kind: 1}), False, rest, pool, sets, depth)
        if unknown:
            options["unseen"] = flip_value(Counter(), False, kinds, pool, sets, depth)
        if not options:  # only known Spiders are face down: a forced flip
            return min(known)
        pick = max(options, key=lambda k: (options[k], k == "unseen"))
        return "unseen" if pick == "unseen" else min(sq for sq, k in known.items() if k == pick)
    stop = stop_value(hand, run, kinds, sets)
    if unknown and flip_value(hand, run, kinds, pool, sets, depth) > stop:
        return "unseen"
    for sq in sorted(known):  # collect the known tiles that add to what stopping keeps
        kind = known[sq]
        if run and kind == DRAGON:
            return sq
        if not run and kind in sets and (hand[kind] + kinds[kind]) // sets[kind] * sets[kind] > hand[kind]:
            return sq
    return None


def unseen_pool(observation: dict[str, Any], known: dict[Square, str]) -> Counter:
    """The tiles nobody has seen: the cave's, less the hoards, the face-up and the known ones."""
    left = Counter(observation["tile_counts"])
    for hoard in observation["hoards"]:
        left.subtract(hoard)
    left[SPIDER] -= sum(observation["spider_bonus"])
    left.subtract(f["kind"] for f in observation["flipped"])
    left.subtract(known.values())
    return Counter({k: n for k, n in left.items() if n > 0})


class MemoryBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.known: dict[Square, str] = {}  # square -> kind, for tiles seen and still in the cave

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

    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        down = [tuple(sq) for sq in observation["request"]["squares"]]
        known = {sq: self.known[sq] for sq in down if sq in self.known}
        unknown = [sq for sq in down if sq not in known]
        hand = Counter(f["kind"] for f in observation["flipped"])
        pool = unseen_pool(observation, known)
        pick = choose(hand, observation["dragon_run"], known, unknown, pool, observation["set_sizes"])
        if pick is None:
            return {"stop": True}
        if pick == "unseen":
            return {"square": list(self.rng.choice(unknown))}
        return {"square": list(pick)}

    def move_spider(self, observation: dict[str, Any]) -> dict[str, Any]:
        # Where the Spider goes is public, so moving it hides nothing: leave it.
        return {"square": None}


if __name__ == "__main__":
    run(MemoryBot)
