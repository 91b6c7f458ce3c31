"""A search bot for Treasure of the Dragons: tries each choice on sampled caves with the forward model.

At each flip the bot lists its choices (stop, flip an unseen square, flip a remembered tile of each
kind) and plays each of them on SAMPLES determinizations: full game states from the game's own
rules (bots/forward.py) that agree with everything this seat saw, the unseen tiles shuffled at
random. After the choice it plays the rest of the turn with the memory bot's expected-value policy
(bots/treasure_memory.py, copied below so this file stands alone) and reads from the state what the
turn won. Every choice meets the same samples (the same rng draws), so the comparison is between
choices, not between luckier and unluckier caves. It picks the best mean; the memory policy's own
choice keeps the decision unless another one is better by MARGIN and two standard errors over at
least MIN_SAMPLES samples.

Decisions are deterministic given the bot seed: SAMPLES caps the work. TIME_BUDGET (well below the
ladder's 1 s per decision) only stops a search on a very slow machine, then the best so far plays.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from bots.forward import ForwardBot
from bots.sdk import run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

DRAGON, SPIDER = "dragon", "spider"
DRAGON_WEIGHT = 1.25  # the most Dragons at the end takes the 3 Spiders: a Dragon is worth a bit more
LOOKAHEAD = 3  # the memory policy's unseen flips looked ahead, at the decision itself
ROLLOUT_LOOKAHEAD = 3  # as at the decision: a weaker continuation undervalued flipping on
SAMPLES = 24  # determinizations per choice
MIN_SAMPLES = 12  # fewer (a search cut short by the clock): too noisy to overrule the policy
MARGIN = 0.1  # tiles a sample: what another choice must gain over the policy's own to replace it
TIME_BUDGET = 0.5  # seconds per decision, a safety stop only (1 s per decision, 10 s bank)
COLS = 7

Square = tuple[int, int]


# ---- the memory bot's policy (bots/treasure_memory.py) --------------------------------------------

def stop_value(hand: Counter, run: bool, known: Counter, sets: dict[str, int]) -> float:
    """Tiles kept by stopping after flipping every known tile that is safe to flip now."""
    if run:
        return (hand[DRAGON] + known[DRAGON]) * DRAGON_WEIGHT
    return sum((hand[k] + known[k]) // s * s for k, s in sets.items())


def ends_turn(kind: str, run: bool, first: bool) -> bool:
    if kind == SPIDER:
        return True
    if first:
        return False
    return (kind != DRAGON) if run else (kind == DRAGON)


def best_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
    best = stop_value(hand, run, known, sets) if hand else 0.0
    return max(best, flip_value(hand, run, known, pool, sets, depth))


def flip_value(hand: Counter, run: bool, known: Counter, pool: Counter, sets: dict[str, int], depth: int) -> float:
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
           sets: dict[str, int], depth: int) -> Square | str | None:
    """A known square to flip, "unseen" to flip an unseen one, None to stop."""
    kinds = Counter(known.values())
    if not hand:
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
        if not options:
            return min(known)
        pick = max(options, key=lambda k: (options[k], k == "unseen"))
        return "unseen" if pick == "unseen" else min(sq for sq, k in known.items() if k == pick)
    stop = stop_value(hand, run, kinds, sets)
    if unknown and flip_value(hand, run, kinds, pool, sets, depth) > stop:
        return "unseen"
    for sq in sorted(known):
        kind = known[sq]
        if run and kind == DRAGON:
            return sq
        if not run and kind in sets and (hand[kind] + kinds[kind]) // sets[kind] * sets[kind] > hand[kind]:
            return sq
    return None


# ---- the search ------------------------------------------------------------------------------------

class SearchBot(ForwardBot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.known: dict[Square, str] = {}  # square -> kind, for tiles seen and still in the cave

    def on_event(self, event: dict[str, Any]) -> None:
        super().on_event(event)  # the forward model remembers every event too
        data = event["data"]
        if event["type"] == "flip":
            self.known[tuple(data["square"])] = data["kind"]
        elif event["type"] == "keep":
            for square in data["squares"]:
                self.known.pop(tuple(square), None)
        elif event["type"] == "spider_move" and data["to"] is not None:
            self.known.pop(tuple(data["from"]), None)
            self.known[tuple(data["to"])] = SPIDER

    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        started = time.perf_counter()
        sets = observation["set_sizes"]
        down = [tuple(sq) for sq in observation["request"]["squares"]]
        known = {sq: self.known[sq] for sq in down if sq in self.known}
        unknown = [sq for sq in down if sq not in known]
        hand = Counter(f["kind"] for f in observation["flipped"])
        pool = self.unseen_pool(observation, known)
        policy = choose(hand, observation["dragon_run"], known, unknown, pool, sets, LOOKAHEAD)
        choices: list[Square | str | None] = [policy]
        if hand and policy is not None:
            choices.append(None)
        if unknown and policy != "unseen":
            choices.append("unseen")
        first_of: dict[str, Square] = {}
        for sq in sorted(known):
            first_of.setdefault(known[sq], sq)
        by_kind = {sq: kind for kind, sq in first_of.items()}
        run = observation["dragon_run"]
        # a remembered tile that would end the turn is no choice: a Spider, or the wrong kind mid-turn
        choices += [sq for sq, kind in by_kind.items() if sq != policy and kind != SPIDER
                    and (not hand or (kind == DRAGON) == run)]
        if len(choices) > 1:
            values: list[list[float]] = [[] for _ in choices]
            base = self.rng.getrandbits(32)
            for i in range(SAMPLES):
                for c, choice in enumerate(choices):
                    if choice is None:  # stopping collects the remembered safe tiles first
                        values[c].append(stop_value(hand, run, Counter(known.values()), sets))
                    else:
                        values[c].append(self.rollout(observation, choice, known, unknown, random.Random(base + i)))
                if time.perf_counter() - started > TIME_BUDGET:
                    break
            best = max(range(1, len(choices)), key=lambda c: sum(values[c]))
            if self.clearly_better(values[best], values[0]):
                policy = choices[best]
        if policy is None:
            collect = choose(hand, run, known, [], Counter(), sets, 1)  # without unseen squares: collect or stop
            return {"stop": True} if collect is None else {"square": list(collect)}
        if policy == "unseen":
            return {"square": list(self.rng.choice(unknown))}
        return {"square": list(policy)}

    def rollout(self, observation: dict[str, Any], choice: Square | str, known: dict[Square, str],
                unknown: list[Square], rng: random.Random) -> float:
        """What this turn wins (a Dragon weighs DRAGON_WEIGHT) on one sampled cave when this seat
        plays `choice` and then the memory policy."""
        state = self.model.sample(observation, rng)
        sets = observation["set_sizes"]
        seat, turn = self.seat, state.turn
        before = self.worth(state.hoards[seat])
        known, unknown = dict(known), list(unknown)
        pool = self.unseen_pool(observation, known)
        while True:
            if choice is None:
                self.model.apply(state, {"stop": True})
            else:
                square = choice if choice != "unseen" else unknown[rng.randrange(len(unknown))]
                if choice == "unseen":
                    unknown.remove(square)
                    kind = state.grid[square[0] * COLS + square[1]]
                    pool[kind] -= 1  # the flip shows it: no longer unseen in this sample
                else:
                    del known[square]
                self.model.apply(state, {"square": list(square)})
            if state.turn != turn or state.pending() is None or state.pending().kind != "flip":
                break
            hand = Counter(state.grid[i] for i in state.flipped)
            choice = choose(hand, state.dragon_run, known, unknown, +pool, sets, ROLLOUT_LOOKAHEAD)
        return self.worth(state.hoards[seat]) - before

    @staticmethod
    def clearly_better(challenger: list[float], policy: list[float]) -> bool:
        """The challenger beats the policy's choice on the same samples by MARGIN a sample and by
        two standard errors: the best of several noisy estimates is flattered by the noise, and
        overruling the policy on noise loses (measured: the first versions lost to the memory bot)."""
        n = len(challenger)
        if n < MIN_SAMPLES:
            return False
        diffs = [a - b for a, b in zip(challenger, policy, strict=True)]
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5
        return mean > MARGIN and mean > 2 * spread / n ** 0.5

    @staticmethod
    def worth(hoard: Counter) -> float:
        return sum(hoard.values()) + (DRAGON_WEIGHT - 1) * hoard[DRAGON]

    @staticmethod
    def unseen_pool(observation: dict[str, Any], known: dict[Square, str]) -> Counter:
        """The tiles nobody has seen: the cave's, less the hoards, the face-up and the known ones."""
        left = Counter(observation["tile_counts"])
        for hoard in observation["hoards"]:
            left.subtract(hoard)
        left[SPIDER] -= sum(observation["spider_bonus"])
        left.subtract(f["kind"] for f in observation["flipped"])
        left.subtract(known.values())
        return Counter({k: n for k, n in left.items() if n > 0})

    def move_spider(self, observation: dict[str, Any]) -> dict[str, Any]:
        # Where the Spider goes is public, so moving it hides nothing: leave it.
        return {"square": None}


if __name__ == "__main__":
    run(SearchBot)
