"""An outside bot for Treasure of the Dragons (ladder game `treasure`).

Style: a card counter with an exact look-ahead inside the turn. Every flip is public and a tile
turned back goes face down where it was, so it remembers every face-down tile it has seen and
counts the unseen mix (the rulebook's 49 tiles less the hoards, the tiles face up and the ones it
remembers). Each flip weighs, over the unseen mix, up to four more unknown flips against stopping
with what the known tiles complete without risk (known treasure is safe to flip; a bust costs the
turn's sets and hands the flipped tiles, now known to all, to the next seats). The first flip of a
turn risks nothing, so it gambles there first; a Dragon first starts a Dragon run, which collects
every Dragon it knows of (Dragons weigh more while the race for the three Spider tiles is close).
It leaves the Spider where it is: every seat saw where it lies.

Written by an outside author (the gauntlet1 session playing one, issue #24) from the docs only:
README.md, docs/rules.md, docs/protocol.md, bots/sdk.py, bots/forward.py, the SDK and
forward-model sections of docs/bots.md, the Python starter kit (bots/examples/python/main.py) and
the printed rules in ../shared/seeds/ (004, the Treasure rulebook). The house bots' code, the
house-bot sections of docs/bots.md and the engine's internals were never opened; the house bots
were only played against, as black boxes, with `ladder match` and `ladder tournament`.

A gauntlet bot, not a starter bot: it is a yardstick for the house bots and is never tuned against.
"""

from __future__ import annotations

from bots.sdk import Bot, run

INITIAL = {"chest": 8, "sword": 6, "scroll": 4, "potion": 4, "egg": 4, "diamond": 8, "dragon": 12, "spider": 3}
SIZES = {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}  # docs/rules.md rows 7-8
TREASURES = tuple(SIZES)
DEPTH = 4  # unknown flips looked ahead within a turn
BUST_GIFT = 0.2  # a bust turns my flipped tiles back face down where every seat saw them


def _key(square):
    return (int(square[0]), int(square[1]))


class TreasureOutsider(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.known = {}  # face-down square -> the kind seen there (all flips are public)

    # ------------------------------------------------------------------ memory from events

    def on_event(self, event):
        kind, d = event.get("type"), event.get("data") or {}
        if kind == "flip":
            self.known[_key(d["square"])] = d["kind"]
        elif kind == "keep":
            for sq in d.get("squares") or []:
                self.known.pop(_key(sq), None)
        elif kind == "spider_move" and d.get("to") is not None:
            self.known.pop(_key(d["from"]), None)
            self.known[_key(d["to"])] = "spider"

    # ------------------------------------------------------------------ what is where

    def survey(self, obs):
        """(known face-down squares by kind, unknown face-down squares, the unknown tiles' mix)."""
        grid = obs["grid"]
        down = [(r, c) for r in range(len(grid)) for c in range(len(grid[r])) if grid[r][c] == "down"]
        known = {k: [] for k in INITIAL}
        unknown = []
        for sq in down:
            kind = self.known.get(sq)
            if kind is None:
                unknown.append(sq)
            else:
                known[kind].append(sq)
        pool = dict(INITIAL)
        for h in obs["hoards"]:
            for k, n in h.items():
                if k in pool:
                    pool[k] -= n
        for row in grid:
            for cell in row:
                if cell in pool:
                    pool[cell] -= 1  # face up this turn
        for k, squares in known.items():
            pool[k] -= len(squares)
        pool = {k: max(0, v) for k, v in pool.items()}
        # the mix must add up to the unknown squares; if memory and counts disagree, scale it
        total = sum(pool.values())
        if unknown and total != len(unknown) and total > 0:
            pool = {k: v * len(unknown) / total for k, v in pool.items()}
        return known, unknown, pool

    def dragon_weight(self, obs, extra=0):
        mine = obs["hoards"][self.seat].get("dragon", 0) + extra
        best = max([h.get("dragon", 0) for s, h in enumerate(obs["hoards"]) if s != self.seat] or [0])
        if mine <= best:
            return 1.0 + (1.6 if mine + 1 > best else 0.4)  # one more takes or draws level for the Spiders
        return 1.0 + (0.6 if mine - best <= 2 else 0.1)

    # ------------------------------------------------------------------ planning a turn

    def kept(self, counts):
        return sum((counts.get(k, 0) // s) * s for k, s in SIZES.items())

    def safe_value(self, counts, known_n):
        """Tiles kept after also flipping every useful known treasure (no risk in those)."""
        return sum(((counts.get(k, 0) + known_n.get(k, 0)) // s) * s for k, s in SIZES.items())

    def gamble(self, counts, known_n, pool, n_unknown, depth, memo):
        """Expected tiles of the rest of a treasure turn that may flip unknown tiles."""
        stop = self.safe_value(counts, known_n)
        if depth == 0 or n_unknown <= 0:
            return stop
        key = (tuple(counts.get(k, 0) for k in TREASURES), tuple(round(pool[k], 3) for k in INITIAL), depth)
        if key in memo:
            return memo[key]
        total = sum(pool.values())
        if total <= 0:
            return stop
        ev = 0.0
        bad = (pool["dragon"] + pool["spider"]) / total
        ev += bad * (-BUST_GIFT * stop)
        for k in TREASURES:
            if pool[k] <= 0:
                continue
            p = pool[k] / total
            c2 = dict(counts)
            c2[k] = c2.get(k, 0) + 1
            p2 = dict(pool)
            p2[k] -= 1
            ev += p * self.gamble(c2, known_n, p2, n_unknown - 1, depth - 1, memo)
        best = max(stop, ev)
        memo[key] = best
        return best

    def dragon_run(self, ran, known_dragons, pool, n_unknown, wd, depth):
        """Expected value of a Dragon run with `ran` Dragons flipped, known ones flipped next."""
        stop = (ran + known_dragons) * wd
        if depth == 0 or n_unknown <= 0:
            return stop
        total = sum(pool.values())
        if total <= 0 or pool["dragon"] <= 0:
            return stop
        p = pool["dragon"] / total
        p2 = dict(pool, dragon=pool["dragon"] - 1)
        go = p * self.dragon_run(ran + 1, known_dragons, p2, n_unknown - 1, wd, depth - 1) - (1 - p) * BUST_GIFT * stop
        return max(stop, go)

    def flip(self, obs):
        req = obs["request"]
        legal = {_key(sq) for sq in req["squares"]}
        known, unknown, pool = self.survey(obs)
        known = {k: [sq for sq in v if sq in legal] for k, v in known.items()}
        unknown = [sq for sq in unknown if sq in legal]
        known_n = {k: len(v) for k, v in known.items()}
        flipped = [f["kind"] for f in obs.get("flipped") or []]
        wd = self.dragon_weight(obs)
        pick_unknown = self.rng.choice(unknown) if unknown else None

        if not flipped:  # the first flip: a Dragon starts a run, a treasure a treasure turn
            options = []
            if known["dragon"]:
                options.append((self.dragon_run(1, known_n["dragon"] - 1, pool, len(unknown), wd, 2),
                                known["dragon"][0]))
            if unknown:
                total = sum(pool.values()) or 1.0
                ev = 0.0
                if pool["dragon"] > 0:
                    p2 = dict(pool, dragon=pool["dragon"] - 1)
                    ev += pool["dragon"] / total * self.dragon_run(1, known_n["dragon"], p2, len(unknown) - 1, wd, 2)
                memo = {}
                for k in TREASURES:
                    if pool[k] > 0:
                        p2 = dict(pool)
                        p2[k] -= 1
                        ev += pool[k] / total * self.gamble({k: 1}, known_n, p2, len(unknown) - 1, DEPTH - 1, memo)
                options.append((ev, pick_unknown))
            for k in TREASURES:
                if known[k]:
                    rest = dict(known_n)
                    rest[k] -= 1
                    v = self.gamble({k: 1}, rest, pool, len(unknown), DEPTH, {})
                    options.append((v, known[k][0]))
            if known["spider"] and not options:
                options.append((-1, known["spider"][0]))
            if not options:
                return {"square": list(req["squares"][0])}
            best = max(options, key=lambda o: o[0])
            return {"square": list(best[1])}

        if obs.get("dragon_run"):
            ran = len(flipped)
            if known["dragon"]:
                return {"square": list(known["dragon"][0])}
            go = self.dragon_run(ran, 0, pool, len(unknown), wd, 2)
            if unknown and go > ran * wd + 1e-9:
                return {"square": list(pick_unknown)}
            return {"stop": True}

        counts = {}
        for k in flipped:
            counts[k] = counts.get(k, 0) + 1
        stop_now = self.kept(counts)
        safe = self.safe_value(counts, known_n)
        memo = {}
        risky = 0.0
        if unknown:
            total = sum(pool.values()) or 1.0
            risky = (pool["dragon"] + pool["spider"]) / total * (-BUST_GIFT * safe)
            for k in TREASURES:
                if pool[k] > 0:
                    p2 = dict(pool)
                    p2[k] -= 1
                    c2 = dict(counts)
                    c2[k] = c2.get(k, 0) + 1
                    risky += pool[k] / total * self.gamble(c2, known_n, p2, len(unknown) - 1, DEPTH - 1, memo)
        if unknown and risky > safe + 0.05:
            return {"square": list(pick_unknown)}
        if safe > stop_now:
            # flip a known tile of a kind whose set it helps complete
            for k, s in SIZES.items():
                have = counts.get(k, 0)
                target = ((have + known_n[k]) // s) * s
                if target > have and known[k]:
                    return {"square": list(known[k][0])}
        return {"stop": True}

    def move_spider(self, obs):
        return {"square": None}  # everyone saw where it lies; moving it hides nothing


if __name__ == "__main__":
    run(TreasureOutsider)
