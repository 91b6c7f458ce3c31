"""Held-out outsider for DragonFlame: tempo and denial against the seat to beat.

Written from the rules, the protocol and the engine's public card data only (bots/heldout/README.md).
Every decision is judged against the rival that matters: its own gain less the weighted gain of each
opponent, weighted by how close that opponent stands to it or above it (hoards scored exactly with
the rules' `scoring` module, villages by their prospect). So it dumps Knights and Curses where the
leader will loot, takes the castle the next seat wants when that costs it little, burns villages
where the leader leads, and prizes an early banner (first pick next round) until the last round,
when the banner's own points count. Its attacks are judged on sampled hands: the face-down cards it
has not seen are dealt from the cards it has not seen yet, a dozen times, and the rest of the
attack round is played out on each deal by every seat looting what is worth most to it.
"""

from __future__ import annotations

import time
from collections import Counter

from bots.sdk import Bot, run
from ladder.games.dragonflame.rules.data import CARD_BY_ID, GLORY, deck_for
from ladder.games.dragonflame.rules.scoring import hoard_points

TEMPO = 1.5  # one place earlier in next round's order, in points
SAMPLES = 12
BUDGET_S = 0.4
BAD_HIDDEN = 1.5  # an opponent's face-down card: it chose to hide it


def points(ids):
    """End-of-game points of a hoard, with Knight's Bane, Curse Breaker and Lucky Chest resolved."""
    names = Counter(CARD_BY_ID[c].name for c in ids)
    kept = list(ids)
    for _ in range(2 * names["Knight's Bane"]):
        knight = next((c for c in kept if CARD_BY_ID[c].category == "knight"), None)
        if knight is not None:
            kept.remove(knight)
    if names["Curse Breaker"]:
        kept = [c for c in kept if CARD_BY_ID[c].category != "curse"]
    value = float(sum(hoard_points(kept, 1 + names["Lucky Chest"]).values()))
    return value + 1.2 * names["Ring of Fire"] + 0.8 * names["Spyglass"]


def loot(hoard, cards):
    out = list(hoard)
    for c in cards:
        cat = CARD_BY_ID[c].category
        if cat == "dragonflame" or (cat in ("princess", "curse") and any(CARD_BY_ID[h].category == cat for h in out)):
            continue
        out.append(c)
    return out


def glory(grid, seat, sureness):
    out = 0.0
    for row in grid:
        for cell in row:
            fire = cell["fire"]
            if not cell["spaces"] or seat not in fire:
                continue
            order = sorted(set(fire), key=lambda s: (-fire.count(s), fire.index(s)))
            awards = GLORY[cell["spaces"]]
            place = order.index(seat)
            if place < len(awards):
                done = len(fire) / cell["spaces"]
                out += awards[place] * (1.0 if done >= 1 else done * sureness)
    return out


def burnt(grid, seat, side, index, tokens, supply):
    g = [[{"spaces": c["spaces"], "fire": list(c["fire"])} for c in row] for row in grid]
    rows, cols = len(g), len(g[0])
    cells = [(index, c) for c in range(cols)] if side in ("left", "right") else [(r, index) for r in range(rows)]
    if side in ("right", "bottom"):
        cells = cells[::-1]
    used = 0
    for r, c in cells[:tokens]:
        cell = g[r][c]
        if cell["spaces"] and len(cell["fire"]) < cell["spaces"] and used < supply:
            cell["fire"].append(seat)
            used += 1
    return g


class DragonflameDenial(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.in_play = [c.id for c in deck_for(self.num_players)]
        self.seen = set()

    def on_event(self, event):
        data = event.get("data") or {}
        for key in ("cards", "face_up"):
            for card in data.get(key) or []:
                if isinstance(card, dict) and "id" in card:
                    self.seen.add(card["id"])
        if isinstance(data.get("card"), dict) and "id" in data["card"]:
            self.seen.add(data["card"]["id"])

    def _read(self, obs):
        for c in obs["hand"]:
            self.seen.add(c["id"])
        for h in obs["hoards"]:
            self.seen.update(c["id"] for c in h)
        for castle in obs["castles"]:
            self.seen.update(e["card"]["id"] for e in castle["cards"] if "card" in e)
        n = self.num_players
        per = 4 if n == 2 else 3
        self.last = obs["deck"] < per * n
        self.sure = 0.5 + 0.5 * (1.0 - min(1.0, obs["deck"] / (per * n * 4.0)))
        self.unseen = [c for c in self.in_play if c not in self.seen]
        self.hoards = [[c["id"] for c in h] for h in obs["hoards"]]
        self.grid, self.fire = obs["grid"], obs["fire"]
        self.rings = [sum(CARD_BY_ID[c].name == "Ring of Fire" for c in h) for h in self.hoards]
        self.now = [points(h) for h in self.hoards]
        self.glory_now = [glory(self.grid, s, self.sure) for s in range(n)]
        standing = [self.now[s] + self.glory_now[s] for s in range(n)]
        me = standing[self.seat]
        # a rival weighs by how close it is to me or how far above: a seat far behind hardly counts
        self.weight = {s: 1.0 if standing[s] >= me - 4 else max(0.15, 1.0 - (me - 4 - standing[s]) / 12.0)
                       for s in range(n) if s != self.seat}
        leader = max(self.weight, key=lambda s: standing[s])
        if standing[leader] >= me:
            self.weight[leader] *= 1.3
        self._mean = {}

    def _gain(self, seat, cards):
        value = points(loot(self.hoards[seat], cards)) - self.now[seat]
        for c in cards:
            if CARD_BY_ID[c].category == "dragonflame" and self.fire[seat] > 0:
                tokens = CARD_BY_ID[c].fire + self.rings[seat]
                value += max(self._line(seat, s, i, tokens) for s, i in self._lines())
        return value

    def _lines(self):
        return [(s, r) for s in ("left", "right") for r in range(len(self.grid))] + [
            (s, c) for s in ("top", "bottom") for c in range(len(self.grid[0]))]

    def _line(self, seat, side, index, tokens):
        g = burnt(self.grid, seat, side, index, tokens, self.fire[seat])
        return glory(g, seat, self.sure) - self.glory_now[seat]

    def _mean_unseen(self, seat):
        if seat not in self._mean:
            pool = self.unseen or self.in_play
            pool = pool if len(pool) <= 30 else self.rng.sample(pool, 30)
            self._mean[seat] = sum(self._gain(seat, [c]) for c in pool) / len(pool)
        return self._mean[seat]

    def _banner(self, number):
        if self.last:
            return float(number) if self.num_players > 2 else 0.5 * number
        return -TEMPO * (number - 1)

    def _estimate(self, seat, castle):
        """`seat`'s view of a castle: what it can see, the rest at the unseen average."""
        known, hidden = [], 0
        for e in castle["cards"]:
            if "card" in e and (e["face"] == "up" or seat == self.seat):
                known.append(e["card"]["id"])
            elif e["by"] == seat and seat != self.seat:
                hidden += 1  # its own card: it knows it; I do not, so the average it is
            else:
                hidden += 1
        pen = BAD_HIDDEN if seat == self.seat else 0.5
        return self._gain(seat, known) + hidden * (self._mean_unseen(seat) - pen) + self._banner(castle["number"])

    def _score(self, gains):
        mine = gains.get(self.seat, 0.0)
        rivals = [self.weight[s] * g for s, g in gains.items() if s != self.seat]
        if not rivals:
            return mine
        return mine - 0.5 * max(rivals) - 0.5 * sum(rivals) / len(rivals)

    def _round(self, castles, order, mine=None, truth=None):
        """Everyone still to attack loots, in order, the castle it values most. `truth` maps a
        castle number to its full list of card ids (a sampled deal), used to score the result."""
        left = [c for c in castles if c["attacker"] is None]
        gains = {}
        for seat in order:
            if not left:
                break
            if seat == self.seat and mine is not None:
                pick = next(c for c in left if c["number"] == mine)
            else:
                pick = max(left, key=lambda c: self._estimate(seat, c))
            left.remove(pick)
            if truth is None:
                cards = [e["card"]["id"] for e in pick["cards"] if "card" in e]
                hidden = sum(1 for e in pick["cards"] if "card" not in e)
                gains[seat] = self._gain(seat, cards) + hidden * self._mean_unseen(seat) + self._banner(pick["number"])
            else:
                gains[seat] = self._gain(seat, truth[pick["number"]]) + self._banner(pick["number"])
        return gains

    def play(self, obs):
        self._read(obs)
        req = obs["request"]
        if not req["castles"]:
            return {"card": min(req["cards"], key=lambda c: self._gain(self.seat, [c])), "castle": None}
        best, top = None, -1e18
        for cid in req["cards"]:
            entry = {"face": req["face"], "by": self.seat, "card": CARD_BY_ID[cid].as_json()}
            for number in req["castles"]:
                castles = [dict(c, cards=c["cards"] + [entry]) if c["number"] == number else c for c in obs["castles"]]
                v = self._score(self._round(castles, obs["order"]))
                if v > top:
                    best, top = (cid, number), v
        return {"card": best[0], "castle": best[1]}

    def attack(self, obs):
        self._read(obs)
        start = time.monotonic()
        order = [s for s in obs["order"] if obs["looted"][s] is None]
        choices = obs["request"]["castles"]
        totals = dict.fromkeys(choices, 0.0)
        hidden = [(c["number"], i) for c in obs["castles"] if c["attacker"] is None
                  for i, e in enumerate(c["cards"]) if "card" not in e]
        for _ in range(SAMPLES if hidden else 1):
            deal = self.rng.sample(self.unseen, len(hidden)) if len(self.unseen) >= len(hidden) else None
            truth = {}
            for c in obs["castles"]:
                truth[c["number"]] = [e["card"]["id"] for e in c["cards"] if "card" in e]
            if deal is not None:
                for (number, _i), cid in zip(hidden, deal, strict=True):
                    truth[number].append(cid)
            for number in choices:
                totals[number] += self._score(self._round(obs["castles"], order, number, truth))
            if time.monotonic() - start > BUDGET_S:
                break
        return {"castle": max(choices, key=lambda n: totals[n])}

    def spy(self, obs):
        self._read(obs)
        targets = obs["request"]["castles"]
        if not targets:
            return {"castle": None}
        castles = {c["number"]: c for c in obs["castles"]}
        # look where the doubt is biggest and the castle might be mine: hidden cards, then size
        return {"castle": max(targets, key=lambda n: (sum("card" not in e for e in castles[n]["cards"]),
                                                        self._estimate(self.seat, castles[n])))}

    def flame(self, obs):
        self._read(obs)
        req = obs["request"]
        n = self.num_players

        def judged(line):
            g = burnt(self.grid, self.seat, line["side"], line["index"], req["tokens"], self.fire[self.seat])
            gains = {s: glory(g, s, self.sure) - self.glory_now[s] for s in range(n)}
            return self._score(gains)

        best = max(req["lines"], key=judged)
        return {"side": best["side"], "index": best["index"]}


if __name__ == "__main__":
    run(DragonflameDenial)
