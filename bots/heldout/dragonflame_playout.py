# Over 400 lines: an outside author's bot is one file, uploaded as it is (bots/heldout/README.md).
"""DragonFlame, an outside bot: determinized playouts of the rest of the round, within a time box.

Written from the rules alone (the rulebook, the ladder's edition, the protocol and the SDK).

How it plays:
- It remembers every card it has seen; the cards it has not seen (the deck, the others' hands,
  face-down cards it did not play) form one pool.
- At each card to play and each attack it tries every legal choice on the same set of sampled
  worlds: the others' hands and the unseen face-down cards dealt at random from the pool. In each
  world it plays the rest of the round out with a quick policy for every seat (a seat puts a card
  that is good for it on the castle it expects to loot, a bad one on a castle it expects another
  seat to loot; attacks go in banner order, each seat taking the castle worth most to it, the
  banner included), resolves every Dragonflame on its best line, and scores the table: each
  hoard as the rules score it plus what its cards promise, each seat's expected village glory,
  and the banners. A choice is worth its mean over the worlds of its own value less the others'
  mean; the samples stop at 0.3 s of wall or processor time.
- Spyglass on the castle with most unseen cards; Dragonflames on the line best for it against the
  others.
"""

from __future__ import annotations

import math
import os
import time

from bots.sdk import Bot, run
from ladder.games.dragonflame.rules.data import CARD_BY_ID, GLORY, deck_for

TIME_BOX = float(os.environ.get("DF_PLAYOUT_TIME", "0.3"))
MIN_WORLDS = 4
MAX_WORLDS = 400
NOISE = 0.12  # a playout's seats now and then play a random card anywhere

CAT = {cid: c.category for cid, c in CARD_BY_ID.items()}
NAME = {cid: c.name for cid, c in CARD_BY_ID.items()}
FIRE = {cid: c.fire for cid, c in CARD_BY_ID.items()}
VALUE = {cid: c.value for cid, c in CARD_BY_ID.items()}
TREASURE = ("chest", "statue", "jewelry")

TURN_VALUE = 2.5  # worth of playing/attacking first next round rather than last
VILLAGE_DECAY = 0.45  # a village missing m spaces completes with chance exp(-m * decay / game left)
PRINCESS_HOPE = 2.5  # names a Princess may still collect
RING_VALUE = 2.0  # a Ring of Fire at the start of the game



def hoard_value(cards: list[str], left: float) -> float:
    """End-of-game estimate of a hoard: the exact score plus what its cards promise. `left` is
    the fraction of the game still to come (1 at the start, 0 at the end)."""
    statues: dict[str, int] = {}
    chests: dict[str, int] = {}
    names: set[str] = set()
    jewels = knights = 0
    princess = curse = False
    ring = glass = bane = breaker = lucky = 0
    for c in cards:
        cat = CAT[c]
        if cat == "statue":
            n = NAME[c]
            statues[n] = statues.get(n, 0) + 1
            names.add(n)
        elif cat == "chest":
            n = NAME[c]
            chests[n] = chests.get(n, 0) + 1
            names.add(n)
        elif cat == "jewelry":
            jewels += VALUE[c]
            names.add(NAME[c])
        elif cat == "knight":
            knights += 1
        elif cat == "princess":
            princess = True
        elif cat == "curse":
            curse = True
        elif cat == "relic":
            n = NAME[c]
            if n == "Ring of Fire":
                ring += 1
            elif n == "Spyglass":
                glass += 1
            elif n == "Knight's Bane":
                bane += 1
            elif n == "Curse Breaker":
                breaker += 1
            else:
                lucky += 1
    v = float(jewels)
    v += 5 * sum(1 for n in statues.values() if n == 1)
    sizes = sorted(chests.values(), reverse=True)
    k = 1 + lucky
    v += sum(s * s for s in sizes[:k]) - sum(sizes[k:])
    if princess:
        v += len(names) + PRINCESS_HOPE * left
    kept = max(0, knights - 2 * bane)
    v -= 3 * kept
    if bane and knights < 2 * bane:
        v += min(2 * bane - knights, 1) * 1.5 * left
    if curse and not breaker:
        v -= 2 * len(chests) + 1.5 * left
    if breaker and not curse:
        v += 0.5 * left
    v += ring * RING_VALUE * left + glass * 1.0 * left
    if lucky and len(sizes) < 2:
        v += 1.0 * left
    return v


def add_cards(hoard: list[str], cards: list[str]) -> list[str]:
    """The hoard after looting `cards` (no Dragonflames: they burn; a second Princess/Curse goes)."""
    out = list(hoard)
    has_p = any(CAT[c] == "princess" for c in out)
    has_c = any(CAT[c] == "curse" for c in out)
    for c in cards:
        cat = CAT[c]
        if cat == "dragonflame":
            continue
        if cat == "princess":
            if has_p:
                continue
            has_p = True
        if cat == "curse":
            if has_c:
                continue
            has_c = True
        out.append(c)
    return out


# ---------------------------------------------------------------------------------- villages

class Board:
    """The village grid: per cell (spaces, fire list of seats); lines as cell index paths."""

    def __init__(self, grid: list[list[dict]]) -> None:
        self.rows, self.cols = len(grid), len(grid[0])
        self.spaces = [cell["spaces"] for row in grid for cell in row]
        self.fire = [list(cell["fire"]) for row in grid for cell in row]
        self.lines = []
        for r in range(self.rows):
            path = [r * self.cols + c for c in range(self.cols)]
            self.lines.append(("left", r, path))
            self.lines.append(("right", r, path[::-1]))
        for c in range(self.cols):
            path = [r * self.cols + c for r in range(self.rows)]
            self.lines.append(("top", c, path))
            self.lines.append(("bottom", c, path[::-1]))


def cell_worth(spaces: int, fire: list[int], players: int, left: float) -> list[float]:
    """Each seat's expected glory from one village: rank award times the chance it completes."""
    out = [0.0] * players
    if spaces == 0 or not fire:
        return out
    missing = spaces - len(fire)
    p = 1.0 if missing <= 0 else math.exp(-missing * VILLAGE_DECAY / max(0.12, left))
    counts: dict[int, int] = {}
    for s in fire:
        counts[s] = counts.get(s, 0) + 1
    ranked = sorted(counts, key=lambda s: (-counts[s], fire.index(s)))
    awards = GLORY[spaces]
    for rank, s in enumerate(ranked):
        if rank < len(awards):
            out[s] += p * awards[rank]
    return out


def burn_effect(board: Board, seat: int, tokens: int, supply: int, players: int, left: float,
                apply: bool = False):
    """The best line for `seat` with `tokens` fire: (effect on every seat, side, index). The line
    maximises the seat's own gain less the others' mean gain. `apply` burns it on the board."""
    best = None
    others = max(1, players - 1)
    for side, index, path in board.lines:
        touched = []
        placed = 0
        for cell in path[:tokens]:
            if board.spaces[cell] == 0 or len(board.fire[cell]) >= board.spaces[cell] or placed >= supply:
                continue
            touched.append(cell)
            placed += 1
        eff = [0.0] * players
        for cell in touched:
            before = cell_worth(board.spaces[cell], board.fire[cell], players, left)
            after = cell_worth(board.spaces[cell], board.fire[cell] + [seat], players, left)
            for s in range(players):
                eff[s] += after[s] - before[s]
        score = eff[seat] - (sum(eff) - eff[seat]) / others
        if best is None or score > best[0] + 1e-9:
            best = (score, eff, side, index, touched)
    _score, eff, side, index, touched = best
    if apply:
        for cell in touched:
            board.fire[cell].append(seat)
    return eff, side, index


# ---------------------------------------------------------------------------------- the bot

# ---------------------------------------------------------------------------------- the bot

class Playout(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.n = self.num_players
        self.all_ids = [c.id for c in deck_for(self.n)]
        self.seen: set[str] = set()
        self.per_round = 4 if self.n == 2 else 3
        self.total_rounds = (len(self.all_ids) - 1) // (self.per_round * self.n)

    def on_event(self, event):
        data = event.get("data") or {}
        kind = event.get("type")
        cards = []
        if kind in ("hand", "attack", "spied"):
            cards = data.get("cards") or []
        elif kind in ("play", "second_discarded"):
            if data.get("card"):
                cards = [data["card"]]
        elif kind == "castle_discarded":
            cards = data.get("face_up") or []
        for c in cards:
            if isinstance(c, dict) and "id" in c:
                self.seen.add(c["id"])

    def absorb(self, obs):
        for c in obs.get("hand") or []:
            self.seen.add(c["id"])
        for castle in obs["castles"]:
            for e in castle["cards"]:
                if "card" in e:
                    self.seen.add(e["card"]["id"])
        for h in obs["hoards"]:
            for c in h:
                self.seen.add(c["id"])

    # -- the clock of the game
    def left_after(self, obs) -> float:
        return (obs["deck"] // (self.per_round * self.n)) / max(1, self.total_rounds)

    def last_round(self, obs) -> bool:
        return obs["deck"] < self.per_round * self.n

    # -- the table, prepared once a decision
    def prepare(self, obs):
        n = self.n
        self.left = self.left_after(obs)
        self.last = self.last_round(obs)
        self.hoards = [[c["id"] for c in h] for h in obs["hoards"]]
        self.base_hv = [hoard_value(h, self.left) for h in self.hoards]
        self.grid = obs["grid"]
        self.supply = list(obs["fire"])
        board = Board(self.grid)
        self.base_village = [0.0] * n
        for cell in range(len(board.spaces)):
            w = cell_worth(board.spaces[cell], board.fire[cell], n, self.left)
            for s in range(n):
                self.base_village[s] += w[s]
        # quick values: a card's gain alone to each seat (Dragonflames at their best line)
        self.flame_q = []
        for s in range(n):
            rings = sum(1 for c in self.hoards[s] if NAME[c] == "Ring of Fire")
            row = {}
            for f in (1, 2, 3):
                eff, _sd, _ix = burn_effect(board, s, f + rings, self.supply[s], n, self.left)
                row[f] = eff[s] - (sum(eff) - eff[s]) / max(1, n - 1)
            self.flame_q.append(row)
        self.q_cache = [{} for _ in range(n)]
        # banner values of each castle number (two seats: by the pair, at the leaf)
        self.numbers = sorted(c["number"] for c in obs["castles"])
        allnum = set(self.numbers) | {b["number"] for b in obs["banners"]}
        if obs.get("set_aside"):
            allnum.add(obs["set_aside"]["number"])
        allnum = sorted(allnum)
        self.banner_q = {}
        for k in self.numbers:
            if self.last:
                self.banner_q[k] = float(k)
            elif n == 2:
                self.banner_q[k] = TURN_VALUE / 2 if k == 1 else (0.0 if k == 3 else TURN_VALUE / 4)
            else:
                pos = allnum.index(k)
                self.banner_q[k] = TURN_VALUE * (1.0 - pos / max(1, len(allnum) - 1))
        self.limits = {c["number"]: c["limit"] for c in obs["castles"]}
        self.patterns = [b["pattern"] for b in obs["banners"]]
        self.played = list(obs["played"])
        pool = [c for c in self.all_ids if c not in self.seen]
        self.mean_q = [sum(self.q(s, c) for c in pool) / max(1, len(pool)) for s in range(n)]

    def q(self, s, cid):
        cache = self.q_cache[s]
        v = cache.get(cid)
        if v is None:
            if CAT[cid] == "dragonflame":
                v = self.flame_q[s][FIRE[cid]]
            else:
                v = hoard_value(add_cards(self.hoards[s], [cid]), self.left) - self.base_hv[s]
            cache[cid] = v
        return v

    def banner_pair(self, k, taken):
        if self.n != 2:
            return self.banner_q[k]
        first = k == min(taken)
        if self.last:
            return 1.0 if first else 2.0
        return TURN_VALUE if first else 0.0

    # -- one world, played out
    def sample_world(self, obs, rng):
        """Hands for the others and the face-down cards I do not know, dealt from my unseen pool.
        A castle holds (card, face up, played by) as in the game."""
        pool = [c for c in self.all_ids if c not in self.seen]
        rng.shuffle(pool)
        i = 0
        hands = []
        for s in range(self.n):
            if s == self.seat:
                hands.append([c["id"] for c in obs["hand"]])
            else:
                k = obs["hand_sizes"][s]
                hands.append(pool[i:i + k])
                i += k
        castles = {}
        for castle in obs["castles"]:
            cards = []
            for e in castle["cards"]:
                up = e["face"] == "up"
                if "card" in e:
                    cards.append((e["card"]["id"], up, e["by"]))
                else:
                    cards.append((pool[i], up, e["by"]))
                    i += 1
            castles[castle["number"]] = cards
        return hands, castles

    def seen_sum(self, s, cards):
        """A castle's worth to seat s as s sees it: a face-down card it did not play at its mean."""
        q = self.q
        mean = self.mean_q[s]
        return sum(q(s, c) if (up or by == s) else mean for c, up, by in cards)

    def attack_choice(self, s, castles, open_c, order):
        """Seat s's attack in a playout: its best castle as it sees it; with two seats, less what
        that leaves the other seat (by s's view of the other's worth)."""
        if len(open_c) == 1:
            return open_c[0]
        vals = {k: self.seen_sum(s, castles[k]) + self.banner_q[k] for k in open_c}
        rest = [t for t in order if t != s]
        if self.n == 2 and rest:
            t = rest[0]
            if self.assigned_after(s, order):
                other = {k: self.seen_sum(t, castles[k]) + self.banner_q[k] for k in open_c}
                return max(open_c, key=lambda k: vals[k] - max(other[x] for x in open_c if x != k))
        return max(open_c, key=lambda k: vals[k])

    def assigned_after(self, s, order):
        return order.index(s) < len(order) - 1

    def forecast_targets(self, castles, open_castles, order):
        """The attack round as a seat foresees it: seat -> castle, in banner order."""
        left = list(open_castles)
        out = {}
        for s in order:
            if not left:
                break
            best = self.attack_choice(s, castles, left, order)
            out[s] = best
            left.remove(best)
        return out

    def policy_play(self, s, hand, castles, order, rng):
        roomy = [k for k in castles if len(castles[k]) < self.limits[k]]
        if not roomy:
            return hand[0], None
        if s != self.seat and rng.random() < NOISE:  # my own later plays: my policy, no noise
            return rng.choice(hand), rng.choice(roomy)
        targets = self.forecast_targets(castles, list(castles), order)
        mine = targets.get(s)
        card = max(hand, key=lambda c: abs(self.q(s, c)))
        v = self.q(s, card)
        if v >= 0:
            if mine in roomy:
                return card, mine
            return card, max(roomy, key=lambda k: self.seen_sum(s, castles[k]))
        # a bad card: onto a castle another seat is expected to loot, the earliest of them first
        for t in order:
            if t != s and targets.get(t) in roomy:
                return card, targets[t]
        others = [k for k in roomy if k != mine] or roomy
        return card, rng.choice(others)

    def finish_round(self, hands, castles, order, play_from, assign, attack_from, rng):
        """Play the rest of the round out; return the assignment seat -> castle."""
        if play_from is not None:
            n = len(order)
            idx = play_from
            played = list(self.played)
            guard = 0
            while any(hands[s] for s in order) and guard < 64:
                guard += 1
                s = order[idx % n]
                idx += 1
                if not hands[s]:
                    continue
                card, k = self.policy_play(s, hands[s], castles, order, rng)
                hands[s].remove(card)
                pattern = self.patterns[s]
                up = pattern[min(played[s], len(pattern) - 1)] == "U"
                played[s] += 1
                if k is not None:
                    castles[k].append((card, up, s))
            attack_from = 0
        open_c = [k for k in castles if k not in assign.values()]
        for s in order[attack_from:]:
            if s in assign or not open_c:
                continue
            best = self.attack_choice(s, castles, open_c, order)
            assign[s] = best
            open_c.remove(best)
        return assign

    def score_world(self, castles, assign, order):
        n = self.n
        board = Board(self.grid)
        taken = list(assign.values())
        vals = [0.0] * n
        supply = list(self.supply)
        for s in order:
            k = assign.get(s)
            if k is None:
                vals[s] += self.base_hv[s]
                continue
            cards = [c for c, _up, _by in castles[k]]
            h = add_cards(self.hoards[s], cards)
            vals[s] += hoard_value(h, self.left) + self.banner_pair(k, taken)
            rings = sum(1 for c in h if NAME[c] == "Ring of Fire")
            for c in cards:
                if CAT[c] == "dragonflame" and supply[s] > 0:
                    t = FIRE[c] + rings
                    burn_effect(board, s, t, supply[s], n, self.left, apply=True)
                    supply[s] -= t
        for cell in range(len(board.spaces)):
            w = cell_worth(board.spaces[cell], board.fire[cell], n, self.left)
            for s in range(n):
                vals[s] += w[s]
        me = vals[self.seat]
        return me - (sum(vals) - me) / max(1, n - 1)

    def search(self, obs, options, apply):
        """Mean table value of each option over sampled worlds (common to every option)."""
        start, cpu = time.monotonic(), time.process_time()
        totals = [0.0] * len(options)
        worlds = 0
        while True:
            seed = self.rng.random()
            hands0, castles0 = self.sample_world(obs, self.rng)
            for i, opt in enumerate(options):
                hands = [list(h) for h in hands0]
                castles = {k: list(v) for k, v in castles0.items()}
                rng = _Rng(seed)
                totals[i] += apply(opt, hands, castles, rng)
            worlds += 1
            spent = max(time.monotonic() - start, time.process_time() - cpu)
            if worlds >= MIN_WORLDS and spent > TIME_BOX * 0.8:
                break
            if spent > TIME_BOX or worlds >= MAX_WORLDS:
                break
        self.worlds = worlds
        return totals

    # -- decisions
    def play(self, obs):
        self.absorb(obs)
        req = obs["request"]
        if not req["castles"]:
            return {"card": req["cards"][0], "castle": None}
        self.prepare(obs)
        order = obs["order"]
        me_idx = order.index(self.seat)
        done = {s: k for s, k in enumerate(obs["looted"]) if k is not None}
        options = [(c, k) for c in req["cards"] for k in req["castles"]]
        if len(options) == 1:
            return {"card": options[0][0], "castle": options[0][1]}
        up = req["face"] == "up"

        def apply(opt, hands, castles, rng):
            card, k = opt
            hands[self.seat].remove(card)
            castles[k].append((card, up, self.seat))
            self.played[self.seat] += 1
            try:
                assign = self.finish_round(hands, castles, order, me_idx + 1, dict(done), 0, rng)
            finally:
                self.played[self.seat] -= 1
            return self.score_world(castles, assign, order)

        totals = self.search(obs, options, apply)
        best = max(range(len(options)), key=lambda i: totals[i])
        return {"card": options[best][0], "castle": options[best][1]}

    def attack(self, obs):
        self.absorb(obs)
        castles_left = obs["request"]["castles"]
        if len(castles_left) == 1:
            return {"castle": castles_left[0]}
        self.prepare(obs)
        order = obs["order"]
        me_idx = order.index(self.seat)
        done = {s: k for s, k in enumerate(obs["looted"]) if k is not None}
        # castles looted already are gone from obs (their cards went to hoards): keep the open ones
        open_nums = set(castles_left)

        def apply(k, hands, castles, rng):
            for num in list(castles):
                if num not in open_nums:
                    del castles[num]
            assign = {s: c for s, c in done.items()}
            assign[self.seat] = k
            assign = self.finish_round(hands, castles, order, None, assign, me_idx + 1, rng)
            # the seats that looted before me: their hoards already hold their cards
            return self.score_world(castles, {s: c for s, c in assign.items() if c in castles}, order) \
                + (self.banner_fix(done, assign))

        totals = self.search(obs, list(castles_left), apply)
        best = max(range(len(castles_left)), key=lambda i: totals[i])
        return {"castle": castles_left[best]}

    def banner_fix(self, done, assign):
        """Banners of the seats that looted before me (score_world sees only open castles)."""
        n = self.n
        if not done:
            return 0.0
        taken = list(assign.values())
        vals = [0.0] * n
        for s, k in done.items():
            vals[s] += self.banner_pair(k, taken)
        if n == 2:  # my own banner depends on the pair: score_world saw one castle only
            mine = assign[self.seat]
            vals[self.seat] += self.banner_pair(mine, taken) - self.banner_pair(mine, [mine])
        me = vals[self.seat]
        return me - (sum(vals) - me) / max(1, n - 1)

    def spy(self, obs):
        self.absorb(obs)
        castles = obs["request"]["castles"]
        if not castles:
            return {"castle": None}

        def unseen_count(num):
            castle = next(c for c in obs["castles"] if c["number"] == num)
            return sum(1 for e in castle["cards"] if "card" not in e)

        return {"castle": max(castles, key=lambda k: (unseen_count(k), k))}

    def flame(self, obs):
        self.absorb(obs)
        req = obs["request"]
        board = Board(obs["grid"])
        left = self.left_after(obs)
        _eff, side, index = burn_effect(board, self.seat, req["tokens"], obs["fire"][self.seat], self.n, left)
        return {"side": side, "index": index}


class _Rng:
    """A small seeded generator: every option of one world sees the same policy noise."""

    def __init__(self, seed: float) -> None:
        self.x = int(seed * 2**31) or 1

    def random(self) -> float:
        self.x = (1103515245 * self.x + 12345) & 0x7FFFFFFF
        return self.x / 2**31

    def choice(self, seq):
        return seq[int(self.random() * len(seq)) % len(seq)]


if __name__ == "__main__":
    run(Playout)
