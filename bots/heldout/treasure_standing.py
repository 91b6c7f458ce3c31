"""Held-out outsider for Treasure of the Dragons: plays for its standing, not for tiles.

Written from the rules and the protocol only (bots/heldout/README.md). It remembers every face it
has seen, like any careful player, but its risk model is the table's: a turn's outcome is worth the
number of opponents it expects to finish above, each judged by a normal approximation of the final
margin whose spread shrinks as the cave empties. So it pushes when behind and late (only a big haul
changes a rank), banks small sure gains when ahead, and counts a bust or a leftover tile as a gift
to the seat that plays next. Dragons count for the Spider bonus and the tie-break. The turn is
searched by expectimax over tile kinds, three unseen flips deep; a Spider it turns is moved.
"""

from __future__ import annotations

import math
import time

from bots.sdk import Bot, run

ORDER = ("chest", "sword", "scroll", "potion", "egg", "diamond", "dragon", "spider")
DR, SP = 6, 7
DEPTH = 3
SPREAD = 0.9  # final-margin spread per square of tiles still to win, in tiles
NEXT_TAKES = 0.8  # how much of a sure haul the next seat is expected to take
BUDGET_S = 0.3  # past it, no new unseen flip is looked at (the clock is 1 s a decision)


def _phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class TreasureStanding(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.faces = {}

    def on_event(self, event):
        t, d = event.get("type"), event.get("data") or {}
        if t == "flip":
            self.faces[tuple(d["square"])] = d["kind"]
        elif t == "keep":
            for sq in d["squares"]:
                self.faces.pop(tuple(sq), None)
        elif t == "spider_move" and d.get("to") is not None:
            self.faces.pop(tuple(d["from"]), None)
            self.faces[tuple(d["to"])] = "spider"

    def _utility_fn(self, obs):
        hoards = obs["hoards"]
        n = len(hoards)
        score = [sum(h.values()) for h in hoards]
        drag = [h.get("dragon", 0) for h in hoards]
        left = sum(1 for row in obs["grid"] for c in row if c != "empty") - 3
        sigma = max(1.0, SPREAD * math.sqrt(max(left, 0) / n) + 0.5)
        nxt = (self.seat + 1) % n
        dragons_left = obs["tile_counts"]["dragon"] - sum(drag)

        def bonus(d_me, d_other):
            # chance at the 3-tile Spider bonus, crude: who leads the Dragons with those still out
            if dragons_left <= 0:
                return 3.0 if d_me > d_other else 0.0
            return 3.0 * _phi((d_me - d_other) / (0.6 + 0.5 * math.sqrt(dragons_left)))

        def utility(gain, gain_dragons, gift):
            me = score[self.seat] + gain
            dm = drag[self.seat] + gain_dragons
            total = 0.0
            for s in range(n):
                if s == self.seat:
                    continue
                other = score[s] + (NEXT_TAKES * gift if s == nxt else 0.0)
                others_best = max(drag[t] for t in range(n) if t != self.seat)
                margin = me - other + bonus(dm, others_best) - (3.0 - bonus(dm, others_best)) / (n - 1)
                margin += 0.3 * (dm - drag[s]) / 3.0  # the tie-break
                total += _phi(margin / sigma)
            return total

        return utility

    def _search(self, obs):
        grid = obs["grid"]
        for sq in [s for s in self.faces if grid[s[0]][s[1]] == "empty"]:
            del self.faces[sq]
        up = [(tuple(f["square"]), f["kind"]) for f in obs["flipped"]]
        up_sq = {s for s, _ in up}
        downs = [(r, c) for r in range(7) for c in range(7) if grid[r][c] != "empty" and (r, c) not in up_sq]
        mem = {s: self.faces[s] for s in downs if s in self.faces}
        blind = [s for s in downs if s not in mem]
        need = [obs["set_sizes"].get(k, 0) for k in ORDER]
        pool = [obs["tile_counts"][k] - sum(h.get(k, 0) for h in obs["hoards"]) for k in ORDER]
        for k in list(mem.values()) + [k for _, k in up]:
            pool[ORDER.index(k)] -= 1
        pool = [max(0, x) for x in pool]
        if sum(pool) and sum(pool) != len(blind):
            pool = [x * len(blind) / sum(pool) for x in pool]
        remembered = [0] * 8
        for k in mem.values():
            remembered[ORDER.index(k)] += 1
        utility = self._utility_fn(obs)

        def sure(counts):
            sets = sum(counts[i] - counts[i] % need[i] for i in range(6))
            return max(sets, counts[DR])

        before = sure(remembered)
        cache = {}
        deadline = time.monotonic() + BUDGET_S

        def leaf(c, run, rem, bust):
            if bust:
                return utility(0, 0, max(0, sure([rem[i] + c[i] for i in range(8)]) - before))
            if run:
                return utility(c[DR], c[DR], 0)
            kept = [c[i] - c[i] % need[i] for i in range(6)]
            rest = [rem[i] + c[i] - (kept[i] if i < 6 else 0) for i in range(8)]
            return utility(sum(kept), 0, max(0, sure(rest) - before))

        def best(c, rem, p, run, depth, last=0):
            # Remembered tiles are riskless and their order among themselves changes nothing: between
            # two unseen flips, one canonical order (an unseen flip first can pay: a first Dragon
            # starts a run rather than ending the turn).
            key = (tuple(c), tuple(rem), run, depth, last)
            if key in cache:
                return cache[key]
            started = sum(c) > 0
            top, move = (leaf(c, run, rem, False), "stop") if started else (-1.0, None)
            for i in range(last, 7):
                if rem[i] and not (started and run != (i == DR)):
                    c[i] += 1
                    rem[i] -= 1
                    v = best(c, rem, p, run or (not started and i == DR), depth, i)[0]
                    c[i] -= 1
                    rem[i] += 1
                    if v > top + 1e-12:
                        top, move = v, ORDER[i]
            total = sum(p)
            if total > 0.5 and depth < DEPTH and time.monotonic() < deadline:
                ev = 0.0
                for i in range(8):
                    if p[i] <= 0:
                        continue
                    w = p[i] / total
                    c[i] += 1
                    if i == SP or (started and run != (i == DR)):
                        ev += w * leaf(c, run, rem, True)
                    else:
                        p[i] -= 1
                        ev += w * best(c, rem, p, run or (not started and i == DR), depth + 1)[0]
                        p[i] += 1
                    c[i] -= 1
                if ev > top + 1e-12:
                    top, move = ev, "blind"
            cache[key] = (top, move)
            return top, move

        counts = [0] * 8
        for _, k in up:
            counts[ORDER.index(k)] += 1
        _, move = best(counts, remembered, pool, bool(obs["dragon_run"]), 0)
        return move, mem, blind

    def flip(self, obs):
        req = obs["request"]
        move, mem, blind = self._search(obs)
        squares = [tuple(s) for s in req["squares"]]
        if move == "stop" and req["can_stop"]:
            return {"stop": True}
        if move not in (None, "stop", "blind"):
            for s in squares:
                if mem.get(s) == move:
                    return {"square": list(s)}
        options = [s for s in squares if s in set(blind)]
        if options:
            return {"square": list(self.rng.choice(options))}
        if req["can_stop"]:
            return {"stop": True}
        safe = [s for s in squares if mem.get(s) not in ("spider", "dragon")]
        return {"square": list((safe or squares)[0])}

    def move_spider(self, obs):
        squares = obs["request"]["squares"]
        return {"square": self.rng.choice(squares) if squares else None}


if __name__ == "__main__":
    run(TreasureStanding)
