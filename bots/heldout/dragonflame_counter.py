"""Held-out outsider for DragonFlame: a card counter that forecasts the attack round.

Written from the rules, the protocol and the engine's public card data only (bots/heldout/README.md).
It scores every hoard exactly with the rules' own scoring (`ladder.games.dragonflame.rules.scoring`,
which the sandbox provides), End-of-game Relics resolved; it counts every card it has seen, so a
face-down card it cannot see is worth the average of the cards still unseen, a little less when an
opponent chose to hide it. It forecasts the attack round in banner order (each seat loots the castle
worth most to it), and plays each card where that forecast leaves it the most against the table's
average; it attacks by its own gain (the castle's cards, its Dragonflames' burning, the banner it
brings: turn order next round, points in the last) less half of what its choice hands the seats
after it; it burns the line that raises its village prospect most against the others'.
"""

from __future__ import annotations

from collections import Counter

from bots.sdk import Bot, run
from ladder.games.dragonflame.rules.data import CARD_BY_ID, GLORY, deck_for
from ladder.games.dragonflame.rules.scoring import hoard_points

HIDDEN_PENALTY = 1.0  # an opponent hides its worst cards more often than its best
DENIAL = 0.5  # weight of what the others gain
TEMPO = 0.8  # a place earlier in next round's banner order, in points
RELIC = {"Spyglass": 1.0, "Ring of Fire": 1.5}


def hoard_score(ids, future=0.0):
    """The hoard's end-of-game points with its Relics resolved, plus a little for sets still growing."""
    cards = [CARD_BY_ID[c] for c in ids]
    names = Counter(c.name for c in cards)
    keep = list(ids)
    banes = names["Knight's Bane"]
    if banes:
        knights = [c for c in keep if CARD_BY_ID[c].category == "knight"][: 2 * banes]
        keep = [c for c in keep if c not in knights]
    if names["Curse Breaker"]:
        keep = [c for c in keep if CARD_BY_ID[c].category != "curse"]
    total = sum(hoard_points(keep, 1 + names["Lucky Chest"]).values())
    total += sum(RELIC.get(n, 0.0) * k for n, k in names.items())
    if future:
        chests = Counter(c.name for c in cards if c.category == "chest")
        total += future * sum(min(k, 3) for k in chests.values()) * 0.6
        if names["Princess"]:
            total += future * 1.0
    return total


def add_cards(hoard, cards):
    """A hoard after looting `cards`: a second Princess or Curse is discarded, Dragonflames burn."""
    out = list(hoard)
    for c in cards:
        cat = CARD_BY_ID[c].category
        if cat == "dragonflame":
            continue
        if cat in ("princess", "curse") and any(CARD_BY_ID[h].category == cat for h in out):
            continue
        out.append(c)
    return out


def village_prospect(grid, seat, players, late):
    """Glory the seat can expect from the villages: a destroyed one scores for sure, one under way
    by how full it is (more surely late in the game), each by the seat's damage rank now."""
    total = 0.0
    for row in grid:
        for cell in row:
            spaces, fire = cell["spaces"], cell["fire"]
            if not spaces or seat not in fire:
                continue
            burners = sorted(set(fire), key=lambda s: (-fire.count(s), fire.index(s)))
            rank = burners.index(seat)
            awards = GLORY[spaces]
            if rank >= len(awards):
                continue
            filled = len(fire) / spaces
            chance = 1.0 if filled >= 1 else filled ** (2.0 - late)
            total += chance * awards[rank]
    return total


def burn(grid, seat, side, index, tokens, supply):
    """A copy of the grid after the flame (the rules: a Field or a full village wastes its token)."""
    g = [[{"spaces": c["spaces"], "fire": list(c["fire"])} for c in row] for row in grid]
    rows, cols = len(g), len(g[0])
    path = [(index, c) for c in range(cols)] if side in ("left", "right") else [(r, index) for r in range(rows)]
    if side in ("right", "bottom"):
        path.reverse()
    placed = 0
    for r, c in path[:tokens]:
        cell = g[r][c]
        if cell["spaces"] and len(cell["fire"]) < cell["spaces"] and placed < supply:
            cell["fire"].append(seat)
            placed += 1
    return g


class DragonflameCounter(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.pool = {c.id for c in deck_for(self.num_players)}
        self.seen = set()

    def on_event(self, event):
        data = event.get("data") or {}
        for key in ("cards", "face_up"):
            for card in data.get(key) or []:
                if isinstance(card, dict) and "id" in card:
                    self.seen.add(card["id"])
        card = data.get("card")
        if isinstance(card, dict) and "id" in card:
            self.seen.add(card["id"])

    # ---- what I know --------------------------------------------------------------------------

    def _look(self, obs):
        for c in obs["hand"]:
            self.seen.add(c["id"])
        for h in obs["hoards"]:
            for c in h:
                self.seen.add(c["id"])
        for castle in obs["castles"]:
            for entry in castle["cards"]:
                if "card" in entry:
                    self.seen.add(entry["card"]["id"])
        self.unseen = [c for c in self.pool if c not in self.seen]
        n = self.num_players
        per_round = 4 if n == 2 else 3
        self.last_round = obs["deck"] < per_round * n
        rounds_left = obs["deck"] // (per_round * n)
        self.future = min(1.0, rounds_left / 4.0)
        self.late = 1.0 - self.future
        self.hoards = [[c["id"] for c in h] for h in obs["hoards"]]
        self.base = [hoard_score(h, self.future) for h in self.hoards]
        self.grid = obs["grid"]
        self.fire = obs["fire"]
        self.rings = [sum(CARD_BY_ID[c].name == "Ring of Fire" for c in h) for h in self.hoards]
        self.prospect = [village_prospect(self.grid, s, n, self.late) for s in range(n)]
        self._unknown_cache = {}

    def _gain(self, seat, cards):
        """What looting these known cards adds to `seat` (Dragonflames burn at their best line)."""
        after = add_cards(self.hoards[seat], cards)
        gain = hoard_score(after, self.future) - self.base[seat]
        for c in cards:
            card = CARD_BY_ID[c]
            if card.category == "dragonflame":
                gain += self._flame_gain(seat, card.fire + self.rings[seat])
        return gain

    def _unknown(self, seat):
        """The average gain to `seat` of one card it cannot see."""
        if seat not in self._unknown_cache:
            pool = self.unseen or list(self.pool)
            sample = pool if len(pool) <= 40 else self.rng.sample(pool, 40)
            self._unknown_cache[seat] = sum(self._gain(seat, [c]) for c in sample) / len(sample)
        return self._unknown_cache[seat]

    def _flame_gain(self, seat, tokens):
        if self.fire[seat] <= 0:
            return 0.0
        best = 0.0
        for side, idx in self._lines():
            best = max(best, self._line_value(seat, side, idx, tokens))
        return best

    def _lines(self):
        rows, cols = len(self.grid), len(self.grid[0])
        return [(s, r) for s in ("left", "right") for r in range(rows)] + [
            (s, c) for s in ("top", "bottom") for c in range(cols)]

    def _line_value(self, seat, side, idx, tokens):
        g = burn(self.grid, seat, side, idx, tokens, self.fire[seat])
        n = self.num_players
        mine = village_prospect(g, seat, n, self.late) - self.prospect[seat]
        others = [village_prospect(g, s, n, self.late) - self.prospect[s] for s in range(n) if s != seat]
        return mine - DENIAL * (sum(others) / max(1, len(others)))

    def _castle_value(self, seat, castle, viewer_knows):
        """`seat`'s gain from a castle: known cards exactly, the others at the unseen average."""
        known, hidden = [], 0
        for entry in castle["cards"]:
            card = entry.get("card")
            if card is not None and (entry["face"] == "up" or viewer_knows):
                known.append(card["id"])
            else:
                hidden += 1
        value = self._gain(seat, known) + hidden * (self._unknown(seat) - HIDDEN_PENALTY)
        return value + self._banner_value(castle["number"])

    def _banner_value(self, number):
        if self.last_round:
            return float(number) if self.num_players > 2 else 0.5 * number
        return -TEMPO * (number - 1)

    def _forecast(self, castles, order, first_choice=None):
        """Who loots what: each seat in banner order takes the castle worth most to it. Returns
        {seat: castle} and each seat's gain as I value the cards (I know my own face-down cards)."""
        left = [c for c in castles if c["attacker"] is None]
        taken, gains = {}, {}
        for seat in order:
            if not left:
                break
            if seat == self.seat and first_choice is not None:
                pick = next(c for c in left if c["number"] == first_choice)
            else:
                pick = max(left, key=lambda c: self._castle_value(seat, c, seat == self.seat))
            left = [c for c in left if c is not pick]
            taken[seat] = pick
            gains[seat] = self._castle_value(seat, pick, True)
        return taken, gains

    def _relative(self, gains):
        mine = gains.get(self.seat, 0.0)
        others = [g for s, g in gains.items() if s != self.seat]
        return mine - DENIAL * (sum(others) / max(1, len(others)))

    def _pending_order(self, obs):
        return [s for s in obs["order"] if obs["looted"][s] is None]

    # ---- decisions -----------------------------------------------------------------------------

    def play(self, obs):
        self._look(obs)
        req = obs["request"]
        if not req["castles"]:
            worst = min(req["cards"], key=lambda c: self._gain(self.seat, [c]))
            return {"card": worst, "castle": None}
        best, best_v = None, -1e9
        face = req["face"]
        for cid in req["cards"]:
            for number in req["castles"]:
                castles = []
                for c in obs["castles"]:
                    c2 = dict(c)
                    if c["number"] == number:
                        c2["cards"] = c["cards"] + [{"face": face, "by": self.seat, "card": CARD_BY_ID[cid].as_json()}]
                    castles.append(c2)
                _, gains = self._forecast(castles, obs["order"])
                v = self._relative(gains)
                if v > best_v:
                    best, best_v = (cid, number), v
        return {"card": best[0], "castle": best[1]}

    def attack(self, obs):
        self._look(obs)
        order = self._pending_order(obs)
        best, best_v = None, -1e9
        for number in obs["request"]["castles"]:
            _, gains = self._forecast(obs["castles"], order, first_choice=number)
            v = self._relative(gains)
            if v > best_v:
                best, best_v = number, v
        return {"castle": best}

    def spy(self, obs):
        self._look(obs)
        targets = obs["request"]["castles"]
        by_number = {c["number"]: c for c in obs["castles"]}

        def doubt(n):
            castle = by_number[n]
            hidden = sum(1 for e in castle["cards"] if "card" not in e)
            return hidden + 0.01 * self._castle_value(self.seat, castle, True)

        return {"castle": max(targets, key=doubt) if targets else None}

    def flame(self, obs):
        self._look(obs)
        req = obs["request"]
        tokens = req["tokens"]
        best = max(req["lines"], key=lambda ln: self._line_value(self.seat, ln["side"], ln["index"], tokens))
        return {"side": best["side"], "index": best["index"]}


if __name__ == "__main__":
    run(DragonflameCounter)
