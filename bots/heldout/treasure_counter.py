"""Held-out outsider for Treasure of the Dragons: a tile counter that plans the rest of its turn.

Written from the rules and the protocol only (bots/heldout/README.md). Every flip is public, so the
bot remembers where each face-down tile lies. At each decision it solves the rest of its turn by
expectimax over tile kinds: flip a remembered tile (certain), flip an unseen square (a chance node
over the kinds still unseen, counted from the tile totals), or stop. A stop is worth the tiles kept,
a Dragon a little more than one tile (the Spider bonus race), less a share of what the turn leaves
face up for the next seat to take without risk. A Spider it turns is moved to an empty square.
"""

from __future__ import annotations

import math
import time

from bots.sdk import Bot, run

KINDS = ("chest", "sword", "scroll", "potion", "egg", "diamond", "dragon", "spider")
K = {k: i for i, k in enumerate(KINDS)}
DRAGON, SPIDER = K["dragon"], K["spider"]
TREASURES = range(6)
GIFT = 0.3  # what a tile the next seat can take for sure costs me, in tiles
MAX_UNSEEN = 4  # unseen flips looked ahead at most (5 and 6 chose the same in trials, at twice the time)
BUDGET_S = 0.35
BONUS_WEIGHT = 1.0  # the Spider bonus, as the rules give it


class TreasureCounter(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.known = {}  # (row, col) -> kind of a face-down tile whose face has been seen

    def on_event(self, event):
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "flip":
            self.known[tuple(data["square"])] = data["kind"]
        elif kind == "keep":
            for sq in data["squares"]:
                self.known.pop(tuple(sq), None)
        elif kind == "spider_move" and data.get("to") is not None:
            self.known.pop(tuple(data["from"]), None)
            self.known[tuple(data["to"])] = "spider"

    # ---- reading the observation ---------------------------------------------------------------

    def _read(self, obs):
        grid = obs["grid"]
        for sq in list(self.known):
            if grid[sq[0]][sq[1]] == "empty":
                del self.known[sq]
        flipped = [(tuple(f["square"]), f["kind"]) for f in obs["flipped"]]
        up = {sq for sq, _ in flipped}
        down = [(r, c) for r in range(7) for c in range(7) if grid[r][c] not in ("empty",) and (r, c) not in up]
        known_down = {sq: self.known[sq] for sq in down if sq in self.known}
        unknown = [sq for sq in down if sq not in self.known]
        pool = [obs["tile_counts"][k] for k in KINDS]
        for h in obs["hoards"]:
            for k in KINDS[:7]:
                pool[K[k]] -= h.get(k, 0)
        for k in known_down.values():
            pool[K[k]] -= 1
        for _, k in flipped:
            pool[K[k]] -= 1
        pool = [max(0, p) for p in pool]
        # the pool must match the unknown squares; trust the squares if memory slipped
        if sum(pool) != len(unknown) and sum(pool) > 0:
            scale = len(unknown) / sum(pool)
            pool = [p * scale for p in pool]
        return flipped, known_down, unknown, pool

    def _dragon_value(self, obs):
        """A Dragon tile: one tile plus what it adds to my chance at the Spider bonus (3 tiles to
        the one seat with the most Dragons), and a little for the tie-break on tiles."""
        dragons = [h.get("dragon", 0) for h in obs["hoards"]]
        mine = dragons[self.seat]
        best_other = max(d for s, d in enumerate(dragons) if s != self.seat)
        left = max(0, obs["tile_counts"]["dragon"] - sum(dragons))
        spread = 0.5 + 0.45 * math.sqrt(left)

        def chance(d):
            return 0.5 * (1.0 + math.erf((d - best_other - 0.5) / (spread * math.sqrt(2.0))))

        return 1.0 + BONUS_WEIGHT * 3.0 * (chance(mine + 1) - chance(mine)) + 0.1

    # ---- the plan --------------------------------------------------------------------------------

    def _plan(self, obs):
        flipped, known_down, unknown, pool = self._read(obs)
        sizes = obs["set_sizes"]
        size = [sizes.get(k, 0) for k in KINDS]
        dval = self._dragon_value(obs)
        known_counts = [0] * 8
        for k in known_down.values():
            known_counts[K[k]] += 1
        base_gift = _harvest(known_counts, size)
        run_ = bool(obs["dragon_run"])
        counts = [0] * 8
        for _sq, k in flipped:
            counts[K[k]] += 1
        deadline = time.monotonic() + BUDGET_S
        memo = {}

        def stop_value(c, run, kc):
            if run:
                return c[DRAGON] * dval
            kept = [c[i] - c[i] % size[i] if c[i] >= size[i] else 0 for i in TREASURES]
            left = [kc[i] + c[i] - (kept[i] if i < 6 else 0) for i in range(8)]
            gift = max(0.0, _harvest(left, size) - base_gift)
            return sum(kept) - GIFT * gift

        def bust_value(c, kc):
            left = [kc[i] + c[i] for i in range(8)]
            return -GIFT * max(0.0, _harvest(left, size) - base_gift)

        def value(c, kc, p, run, depth, last=0):
            # remembered tiles are riskless and their order among themselves changes nothing, so
            # between two unseen flips the plan takes them in kind order; but an unseen flip first
            # can pay: a Dragon as the first flip starts a run instead of ending the turn
            key = (tuple(c), tuple(kc), run, depth, last)
            if key in memo:
                return memo[key]
            nflip = sum(c)
            best = stop_value(c, run, kc) if nflip else -1e9
            choice = ("stop",)
            # a remembered tile: certain
            for i in range(last, 8):
                if kc[i] <= 0 or i == SPIDER:
                    continue
                if nflip and (run != (i == DRAGON)):
                    continue  # it would end the turn: never on purpose
                c[i] += 1
                kc[i] -= 1
                v = value(c, kc, p, run or (nflip == 0 and i == DRAGON), depth, i)[0]
                c[i] -= 1
                kc[i] += 1
                if v > best + 1e-9:
                    best, choice = v, ("known", KINDS[i])
            # an unseen square: chance over the pool
            total = sum(p)
            if total > 0.5 and depth < MAX_UNSEEN and time.monotonic() < deadline:
                ev = 0.0
                for i in range(8):
                    if p[i] <= 0:
                        continue
                    pr = p[i] / total
                    if i == SPIDER or (nflip and run and i != DRAGON) or (nflip and not run and i == DRAGON):
                        c[i] += 1
                        ev += pr * bust_value(c, kc)
                        c[i] -= 1
                        continue
                    c[i] += 1
                    p[i] -= 1
                    ev += pr * value(c, kc, p, run or (nflip == 0 and i == DRAGON), depth + 1)[0]
                    c[i] += -1
                    p[i] += 1
                if ev > best + 1e-9:
                    best, choice = ev, ("unseen",)
            memo[key] = (best, choice)
            return best, choice

        _, choice = value(counts, known_counts, [float(x) for x in pool], run_, 0)
        return choice, known_down, unknown

    # ---- decisions -------------------------------------------------------------------------------

    def flip(self, obs):
        req = obs["request"]
        legal = [tuple(s) for s in req["squares"]]
        choice, known_down, unknown = self._plan(obs)
        if choice[0] == "stop" and req["can_stop"]:
            return {"stop": True}
        if choice[0] == "known":
            for sq in legal:
                if known_down.get(sq) == choice[1]:
                    return {"square": list(sq)}
        pick = [sq for sq in legal if sq in unknown]
        if pick:
            return {"square": list(self.rng.choice(pick))}
        if req["can_stop"]:
            return {"stop": True}
        safe = [sq for sq in legal if known_down.get(sq) not in ("spider", "dragon")]
        return {"square": list(self.rng.choice(safe or legal))}

    def move_spider(self, obs):
        squares = obs["request"]["squares"]
        # moved, it sits where a careless memory thinks nothing is
        return {"square": self.rng.choice(squares) if squares else None}


def _harvest(counts, size):
    """Tiles a seat can take for sure from remembered face-down tiles: the complete sets, or all
    the remembered Dragons (a run of Dragons only), whichever is more."""
    sets = sum(counts[i] - counts[i] % size[i] for i in TREASURES if size[i])
    return max(sets, counts[DRAGON])


if __name__ == "__main__":
    run(TreasureCounter)
