"""A search bot for Treasure of the Dragons: tries each choice on sampled caves, to the end of the round.

At each flip the bot lists its choices (stop, flip an unseen square, flip a remembered tile of each
kind that does not end the turn, and at the first flip a "pass": turn a remembered tile and stop)
and plays each of them on SAMPLES determinizations: full game states from the game's own rules
(bots/forward.py) that agree with everything this seat saw, the unseen tiles shuffled at random.
After the choice every seat, this one included, plays the careful bot's policy
(bots/treasure_careful.py, copied below as `careful_choice` so this file stands alone) for the
rest of this turn and the other seats' next turns. A choice is worth what this seat gained over
that stretch MINUS what the other seats gained on average (a Dragon counts DRAGON_WEIGHT while the
game goes on, for the Spider bonus). With END_TILES tiles or fewer left in the cave the rollout
goes on to the end of the game and a choice is worth minus this seat's final rank.

Why the other seats' turns count: every flip is public and every bot remembers the cave, so a
tile flipped and not kept (a lone Sword left behind at a stop, the treasures lost to a Dragon) is
a free, known tile for the next seats. The previous version counted only what this turn won.

Every choice meets the same samples: the same cave and the same order in which unseen squares are
turned (the k-th unseen tile turned in a branch is the same tile whatever was chosen before), so
the comparison is between choices, not between luckier and unluckier caves. The careful policy's
own choice keeps the decision unless another one is better by MARGIN a sample and by Z standard
errors; a search cut short by the clock (fewer than MIN_SAMPLES samples) keeps the careful choice,
so the bot is never worse-informed than the careful bot.

Decisions are deterministic given the bot seed: SAMPLES caps the work. TIME_BUDGET (well below the
ladder's 1 s per decision) only stops a search on a slow machine.
"""

from __future__ import annotations

import copy
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
SAMPLES = 32  # determinizations per choice
MIN_SAMPLES = 12  # fewer (a search cut short by the clock): too noisy to overrule the careful choice
MARGIN = 0.05  # a sample (tiles; ranks near the end): what a choice must gain over the careful one
Z = 2.0  # standard errors: how clearly it must gain
HORIZON = None  # turns rolled out after this one; None: one per other seat (the rest of the round)
END_TILES = 25  # with at most this many tiles left in the cave, roll out to the end and count ranks
PASS = "pass:"  # a choice "pass:<kind>": turn a remembered tile of that kind, then stop
TIME_BUDGET = 0.3  # seconds per decision, a safety stop only (1 s per decision, 10 s bank)
COLS = 7

Square = tuple[int, int]


# ---- the careful bot's policy (bots/treasure_careful.py), on a cave everyone has seen -------------

def careful_choice(sets: dict[str, int], hand: Counter, run: bool, known: Counter, unseen: int,
                   pool: Counter) -> str:
    """The careful bot's decision: "unseen" (flip an unseen square), a kind (flip a remembered tile
    of that kind), "spider" (a forced first flip with only Spiders remembered) or "stop".

    `hand` the kinds face up this turn, `known` the kinds of the remembered face-down tiles,
    `unseen` how many face-down squares nobody has seen and `pool` the kinds they hold."""
    odds = Counter({k: n / unseen for k, n in pool.items()}) if unseen else Counter()

    def sure(flipped: Counter) -> float:
        return sum((flipped[k] + known[k]) // s * s for k, s in sets.items())

    if not +hand:
        run_value = known[DRAGON] * DRAGON_WEIGHT
        hunt = sure(Counter())
        gamble = odds[DRAGON] * (1 + known[DRAGON]) * DRAGON_WEIGHT + sum(
            odds[k] * sure(Counter({k: 1})) for k in sets)
        if unseen and (gamble > max(run_value, hunt) or max(run_value, hunt) == 0):
            return "unseen"
        if run_value >= hunt and known[DRAGON]:
            return DRAGON
        for kind in sets:
            if known[kind] >= sets[kind]:
                return kind
        for kind in sets:  # least harm: what cannot end in a Spider
            if known[kind]:
                return kind
        if known[DRAGON]:
            return DRAGON
        return "unseen" if unseen else SPIDER
    if run:
        have = hand[DRAGON] + known[DRAGON]
        gain = odds[DRAGON] * DRAGON_WEIGHT
        risk = (1 - odds[DRAGON]) * have * DRAGON_WEIGHT
        if unseen and gain > risk:
            return "unseen"
        return DRAGON if known[DRAGON] else "stop"
    now = sure(hand)
    gain = 0.0
    for kind in sets:
        if odds[kind]:
            hand[kind] += 1
            gain += odds[kind] * (sure(hand) - now)
            hand[kind] -= 1
    risk = (odds[DRAGON] + odds[SPIDER]) * now
    if unseen and (gain > risk or now == 0):
        return "unseen"
    for kind, size in sets.items():  # collect the known tiles that finish a set
        if hand[kind] < (hand[kind] + known[kind]) // size * size:
            return kind
    return "stop"


def ends_turn(kind: str, run: bool, first: bool) -> bool:
    """Whether flipping a tile of `kind` ends the turn at once (and loses the hand)."""
    if kind == SPIDER:
        return True
    if first:
        return False
    return (kind != DRAGON) if run else (kind == DRAGON)


# ---- a sampled cave, seen as every seat sees it -----------------------------------------------------

def view(state: Any, known: set[int]) -> tuple[Counter, dict[str, int], list[int], Counter]:
    """(remembered kinds, a remembered square per kind, unseen squares, their kinds) on a full state.
    `known` holds every square whose tile was seen (it may hold won squares: they are skipped)."""
    grid, up = state.grid, set(state.flipped)
    kinds: Counter = Counter()
    where: dict[str, int] = {}
    unseen: list[int] = []
    pool: Counter = Counter()
    for i, tile in enumerate(grid):
        if tile is None or i in up:
            continue
        if i in known:
            kinds[tile] += 1
            where.setdefault(tile, i)
        else:
            unseen.append(i)
            pool[tile] += 1
    return kinds, where, unseen, pool


def careful_move(state: Any, known: set[int], sets: dict[str, int], order: list[int]) -> int | None:
    """The careful policy's decision on a full state: the square to flip, or None to stop. An unseen
    square is the first of `order` (a random order of the squares) that nobody has seen."""
    kinds, where, unseen, pool = view(state, known)
    hand = Counter(state.grid[i] for i in state.flipped)
    choice = careful_choice(sets, hand, state.dragon_run, kinds, len(unseen), pool)
    if choice == "stop":
        return None
    if choice == "unseen":
        return next_unseen(state, known, order)
    return where[choice]


def next_unseen(state: Any, known: set[int], order: list[int]) -> int:
    """The first square of `order` still face down and never seen. Every branch of a sample draws
    its unseen tiles in the same order: the k-th unseen tile turned is the same tile whatever was
    chosen before (common random numbers, so branches differ by their choices, not their luck)."""
    up = state.flipped
    return next(i for i in order if i not in known and state.grid[i] is not None and i not in up)


def clone(state: Any) -> Any:
    """A copy to play on: the parts the rules change, without the event log (rollouts read none)."""
    twin = copy.copy(state)
    twin.grid = list(state.grid)
    twin.flipped = list(state.flipped)
    twin.hoards = [Counter(h) for h in state.hoards]
    twin.spider_bonus = list(state.spider_bonus)
    twin.events = []
    return twin


def play(state: Any, square: int | None) -> None:
    """One flip (or a stop, None) for the seat to play; a Spider stays where it is (it is public)."""
    seat = state.pending().seat
    state.apply(seat, {"stop": True} if square is None else {"square": [square // COLS, square % COLS]})
    pending = state.pending()
    if pending is not None and pending.kind == "move_spider":
        state.apply(pending.seat, {"square": None})


def worth(state: Any, seat: int) -> float:
    """Tiles won; while the game goes on a Dragon counts DRAGON_WEIGHT (the Spider bonus)."""
    hoard = state.hoards[seat]
    bonus = 0.0 if state.pending() is None else (DRAGON_WEIGHT - 1) * hoard[DRAGON]
    return sum(hoard.values()) + state.spider_bonus[seat] + bonus


def edge(state: Any, seat: int) -> float:
    """This seat's worth minus the other seats' mean worth."""
    others = [worth(state, s) for s in range(state.num_players) if s != seat]
    return worth(state, seat) - sum(others) / len(others)


# ---- the search ------------------------------------------------------------------------------------

class SearchBot(ForwardBot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.known: dict[Square, str] = {}  # square -> kind, for tiles seen and still in the cave
        self.stop_next = False  # this turn is a pass: stop after the remembered tile
        self.stop_turn = 0

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
        run = observation["dragon_run"]
        first_of: dict[str, Square] = {}
        for sq in sorted(known):
            first_of.setdefault(known[sq], sq)
        pool = self.unseen_pool(observation, known)
        policy = careful_choice(sets, hand.copy(), run, Counter(known.values()), len(unknown), pool)
        # every legal choice that does not end the turn at once, the careful one first
        choices = [policy] + [c for c in ["stop", "unseen", *first_of] if c != policy]
        choices = [c for c in choices if (c != "stop" or +hand) and (c != "unseen" or unknown)
                   and (c in ("stop", "unseen") or c == policy or not ends_turn(c, run, not +hand))]
        if not +hand:  # a pass: turn a remembered tile and stop, showing the others nothing new
            choices += [PASS + kind for kind in first_of if kind != SPIDER]
        elif self.stop_next and observation["turn"] == self.stop_turn:
            return {"stop": True}  # the second half of a pass
        if len(choices) > 1:
            values: list[list[float]] = [[] for _ in choices]
            base = self.rng.getrandbits(32)
            squares = {i for sq in known for i in [sq[0] * COLS + sq[1]]}
            for i in range(SAMPLES):
                root = self.model.sample(observation, random.Random(base + i))
                for c, choice in enumerate(choices):
                    values[c].append(self.rollout(root, choice, squares, sets, random.Random(base + i + 1)))
                if time.perf_counter() - started > TIME_BUDGET:
                    break
            best = max(range(1, len(choices)), key=lambda c: sum(values[c]))
            if self.clearly_better(values[best], values[0]):
                policy = choices[best]
        if policy == "stop":
            return {"stop": True}
        self.stop_next = policy.startswith(PASS)
        self.stop_turn = observation["turn"]
        policy = policy.removeprefix(PASS)
        if policy == "unseen":
            return {"square": list(self.rng.choice(unknown))}
        return {"square": list(first_of[policy])}

    def rollout(self, root: Any, choice: str, known: set[int], sets: dict[str, int], rng: random.Random) -> float:
        """This seat's edge over the others' mean, gained from here to the end of the horizon, on one
        sampled cave, when this seat plays `choice` and then everyone plays the careful policy."""
        state = clone(root)
        known = set(known)
        seat = self.seat
        before = edge(state, seat)
        to_end = sum(tile is not None for tile in state.grid) <= END_TILES
        horizon = state.num_players - 1 if HORIZON is None else HORIZON
        last_turn = state.turn + (400 if to_end else horizon)
        order = list(range(len(state.grid)))
        rng.shuffle(order)
        if choice == "stop":
            square = None
        elif choice == "unseen":
            square = next_unseen(state, known, order)
        else:
            kind = choice.removeprefix(PASS)
            square = min(i for i in known if state.grid[i] == kind and i not in state.flipped)
        if choice.startswith(PASS):
            play(state, square)
            square = None  # and stop
        while True:
            if square is not None:
                known.add(square)
            play(state, square)
            if state.pending() is None or state.turn > last_turn:
                break
            square = careful_move(state, known, sets, order)
        if to_end:
            return -float(state.ranks()[seat])
        return edge(state, seat) - before

    @staticmethod
    def clearly_better(challenger: list[float], policy: list[float]) -> bool:
        """The challenger beats the careful choice on the same samples by MARGIN a sample and by
        two standard errors: the best of several noisy estimates is flattered by the noise."""
        n = len(challenger)
        if n < MIN_SAMPLES:
            return False
        diffs = [a - b for a, b in zip(challenger, policy, strict=True)]
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5
        return mean > MARGIN and mean > Z * spread / n ** 0.5

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
