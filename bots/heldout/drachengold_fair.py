"""Held-out outsider for Drachengold: expected-treasure attacks and a fair-share negotiator.

Written from the rules and the protocol only (bots/heldout/README.md). Tokens are valued at the
margin for whoever gets them: face points, and for a gem the change in that seat's chance to hold
the colour's majority (a ledger of every colour each seat took in public; the spread of the race
grows with the tokens of that colour still unseen), full sets and the curse under the advanced rules.
It attacks where the expected treasure it takes (a solo kill's whole hoard, a shared kill's share
by attack, a thief's loot, a wound's later claim) is best, using the smallest adventurer that does
the job. It proposes splits in proportion to attack, asking a quarter more for itself at first and
conceding to 0.9 of its share by the deadline, and accepts a split worth 1.2 times its fair share
at first, conceding to 0.9 in the last round (firm: a negotiator seen to take little at the
deadline is offered little).
"""

from __future__ import annotations

import math
from collections import Counter

from bots.sdk import Bot, run

FACE = {"silver": 1.0, "gold": 3.0, "red": 1.0}
GEMS = ("green", "blue", "purple", "yellow", "white")
TOTALS = {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12, "purple": 12, "yellow": 12, "white": 6,
          "black": 1}  # the bag (docs/rules.md)
MAJORITY = {"basic": {3: 15, 4: 12, 5: 12, 6: 10}, "adv": {3: 12, 4: 10, 5: 10, 6: 8}}
AGREE = 0.8  # chance a shared treasure is agreed at all


def _phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class DrachengoldFair(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.rules = self.options.get("rules", "basic")
        self.advanced = self.rules != "basic"
        n = self.num_players
        self.bonus = MAJORITY["adv" if self.advanced else "basic"].get(n, 12)
        self.ledger = [Counter() for _ in range(n)]
        self.seen = {}

    # ---- the ledger of public colours --------------------------------------------------------------

    def _see(self, tokens):
        for t in tokens or []:
            self.seen[t["id"]] = t["colour"]

    def on_event(self, event):
        t, d = event.get("type"), event.get("data") or {}
        for key in ("tokens", "hidden"):
            if isinstance(d.get(key), list):
                self._see([x for x in d[key] if isinstance(x, dict)])
        if t in ("treasure_taken", "wizard_seizes"):
            self.ledger[d["seat"]].update(x["colour"] for x in d["tokens"])
        elif t == "split":
            for seat, tokens in d["shares"].items():
                self.ledger[int(seat)].update(x["colour"] for x in tokens)
        elif t == "divide":
            self._division = {"cols": {x["id"]: x["colour"] for x in d["tokens"]}, "divider": d["divider"],
                              "shares": [], "taken": set()}
        elif t == "division" and hasattr(self, "_division"):
            self._division["shares"] = d["shares"]
        elif t == "chosen" and hasattr(self, "_division"):
            div = self._division
            div["taken"].add(d["share"])
            self.ledger[d["seat"]].update(div["cols"].get(x, "silver") for x in div["shares"][d["share"]])
            left = [i for i in range(len(div["shares"])) if i not in div["taken"]]
            if len(left) == 1:  # the divider takes the last share
                self.ledger[div["divider"]].update(div["cols"].get(x, "silver") for x in div["shares"][left[0]])
        elif t == "stolen":
            self.ledger[d["victim"]][d["colour"]] -= 1
            self.ledger[d["seat"]][d["colour"]] += 1

    def _counts(self, obs):
        counts = [Counter(c) for c in self.ledger]
        counts[self.seat] = Counter(t["colour"] for t in obs.get("hoard", []))
        return counts

    # ---- what a token is worth to a seat -----------------------------------------------------------

    def _valuer(self, obs):
        counts = self._counts(obs)
        seen = Counter(self.seen.values())
        unseen = {c: max(0, TOTALS[c] - seen[c]) for c in TOTALS}
        n = self.num_players
        ties_full = not self.advanced

        def lead_chance(seat, colour, mine):
            best = max((counts[s][colour] for s in range(n) if s != seat), default=0)
            spread = 0.6 + 0.45 * math.sqrt(unseen[colour] / max(1, n - 1))
            return _phi((mine - best + (0.5 if ties_full else 0.0)) / spread) if mine else 0.0

        def value(seat, colours, extra=None):
            """What these colours add to `seat`'s score, taken together."""
            have = Counter(counts[seat])
            if extra:
                have.update(extra)
            cursed = self.advanced and have["black"] > 0
            total = 0.0
            for colour in colours:
                if colour in FACE:
                    total += FACE[colour]
                elif colour == "black":
                    face = 7.0 if not self.advanced else (19.0 if self.rules == "advanced-a" else 15.0)
                    if self.advanced and not cursed:
                        lost = sum(self.bonus * lead_chance(seat, g, have[g]) for g in GEMS)
                        face -= 0.8 * lost
                        cursed = True
                    total += face
                elif colour in GEMS:
                    if cursed:
                        total += 0.3
                    else:
                        before = lead_chance(seat, colour, have[colour])
                        after = lead_chance(seat, colour, have[colour] + 1)
                        total += self.bonus * (after - before)
                        if self.rules == "advanced-a":
                            low = min(have[g] for g in GEMS)
                            total += 3.0 if have[colour] == low else 0.4
                        elif self.rules == "advanced-b" and have[colour] == 0:
                            missing = sum(1 for g in GEMS if have[g] == 0)
                            total += 4.0 / max(1, missing)
                        total += 0.5
                have[colour] += 1
            return total

        return value

    # ---- attacks ---------------------------------------------------------------------------------

    def _bag_mean(self, obs, value):
        seen = Counter(self.seen.values())
        pool = {c: max(0, TOTALS[c] - seen[c]) for c in TOTALS}
        total = sum(pool.values()) or 1
        return sum(k * value(self.seat, [c]) for c, k in pool.items()) / total

    def attack(self, obs):
        req = obs["request"]
        value = self._valuer(obs)
        mean = self._bag_mean(obs, value)
        dragons = {d["id"]: d for d in obs["dragons"] if d}
        mine = {a["id"]: a for a in obs["adventurers"][self.seat]}
        best, top = None, -1e9
        for did in req["dragons"]:
            d = dragons[did]
            hidden = min(d["hidden"], obs["bag"])
            colours = [t["colour"] for t in d["tokens"]]
            for aid in req["adventurers"]:
                adv = mine[aid]
                v = self._attack_value(obs, d, adv, colours, hidden, value, mean) - 0.15 * adv["attack"]
                if v > top:
                    best, top = {"adventurer": aid, "dragon": did}, v
        return best

    def _attack_value(self, obs, d, adv, colours, hidden, value, mean):
        attack = {}
        for a in d["attackers"]:
            attack[a["seat"]] = attack.get(a["seat"], 0) + a["attack"]
        attack[self.seat] = attack.get(self.seat, 0) + adv["attack"]
        total = sum(attack.values())
        others = [s for s in attack if s != self.seat]
        treasure = value(self.seat, colours) + hidden * mean
        if total >= d["strength"]:
            if not others:
                return treasure + 0.5
            share = attack[self.seat] / total
            mine = AGREE * share * treasure
            thief = any(a["seat"] == self.seat and a["adventurer"] == "thief" for a in d["attackers"])
            if adv["role"] == "thief" or thief:
                mine += mean
            return mine
        # a wound: a later claim on the treasure (more surely where I fight alone), for an adventurer
        # tied up until the kill. (Counting what it lets the next seats take, or what a shared kill
        # gives the others, lost places in trials against the built-in bots.)
        share = attack[self.seat] / max(d["strength"], total)
        claim = (0.6 if not others else 0.35) * share * treasure
        return claim - 0.6

    # ---- negotiation -----------------------------------------------------------------------------

    def _fair(self, neg):
        attack = {int(s): a for s, a in neg["attack"].items()}
        total = sum(attack.values()) or 1
        return {s: a / total for s, a in attack.items()}

    def _stage(self, neg):
        rounds = max(1, neg["rounds"])
        return (neg["round"] - 1) / max(1, rounds - 1)

    def propose(self, obs):
        neg = obs["negotiation"]
        value = self._valuer(obs)
        fair = self._fair(neg)
        t = self._stage(neg)
        greed = 1.25 - 0.35 * t
        return {"shares": self._split(neg, value, fair, greed)}

    def _split(self, neg, value, fair, greed):
        tokens = neg["tokens"]
        involved = [int(s) for s in neg["involved"]]
        mine_total = value(self.seat, [t["colour"] for t in tokens])
        part = fair[self.seat]
        target = min(greed * part, part + 0.5 * (1 - part)) * mine_total
        # my best tokens (by what I gain over what they are worth at face to others) until target
        order = sorted(tokens, key=lambda t: -(value(self.seat, [t["colour"]]) - 0.3 * FACE.get(t["colour"], 4.0)))
        shares = {s: [] for s in involved}
        got, rest = [], []
        for tok in order:
            if value(self.seat, [c["colour"] for c in got]) < target - 1e-9:
                got.append(tok)
            else:
                rest.append(tok)
        shares[self.seat] = got
        others = [s for s in involved if s != self.seat]
        weight = {s: fair[s] for s in others}
        need = {s: 0.0 for s in others}
        for tok in sorted(rest, key=lambda t: -FACE.get(t["colour"], 4.0)):
            # the seat furthest below its part of what is left
            s = min(others, key=lambda s: need[s] / max(1e-9, weight[s]))
            shares[s].append(tok)
            need[s] += FACE.get(tok["colour"], 4.0)
        return {str(s): [t["id"] for t in shares[s]] for s in involved}

    def vote(self, obs):
        neg = obs["negotiation"]
        value = self._valuer(obs)
        fair = self._fair(neg)
        t = self._stage(neg)
        allc = [x["colour"] for x in neg["tokens"]]
        whole = value(self.seat, allc)
        last = neg["round"] >= neg["rounds"]
        # firm to the end: a negotiator known to take little in the last round is offered little
        floor = (0.9 if last else 1.2 - 0.3 * t) * fair[self.seat] * whole
        cols = {x["id"]: x["colour"] for x in neg["tokens"]}
        accept = []
        for p in neg["standing"]:
            if p["id"] not in obs["request"]["proposals"]:
                continue
            mine = value(self.seat, [cols[i] for i in p["shares"].get(str(self.seat), [])])
            if mine >= floor - 1e-9:
                accept.append(p["id"])
        return {"accept": accept}

    # ---- thefts, the strategic split ------------------------------------------------------------------

    def theft_victim(self, obs):
        req = obs["request"]
        sizes = req["hoard_sizes"]
        return {"victim": max(req["candidates"], key=lambda s: (sizes.get(str(s), 0), -s))}

    def theft_pick(self, obs):
        value = self._valuer(obs)
        hoard = obs["request"]["hoard"]
        return {"token": max(hoard, key=lambda t: value(self.seat, [t["colour"]]))["id"]}

    def divide(self, obs):
        value = self._valuer(obs)
        k = obs["request"]["shares"]
        tokens = sorted(obs["strategic"]["tokens"], key=lambda t: -value(self.seat, [t["colour"]]))
        shares = [[] for _ in range(k)]
        worth = [0.0] * k
        for i, tok in enumerate(tokens):
            j = i if i < k else min(range(k), key=lambda j: worth[j])
            shares[j].append(tok["id"])
            worth[j] += value(self.seat, [tok["colour"]])
        return {"shares": shares}

    def choose(self, obs):
        value = self._valuer(obs)
        st = obs["strategic"]
        cols = {x["id"]: x["colour"] for x in st["tokens"]}
        remaining = obs["request"]["remaining"]
        return {"share": max(remaining, key=lambda i: value(self.seat, [cols[x] for x in st["shares"][i]]))}

    # ---- the market ------------------------------------------------------------------------------

    def market_offer(self, obs):
        if obs["request"]["max_offers"] < 1 or not obs["hoard"]:
            return {"offers": []}
        value = self._valuer(obs)
        counts = self._counts(obs)
        gem = max(GEMS, key=lambda g: value(self.seat, [g]))
        holder = max((s for s in range(self.num_players) if s != self.seat), key=lambda s: counts[s][gem])
        if counts[holder][gem] == 0:
            return {"offers": []}
        cheap = sorted(obs["hoard"], key=lambda t: value(self.seat, [t["colour"]]) - FACE.get(t["colour"], 0))
        give = [t for t in cheap if t["colour"] in ("silver", "gold", "red")][:2]
        if not give or sum(value(self.seat, [t["colour"]]) for t in give) >= value(self.seat, [gem]):
            return {"offers": []}
        return {"offers": [{"to": holder, "give": [t["id"] for t in give], "want": {gem: 1}}]}

    def market_answer(self, obs):
        value = self._valuer(obs)
        free = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += [t for t in free if t["colour"] == colour and t not in pay][:count]
            if len(pay) != sum(offer["want"].values()):
                continue
            gain = value(self.seat, [t["colour"] for t in offer["give"]])
            cost = value(self.seat, [t["colour"] for t in pay])
            if gain > cost + 0.5:
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}

    # ---- magic objects (advanced rules) ------------------------------------------------------------

    def magic(self, obs):
        req = obs["request"]
        kinds = {c["kind"]: c["id"] for c in req["cards"]}
        mine = obs["adventurers"][self.seat]
        if "windfall" in kinds and obs["bag"] > 0:
            return {"card": kinds["windfall"]}
        down = sum(1 for a in mine if a["face"] == "down")
        up = [a for a in mine if a["face"] == "up" and a["dragon"] is None]
        if "second_wind" in kinds and down >= 2 and len(up) <= 1:
            return {"card": kinds["second_wind"]}
        if "might" in kinds and up:
            strongest = max(a["attack"] for a in up)
            for d in obs["dragons"]:
                if not d:
                    continue
                need = d["strength"] - d["total"]
                alone = all(a["seat"] == self.seat for a in d["attackers"])
                if strongest < need <= strongest + 3 and alone and d["known"] + d["hidden"] >= 5:
                    return {"card": kinds["might"]}
        if "banish" in kinds:
            for d in obs["dragons"]:
                if not d:
                    continue
                others = [a for a in d["attackers"] if a["seat"] != self.seat]
                mine_on = [a for a in d["attackers"] if a["seat"] == self.seat]
                if len(others) == 1 and mine_on and up and d["known"] + d["hidden"] >= 5:
                    rest = d["total"] - others[0]["attack"]
                    if rest + max(a["attack"] for a in up) >= d["strength"]:
                        o = others[0]
                        return {"card": kinds["banish"], "seat": o["seat"], "adventurer": o["adventurer"]}
        return {"card": None}


if __name__ == "__main__":
    run(DrachengoldFair)
