# Over 400 lines: a house bot is one file an author copies whole.
"""A search bot for Treasure of the Dragons: plans the rest of its turn exactly, and near the end of
the game plays its choices out to the final ranks on caves sampled with the forward model.

Every flip is public, so every thinking seat remembers the same face-down tiles. What this seat
does not know is the order in which the unseen tiles would come up, and that is all a turn's plan
needs: the kinds face up this turn, the kinds remembered face down and the kinds still unseen.

1. The turn planner (`Planner`, every decision). An expectimax over the rest of this turn: stop
   (after collecting the remembered tiles that complete sets) or flip an unseen square (a chance
   node over the unseen kinds); at the first flip also start a Dragon run on a remembered Dragon,
   or a hunt on a remembered treasure. Memoised on the kinds turned so far, it is exact up to
   MAX_DEPTH unseen flips (deeper turns are rare and cut off by the risk). What a stop is worth:
   - the tiles kept;
   - a Dragon is worth one tile plus what it changes in the Spider bonus (3 tiles to the single
     player with the most Dragons): `bonus_edge` counts this seat's expected bonus minus the others'
     mean, the Dragons still in the cave going to random seats;
   - minus GIFT times what the next seat can then take without risk. Whatever this seat turns and
     does not keep goes back face down known to all, so a bust hands the whole hand (and the Dragon
     that ended it) to the next player, and a stop leaves the unmatched tiles. The careful and
     memory bots count only their own tiles; with the gift counted, this bot stops earlier when
     a bust would feed the next seat.

2. The endgame search (`SearchBot.endgame`, with END_TILES tiles or fewer left in the cave). Tiles
   matter less than places now: the bot tries every sensible choice (the planner's, stop, an
   unseen square, a remembered tile of each kind) on SAMPLES determinizations from the forward
   model (bots/forward.py: full game states agreeing with all this seat saw) and plays each to the
   end of the game with the game's own rules, every seat on the careful bot's policy (copied below
   as `careful_choice`) or, for a seat seen playing at random, at random. A choice is worth minus
   this seat's final rank. All choices meet the same samples, the unseen tiles turned in the same
   order, and the planner's choice stands unless another one is better by MARGIN a sample and Z
   standard errors, so noise does not overrule the plan.

Decisions are deterministic given the bot seed: SAMPLES caps the work. TIME_BUDGET (well below the
ladder's 1 s per decision) only stops an endgame search on a slow machine, keeping the plan.
"""

from __future__ import annotations

import copy
import random
import time
from collections import Counter
from math import factorial

from bots.forward import ForwardBot
from bots.sdk import run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

DRAGON, SPIDER = "dragon", "spider"
SPIDER_BONUS = 3  # the Spiders a single Dragon leader takes at the end
GIFT = 0.33  # what a tile the next seat can take without risk costs this seat, in tiles
NEXT_DRAGON = 1.25  # a Dragon the next seat can take, in tiles (its own bonus chances)
MAX_DEPTH = 7  # unseen flips the planner looks ahead in a turn
END_TILES = 20  # with at most this many tiles left in the cave, play choices out to the end
SAMPLES = 48  # determinizations per endgame decision (24 overruled the plan less well: docs/bots.md)
MIN_SAMPLES = 8  # fewer (a search cut short by the clock): too noisy to overrule the plan
MARGIN = 0.0  # in ranks a sample: what a choice must gain over the plan's
Z = 0.5  # standard errors: how clearly it must gain (the samples are shared, so the noise is small)
TIME_BUDGET = 0.4  # seconds per decision, a safety stop only (1 s per decision, 10 s bank)
RANDOM_STOP = 0.3  # how often a random player stops once it may (bots/treasure/random.py)
COLS = 7

Square = tuple[int, int]


# ---- the Spider bonus -------------------------------------------------------------------------------

_bonus_memo: dict[tuple[int, tuple[int, ...], int], float] = {}


def bonus_edge(mine: int, others: tuple[int, ...], left: int) -> float:
    """This seat's expected Spider bonus minus the other seats' mean, with `mine` and `others`
    Dragons won and the `left` Dragons still in the cave going to seats uniformly at random (a
    multinomial; a tie for the most takes nothing)."""
    key = (mine, others, left)
    if key not in _bonus_memo:
        seats = 1 + len(others)
        counts = (mine, *others)
        total = 0.0

        def share(seat: int, rest: int, final: list[int], weight: float) -> None:
            nonlocal total
            if seat == seats - 1:
                final = [*final, counts[seat] + rest]
                weight /= factorial(rest)
                top = max(final)
                if final.count(top) == 1:
                    total += weight * (SPIDER_BONUS if final[0] == top else -SPIDER_BONUS / (seats - 1))
                return
            for n in range(rest + 1):
                share(seat + 1, rest - n, [*final, counts[seat] + n], weight / factorial(n))

        share(0, left, [], factorial(left) / seats ** left)
        _bonus_memo[key] = total
    return _bonus_memo[key]


# ---- the turn planner ----------------------------------------------------------------------------------

class Planner:
    """The rest of one turn, solved exactly on kinds.

    `sets` the set sizes of the treasures, `hand` the kinds face up this turn, `run` a Dragon run,
    `known` the kinds of the remembered face-down tiles, `pool` the kinds of the unseen ones,
    `dragons` (this seat's Dragons won, the other seats' sorted, Dragons not yet won) or None to
    count a Dragon as NEXT_DRAGON tiles, `gift` the cost of a tile left to the next seat."""

    def __init__(self, sets: dict[str, int], hand: Counter, run: bool, known: Counter, pool: Counter,
                 dragons: tuple[int, tuple[int, ...], int] | None = None, gift: float = GIFT,
                 depth: int = MAX_DEPTH) -> None:
        self.kinds = list(sets)
        self.sizes = [sets[k] for k in self.kinds]
        self.hand = [hand[k] for k in self.kinds]
        self.run = run
        self.hand_dragons = hand[DRAGON]
        self.known = [known[k] for k in self.kinds]
        self.known_dragons = known[DRAGON]
        self.pool = [pool[k] for k in self.kinds]
        self.pool_dragons = pool[DRAGON]
        self.pool_spiders = pool[SPIDER]
        self.unseen = sum(pool.values())
        self.dragons = dragons
        self.gift_weight = gift
        self.depth = depth
        self.memo: dict[tuple[int, ...], tuple[float, float]] = {}  # drawn -> (stop, flip)

    def gift(self, treasures: list[int], dragons: int) -> float:
        """What the next seat can take without risk from the tiles known after this turn: the
        complete sets, or a run on the known Dragons."""
        if not self.gift_weight:
            return 0.0
        sure = sum(n // s * s for n, s in zip(treasures, self.sizes, strict=True))
        return self.gift_weight * max(sure, dragons * NEXT_DRAGON)

    def dragon_worth(self, taken: int) -> float:
        if self.dragons is None:
            return taken * NEXT_DRAGON
        mine, others, left = self.dragons
        return taken + bonus_edge(mine + taken, others, left - taken) - bonus_edge(mine, others, left)

    # -- a treasure hunt: `drawn` counts the unseen treasures turned so far, by kind

    def hunt_stop(self, drawn: tuple[int, ...]) -> float:
        kept, left = 0, []
        for h, d, k, s in zip(self.hand, drawn, self.known, self.sizes, strict=True):
            n = h + d + k
            kept += n // s * s
            left.append(n % s)
        return kept - self.gift(left, self.known_dragons)

    def hunt_bust(self, drawn: tuple[int, ...], dragon: bool) -> float:
        back = [h + d + k for h, d, k in zip(self.hand, drawn, self.known, strict=True)]
        return -self.gift(back, self.known_dragons + dragon)

    def hunt(self, drawn: tuple[int, ...]) -> tuple[float, float]:
        """(stop, flip an unseen square and play on well) after `drawn`; flip is -inf when no
        unseen square is left or the plan is as deep as it goes (then the plan stops)."""
        if drawn in self.memo:
            return self.memo[drawn]
        stop = self.hunt_stop(drawn)
        turned = sum(drawn)
        unseen = self.unseen - turned
        flip = float("-inf")
        if unseen > 0 and turned < self.depth:
            total = self.pool_dragons * self.hunt_bust(drawn, True) + self.pool_spiders * self.hunt_bust(drawn, False)
            for i, n in enumerate(self.pool):
                n -= drawn[i]
                if n > 0:
                    total += n * max(self.hunt((*drawn[:i], drawn[i] + 1, *drawn[i + 1:])))
            flip = total / unseen
        self.memo[drawn] = (stop, flip)
        return stop, flip

    # -- a Dragon run: `extra` counts the unseen Dragons turned so far

    def run_stop(self, extra: int) -> float:
        return self.dragon_worth(self.hand_dragons + self.known_dragons + extra) - self.gift(self.known, 0)

    def run_flip(self, extra: int) -> float:
        unseen, dragons = self.unseen - extra, self.pool_dragons - extra
        if unseen <= 0 or dragons <= 0:
            return float("-inf")
        back = self.hand_dragons + self.known_dragons + extra  # a bust shows every Dragon of the run
        total = dragons * max(self.run_stop(extra + 1), self.run_flip(extra + 1))
        total -= self.pool_spiders * self.gift(self.known, back)
        for i, n in enumerate(self.pool):  # the treasure that ends the run is known too
            if n:
                total -= n * self.gift([k + (j == i) for j, k in enumerate(self.known)], back)
        return total / unseen

    # -- the first flip

    def gamble(self) -> float:
        """Flip an unseen square first: a treasure starts a hunt, a Dragon a run, a Spider ends it."""
        zero = (0,) * len(self.kinds)
        total = self.pool_spiders * -self.gift(self.known, self.known_dragons)
        for i, n in enumerate(self.pool):
            if n:
                total += n * max(self.hunt((*zero[:i], 1, *zero[i + 1:])))
        if self.pool_dragons:
            self.hand_dragons += 1  # as if that Dragon were face up: a run of one
            self.pool_dragons -= 1
            self.unseen -= 1
            total += (self.pool_dragons + 1) * max(self.run_stop(0), self.run_flip(0))
            self.hand_dragons -= 1
            self.pool_dragons += 1
            self.unseen += 1
        return total / self.unseen

    def options(self) -> dict[str, float]:
        """What each choice is worth, played well after: "stop", "unseen" (flip an unseen square),
        at the first flip also DRAGON (a run on a remembered Dragon) and "hunt" (a hunt that starts
        on a remembered treasure, and may stop at once)."""
        zero = (0,) * len(self.kinds)
        options: dict[str, float] = {}
        if not any(self.hand) and not self.hand_dragons:
            if self.unseen:
                options["unseen"] = self.gamble()
            if self.known_dragons:
                options[DRAGON] = max(self.run_stop(0), self.run_flip(0))
            if any(self.known):
                options["hunt"] = max(self.hunt(zero))
        elif self.run:
            options["stop"] = self.run_stop(0)
            options["unseen"] = self.run_flip(0)
        else:
            options["stop"], options["unseen"] = self.hunt(zero)
        return options

    def value(self) -> float:
        """The turn's worth from here, played well (-inf when only remembered Spiders are left)."""
        return max(self.options().values(), default=float("-inf"))

    def choose(self) -> str:
        """"stop", "unseen" (flip an unseen square) or a kind (flip a remembered tile of it)."""
        options = self.options()
        if not options:
            return SPIDER  # only remembered Spiders are face down: a forced flip
        pick = max(options, key=lambda k: options[k])  # a tie keeps the first: stop before a gamble
        if pick == "hunt":  # start on a remembered treasure, one that completes a set if any
            complete = [k for k, n, s in zip(self.kinds, self.known, self.sizes, strict=True) if n >= s]
            return (complete or [k for k, n in zip(self.kinds, self.known, strict=True) if n])[0]
        if pick == "stop":
            if self.run and self.known_dragons:
                return DRAGON  # collect the remembered Dragons first
            for kind, h, n, s in zip(self.kinds, self.hand, self.known, self.sizes, strict=True):
                if not self.run and h < (h + n) // s * s:  # and the remembered tiles that complete a set
                    return kind
        return pick


# ---- the careful bot's policy (bots/treasure/careful.py), for the other seats in the endgame ------------

def careful_choice(sets: dict[str, int], hand: Counter, run: bool, known: Counter, unseen: int,
                   pool: Counter) -> str:
    """The careful bot's decision: "unseen" (flip an unseen square), a kind (flip a remembered tile
    of that kind), "spider" (a forced first flip with only Spiders remembered) or "stop".

    `hand` the kinds face up this turn, `known` the kinds of the remembered face-down tiles,
    `unseen` how many face-down squares nobody has seen and `pool` the kinds they hold."""
    dragon_weight = 1.25
    odds = Counter({k: n / unseen for k, n in pool.items()}) if unseen else Counter()

    def sure(flipped: Counter) -> float:
        return sum((flipped[k] + known[k]) // s * s for k, s in sets.items())

    if not +hand:
        run_value = known[DRAGON] * dragon_weight
        hunt = sure(Counter())
        gamble = odds[DRAGON] * (1 + known[DRAGON]) * dragon_weight + sum(
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
        gain = odds[DRAGON] * dragon_weight
        risk = (1 - odds[DRAGON]) * have * dragon_weight
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


# ---- playing a sampled cave to the end -----------------------------------------------------------------

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


def next_unseen(state: Any, known: set[int], order: list[int]) -> int:
    """The first square of `order` still face down and never seen. Every branch of a sample draws
    its unseen tiles in the same order: the k-th unseen tile turned is the same tile whatever was
    chosen before (common random numbers, so branches differ by their choices, not their luck)."""
    up = state.flipped
    return next(i for i in order if i not in known and state.grid[i] is not None and i not in up)


def careful_move(state: Any, known: set[int], sets: dict[str, int], order: list[int]) -> int | None:
    """The careful policy's decision on a full state: the square to flip, or None to stop."""
    kinds, where, unseen, pool = view(state, known)
    hand = Counter(state.grid[i] for i in state.flipped)
    choice = careful_choice(sets, hand, state.dragon_run, kinds, len(unseen), pool)
    if choice == "stop":
        return None
    if choice == "unseen":
        return next_unseen(state, known, order)
    return where[choice]


def random_move(state: Any, rng: random.Random) -> int | None:
    """bots/treasure/random.py on a full state: once it may, it stops RANDOM_STOP of the time, else
    it turns a face-down square at random, remembered or not."""
    if state.flipped and rng.random() < RANDOM_STOP:
        return None
    return rng.choice(state.face_down())


def clone(state: Any) -> Any:
    """A copy to play on: the parts the rules change, without the event log (playouts read none)."""
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


# ---- the bot -------------------------------------------------------------------------------------------

class SearchBot(ForwardBot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.known: dict[Square, str] = {}  # square -> kind, for tiles seen and still in the cave
        self.randoms: set[int] = set()  # seats seen playing at random
        self.turn_kinds: list[str] = []  # the kinds turned this turn, by whoever plays it
        self.turn_kept = False

    def on_event(self, event: dict[str, Any]) -> None:
        super().on_event(event)  # the forward model remembers every event too
        data = event["data"]
        if event["type"] == "turn_start":
            self.turn_kinds, self.turn_kept = [], False
        elif event["type"] == "flip":
            square = tuple(data["square"])
            if square in self.known and data["seat"] != self.seat and self.ends_turn(self.known[square]):
                self.randoms.add(data["seat"])  # it turned a remembered tile that ends its turn
            self.turn_kinds.append(data["kind"])
            self.known[square] = data["kind"]
        elif event["type"] == "keep":
            self.turn_kept = True
            for square in data["squares"]:
                self.known.pop(tuple(square), None)
        elif event["type"] == "turn_end":
            if data["reason"] == "stop" and not self.turn_kept and data["seat"] != self.seat:
                self.randoms.add(data["seat"])  # it stopped keeping nothing
        elif event["type"] == "spider_move" and data["to"] is not None:
            self.known.pop(tuple(data["from"]), None)
            self.known[tuple(data["to"])] = SPIDER

    def ends_turn(self, kind: str) -> bool:
        """Whether turning `kind` now ends the turn of whoever plays it."""
        if kind == SPIDER:
            return True
        if not self.turn_kinds:
            return False
        return (kind != DRAGON) if self.turn_kinds[0] == DRAGON else (kind == DRAGON)

    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        sets = observation["set_sizes"]
        down = [tuple(sq) for sq in observation["request"]["squares"]]
        known = {sq: self.known[sq] for sq in down if sq in self.known}
        unknown = [sq for sq in down if sq not in known]
        hand = Counter(f["kind"] for f in observation["flipped"])
        kinds = Counter(known.values())
        pool = self.unseen_pool(observation, known)
        won = [hoard.get(DRAGON, 0) for hoard in observation["hoards"]]
        others = tuple(sorted(n for s, n in enumerate(won) if s != self.seat))
        dragons = (won[self.seat], others, observation["tile_counts"][DRAGON] - sum(won))
        plan = Planner(sets, hand, observation["dragon_run"], kinds, pool, dragons).choose()
        left = sum(cell != "empty" for row in observation["grid"] for cell in row)
        if left <= END_TILES:
            plan = self.endgame(observation, hand, kinds, plan, bool(unknown))
        if plan == "stop":
            return {"stop": True}
        if plan == "unseen":
            return {"square": list(self.rng.choice(unknown))}
        return {"square": list(min(sq for sq, k in known.items() if k == plan))}

    def endgame(self, observation: dict[str, Any], hand: Counter, kinds: Counter, plan: str,
                unseen: bool) -> str:
        """The choice with the best final rank over sampled caves played to the end; the plan's
        unless another is clearly better."""
        started = time.perf_counter()
        first = not +hand
        choices = [plan]
        if not first:
            choices.append("stop")
        if unseen:
            choices.append("unseen")
        run = observation["dragon_run"]
        for kind in kinds:
            if kind != SPIDER and not (not first and ((kind != DRAGON) if run else (kind == DRAGON))):
                choices.append(kind)
        choices = list(dict.fromkeys(choices))  # the plan first, once
        if len(choices) == 1:
            return plan
        squares = {sq[0] * COLS + sq[1] for sq in self.known}
        sets = observation["set_sizes"]
        values: list[list[float]] = [[] for _ in choices]
        base = self.rng.getrandbits(32)
        for i in range(SAMPLES):
            root = self.model.sample(observation, random.Random(base + i))
            for c, choice in enumerate(choices):
                values[c].append(self.playout(root, choice, squares, sets, random.Random(base + i + 1)))
            if time.perf_counter() - started > TIME_BUDGET:
                break
        best = max(range(len(choices)), key=lambda c: sum(values[c]))
        if best and self.clearly_better(values[best], values[0]):
            return choices[best]
        return plan

    def playout(self, root: Any, choice: str, known: set[int], sets: dict[str, int], rng: random.Random) -> float:
        """Minus this seat's final rank on one sampled cave when it plays `choice` now and then every
        seat plays the careful policy (a seat seen playing at random: at random)."""
        state = clone(root)
        known = set(known)
        order = [i for i in range(len(state.grid)) if state.grid[i] is not None]
        rng.shuffle(order)
        if choice == "stop":
            square = None
        elif choice == "unseen":
            square = next_unseen(state, known, order)
        else:
            square = min(i for i in known if state.grid[i] == choice and i not in state.flipped)
        while True:
            if square is not None:
                known.add(square)
            play(state, square)
            pending = state.pending()
            if pending is None:
                return -float(state.ranks()[self.seat])
            if pending.seat in self.randoms:
                square = random_move(state, rng)
            else:
                square = careful_move(state, known, sets, order)

    @staticmethod
    def clearly_better(challenger: list[float], plan: list[float]) -> bool:
        """The challenger beats the plan on the same samples by MARGIN a sample and Z standard errors:
        the best of several noisy estimates is flattered by the noise."""
        n = len(challenger)
        if n < MIN_SAMPLES:
            return False
        diffs = [a - b for a, b in zip(challenger, plan, strict=True)]
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
