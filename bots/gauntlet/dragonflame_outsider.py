"""Gauntlet bot for DragonFlame (ladder game name `dragonflame`), style: CARD-COUNTING PREDICTOR,
the one strong outside bot of issue 24 for this game.

Written by an outside author (gauntlet2) from the public docs only: README.md, docs/rules.md
(the DragonFlame rules and the edition's card table), docs/protocol.md, bots/sdk.py and the
Python starter kit. No house bot's code was read; the house bots (`builtin:looter`,
`builtin:heuristic`, `builtin:search`) were only played against as black boxes.

How it plays:
- It scores any hoard exactly as the rules say (Statues, Chest sets with Lucky Chests, Jewelry,
  Princess, Knights with Knight's Bane, Curse with Curse Breaker), and values a Dragonflame by the
  best line it could burn now (its expected village Glory: chance the village is destroyed by the
  end times its rank in damage, less half what the line gives the others).
- A face-down card it does not know is valued at the mean of the cards it has not seen yet (the
  edition's 91-card list, less the V/II cards for the table size, less every card it saw).
- Playing: for every card in hand and castle with room, it predicts which seat loots each castle
  (seats attack in banner order, each taking what is worth most to it as far as it can see) and
  plays where its own gain, less what it hands the others (more when they lead), is largest.
- Attacking: the castle worth most to it, plus the banner it becomes (a low number attacks first
  next round; in the last round the number itself scores), plus a little for denying the next
  attacker its best castle. Spyglass: always, on the castle with the most unknown cards.
"""

from __future__ import annotations

from bots.sdk import Bot, run

STATUES = ("Statue of the Warrior", "Statue of the Sage", "Statue of the Queen", "Statue of the Wyrm",
           "Statue of the Hunter")
CHESTS = ("Stash of Silver Pieces", "Chest of Gold Coins", "Coffer of Gems", "Casket of Pearls")
JEWELS = {"Copper Bracelet": 1, "Silver Necklace": 2, "Golden Ring": 3, "Ruby Amulet": 4, "Dragon Crown": 5}
PAYOUT = {3: (6, 3), 4: (8, 4, 2), 5: (10, 6, 3, 1)}

# The edition's deck (docs/rules.md): (category, name, fire or value, copies, V copies, II copies)
DECK = [
    ("dragonflame", "Dragonflame", 1, 6, 1, 1),
    ("dragonflame", "Dragonflame", 2, 6, 1, 1),
    ("dragonflame", "Dragonflame", 3, 4, 1, 0),
    ("knight", "Knight", 0, 8, 1, 1),
    ("curse", "Curse", 0, 3, 1, 0),
    ("princess", "Princess", 0, 4, 1, 0),
    ("statue", "Statue of the Warrior", 0, 3, 1, 0),
    ("statue", "Statue of the Sage", 0, 3, 1, 0),
    ("statue", "Statue of the Queen", 0, 3, 1, 0),
    ("statue", "Statue of the Wyrm", 0, 3, 0, 1),
    ("statue", "Statue of the Hunter", 0, 3, 0, 0),
    ("chest", "Stash of Silver Pieces", 0, 5, 1, 1),
    ("chest", "Chest of Gold Coins", 0, 5, 1, 1),
    ("chest", "Coffer of Gems", 0, 5, 1, 0),
    ("chest", "Casket of Pearls", 0, 5, 1, 0),
    ("jewelry", "Copper Bracelet", 1, 5, 1, 1),
    ("jewelry", "Silver Necklace", 2, 4, 1, 0),
    ("jewelry", "Golden Ring", 3, 3, 1, 0),
    ("jewelry", "Ruby Amulet", 4, 2, 0, 0),
    ("jewelry", "Dragon Crown", 5, 1, 0, 0),
    ("relic", "Spyglass", 0, 2, 1, 0),
    ("relic", "Ring of Fire", 0, 2, 0, 1),
    ("relic", "Knight's Bane", 0, 2, 1, 0),
    ("relic", "Curse Breaker", 0, 2, 0, 0),
    ("relic", "Lucky Chest", 0, 2, 0, 0),
]


def card_key(card: dict) -> tuple:
    if card.get("category") == "dragonflame":
        return ("Dragonflame", int(card.get("fire", 1)))
    return (card.get("name", ""), 0)


def end_score(cards: list) -> float:
    """The rules' end score of a hoard (docs/rules.md rows 45-66 and the ladder's readings)."""
    names: dict = {}
    for c in cards:
        names[c.get("name", "")] = names.get(c.get("name", ""), 0) + 1
    s = 0.0
    for st in STATUES:
        if names.get(st, 0) == 1:
            s += 5
    chest_counts = sorted((names.get(c, 0) for c in CHESTS if names.get(c, 0)), reverse=True)
    sets = 1 + names.get("Lucky Chest", 0)
    for i, n in enumerate(chest_counts):
        s += n * n if i < sets else -n
    for j, v in JEWELS.items():
        s += v * names.get(j, 0)
    if names.get("Princess", 0):
        s += sum(1 for n in (*STATUES, *CHESTS, *JEWELS) if names.get(n, 0))
    knights = max(0, names.get("Knight", 0) - 2 * names.get("Knight's Bane", 0))
    s -= 3 * knights
    if names.get("Curse", 0) and not names.get("Curse Breaker", 0):
        s -= 2 * len(chest_counts)
    return s


class Outsider(Bot):
    def setup(self, hello: dict) -> None:
        super().setup(hello)
        self.seen: set = set()
        self.pool: dict = {}
        n = self.num_players
        for _cat, name, extra, copies, v, ii in DECK:
            count = copies - (v if n < 5 else 0) - (ii if n == 2 else 0)
            key = ("Dragonflame", extra) if name == "Dragonflame" else (name, 0)
            self.pool[key] = self.pool.get(key, 0) + count
        self._unknown_cache: dict = {}
        self.proto: dict = {}
        for cat, name, extra, *_ in DECK:
            card = {"category": cat, "name": name}
            if cat == "dragonflame":
                card["fire"] = extra
            if cat == "jewelry":
                card["value"] = extra
            self.proto[card_key(card)] = card

    # ------------------------------------------------------------------ what has been seen

    def see(self, card: dict | None) -> None:
        if not card or not card.get("id") or card["id"] in self.seen:
            return
        self.seen.add(card["id"])
        k = card_key(card)
        if self.pool.get(k, 0) > 0:
            self.pool[k] -= 1

    def on_event(self, event: dict) -> None:
        data = event.get("data") or {}
        for key in ("cards", "face_up"):
            for c in data.get(key) or []:
                if isinstance(c, dict):
                    self.see(c)
        if isinstance(data.get("card"), dict):
            self.see(data["card"])

    def absorb(self, obs: dict) -> None:
        for c in obs.get("hand") or []:
            self.see(c)
        for h in obs.get("hoards") or []:
            for c in h:
                self.see(c)
        for castle in obs.get("castles") or []:
            for c in castle.get("cards") or []:
                self.see(c.get("card"))

    # ------------------------------------------------------------------ values

    def rounds_left(self, obs: dict) -> int:
        """Rounds after this one."""
        per = self.num_players * (4 if self.num_players == 2 else 3)
        return max(0, (int(obs.get("deck", 0)) - 1) // per)

    def village_value(self, grid: list, seat: int, rounds_left: int) -> float:
        """Expected Glory `seat` gets from the villages as they burn now."""
        total = 0.0
        for row in grid:
            for v in row:
                spaces = v.get("spaces", 0)
                fire = v.get("fire") or []
                if not spaces or seat not in fire:
                    continue
                f = len(fire)
                p = 1.0 if f >= spaces else (f / spaces) ** 0.8 * min(1.0, 0.35 + 0.25 * rounds_left)
                dmg: dict = {}
                first: dict = {}
                for i, s in enumerate(fire):
                    dmg[s] = dmg.get(s, 0) + 1
                    first.setdefault(s, i)
                ranking = sorted(dmg, key=lambda s: (-dmg[s], first[s]))
                rank = ranking.index(seat)
                table = PAYOUT.get(spaces, (0,))
                total += p * (table[rank] if rank < len(table) else 0)
        return total

    def burn(self, grid: list, seat: int, side: str, index: int, tokens: int) -> list:
        g = [[{"spaces": v.get("spaces", 0), "fire": list(v.get("fire") or [])} for v in row] for row in grid]
        rows, cols = len(g), len(g[0]) if g else 0
        if side in ("left", "right"):
            if index >= rows:
                return g
            path = [(index, c) for c in range(cols)]
            if side == "right":
                path.reverse()
        else:
            if index >= cols:
                return g
            path = [(r, index) for r in range(rows)]
            if side == "bottom":
                path.reverse()
        for (r, c) in path[:tokens]:
            cell = g[r][c]
            if cell["spaces"] and len(cell["fire"]) < cell["spaces"]:
                cell["fire"].append(seat)
        return g

    def lines(self, grid: list) -> list:
        rows, cols = len(grid), len(grid[0]) if grid else 0
        out = [{"side": s, "index": i} for s in ("left", "right") for i in range(rows)]
        out += [{"side": s, "index": i} for s in ("top", "bottom") for i in range(cols)]
        return out

    def flame_gain(self, obs: dict, seat: int, tokens: int, line: dict) -> float:
        grid = obs.get("grid") or []
        left = self.rounds_left(obs)
        after = self.burn(grid, seat, line["side"], line["index"], tokens)
        mine = self.village_value(after, seat, left) - self.village_value(grid, seat, left)
        others = [s for s in range(self.num_players) if s != seat]
        theirs = sum(self.village_value(after, s, left) - self.village_value(grid, s, left) for s in others)
        return mine - 0.35 * theirs / max(1, len(others))

    def best_flame(self, obs: dict, seat: int, fire: int) -> float:
        supply = (obs.get("fire") or [15] * self.num_players)[seat]
        if supply <= 0:
            return 0.0
        tokens = min(supply, fire)
        return max((self.flame_gain(obs, seat, tokens, ln) for ln in self.lines(obs.get("grid") or [])), default=0.0)

    def potential(self, cards: list, obs: dict, seat: int) -> float:
        """What end_score misses: Dragonflames burn at once; Relics help later."""
        left = self.rounds_left(obs)
        rings = sum(1 for c in (obs.get("hoards") or [[]] * self.num_players)[seat] if c.get("name") == "Ring of Fire")
        v = 0.0
        for c in cards:
            name = c.get("name")
            if c.get("category") == "dragonflame":
                rings_now = rings + sum(1 for x in cards if x.get("name") == "Ring of Fire")
                fire = int(c.get("fire", 1)) + rings_now
                v += max(0.0, self.best_flame(obs, seat, fire)) * 1.1 + (0.4 * fire if left else 0.0)
            elif name == "Ring of Fire":
                v += 0.6 * min(3, left)
            elif name == "Spyglass":
                v += 0.5 if left else 0.0
            elif name in ("Knight's Bane", "Curse Breaker", "Lucky Chest"):
                v += 0.7 if left else 0.0
        return v

    def gain(self, obs: dict, seat: int, cards: list) -> float:
        hoard = (obs.get("hoards") or [[]] * self.num_players)[seat]
        # a second Princess or Curse is discarded at once
        has = {c.get("name") for c in hoard}
        extra, taken = [], set()
        for c in cards:
            if c.get("name") in ("Princess", "Curse"):
                if c.get("name") in has or c.get("name") in taken:
                    continue
                taken.add(c.get("name"))
            extra.append(c)
        return end_score(hoard + extra) - end_score(hoard) + self.potential(extra, obs, seat)

    def unknown_value(self, obs: dict, seat: int) -> float:
        """The mean gain to `seat` of one card it has not seen."""
        total = sum(self.pool.values())
        if total <= 0:
            return 0.0
        cache = self._unknown_cache
        if seat in cache:
            return cache[seat]
        v = 0.0
        for k, n in self.pool.items():
            if n > 0:
                v += n * self.gain(obs, seat, [self.proto[k]])
        cache[seat] = v / total
        return cache[seat]

    def castle_value(self, obs: dict, seat: int, castle: dict, extra: tuple | None = None) -> float:
        """Worth of looting `castle` to `seat`, as far as I can tell (`extra`: (card, face) I add)."""
        known, unknown = [], 0
        cards = list(castle.get("cards") or [])
        if extra is not None:
            cards.append({"card": extra[0], "face": extra[1], "by": self.seat})
        for c in cards:
            if c.get("card") and (c.get("face") == "up" or seat == self.seat):
                known.append(c["card"])
            else:
                unknown += 1
        v = self.gain(obs, seat, known) + unknown * self.unknown_value(obs, seat)
        return v + self.banner_value(obs, castle.get("number", 1))

    def banner_value(self, obs: dict, number: int) -> float:
        if self.rounds_left(obs) == 0:
            return float(number)
        return 0.35 * (6 - number)  # a low banner attacks first next round

    # ------------------------------------------------------------------ prediction

    def assign(self, obs: dict, castles: list, extra: tuple | None = None, target: int | None = None) -> dict:
        """Who loots which castle: seats in banner order, each taking its best remaining one."""
        order = [s for s in (obs.get("order") or []) if (obs.get("looted") or [None] * self.num_players)[s] is None]
        free = [c for c in castles if c.get("attacker") is None]
        out = {}
        for s in order:
            if not free:
                break
            best = max(free, key=lambda c: self.castle_value(obs, s, c, extra if c.get("number") == target else None))
            out[best.get("number")] = s
            free.remove(best)
        return out

    def leader_weight(self, obs: dict, seat: int) -> float:
        hoards = obs.get("hoards") or []
        scores = [end_score(h) for h in hoards] or [0]
        mine = scores[self.seat] if self.seat < len(scores) else 0
        return 0.45 + (0.25 if scores[seat] >= mine else 0.0)

    # ------------------------------------------------------------------ decisions

    def play(self, obs: dict) -> dict:
        self._unknown_cache = {}
        self.absorb(obs)
        req = obs["request"]
        hand = {c["id"]: c for c in obs.get("hand") or []}
        if not req.get("castles"):
            # nothing has room: discard the card that hurts me least to lose
            return {"card": min(req["cards"], key=lambda i: self.gain(obs, self.seat, [hand[i]]) if i in hand else 0),
                    "castle": None}
        castles = obs.get("castles") or []
        face = req.get("face", "up")
        best, best_v = None, -1e9
        for cid in req["cards"]:
            card = hand.get(cid)
            if card is None:
                continue
            for number in req["castles"]:
                who = self.assign(obs, castles, (card, face), number)
                owner = who.get(number)
                if owner == self.seat:
                    v = self.gain(obs, self.seat, [card])
                elif owner is None:
                    v = 0.0  # discarded with the castle nobody takes
                else:
                    v = -self.leader_weight(obs, owner) * self.gain(obs, owner, [card])
                # where does that leave me overall: my castle's worth
                mine = [c for c in castles if who.get(c.get("number")) == self.seat]
                if mine:
                    extra = (card, face) if mine[0].get("number") == number else None
                    v += 0.3 * self.castle_value(obs, self.seat, mine[0], extra)
                v += self.rng.random() * 1e-6
                if v > best_v:
                    best, best_v = {"card": cid, "castle": number}, v
        if best is None:
            return {"card": req["cards"][0], "castle": req["castles"][0]}
        return best

    def spy(self, obs: dict) -> dict:
        req = obs["request"]
        if not req.get("castles"):
            return {"castle": None}
        by_num = {c.get("number"): c for c in obs.get("castles") or []}

        def unknown(n: int) -> int:
            return sum(1 for c in by_num.get(n, {}).get("cards") or [] if not c.get("card"))

        return {"castle": max(req["castles"], key=lambda n: (unknown(n), n))}

    def attack(self, obs: dict) -> dict:
        self._unknown_cache = {}
        self.absorb(obs)
        req = obs["request"]
        by_num = {c.get("number"): c for c in obs.get("castles") or []}
        order = obs.get("order") or []
        looted = obs.get("looted") or [None] * self.num_players
        after = [s for s in order if s != self.seat and looted[s] is None]
        nxt = after[0] if after else None

        def value(n: int) -> float:
            c = by_num.get(n, {"number": n, "cards": []})
            v = self.castle_value(obs, self.seat, c)
            if nxt is not None:
                # denial: taking what the next attacker wants most hurts it
                theirs = {m: self.castle_value(obs, nxt, by_num.get(m, {"number": m, "cards": []}))
                          for m in req["castles"]}
                best = max(theirs.values())
                rest = max((x for m, x in theirs.items() if m != n), default=0.0)
                v += 0.25 * self.leader_weight(obs, nxt) * max(0.0, best - rest) * (1 if theirs[n] == best else 0)
            return v

        return {"castle": max(req["castles"], key=lambda n: (value(n), -n))}

    def flame(self, obs: dict) -> dict:
        req = obs["request"]
        tokens = int(req.get("tokens", 1))
        best = max(req["lines"], key=lambda ln: self.flame_gain(obs, self.seat, tokens, ln))
        return {"side": best["side"], "index": best["index"]}


if __name__ == "__main__":
    run(Outsider)
