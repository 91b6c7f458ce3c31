"""Drachengold: a market trader. Copy this file to start a bot of your own.

It keeps a rough ledger of who holds which colours from the public events (treasures taken,
agreed splits, strategic choices, the wizard's rubies; thefts and trades stay hidden), and values
a hoard by its face points plus its chances at each gem majority. When the market opens it offers
tokens it can spare (gems whose majority is out of reach, or plain gold) for gems that would win
or secure a majority, to the players most likely to hold them, priced so a face-value player
gains too; it accepts any offer that raises its own estimate. It fights and shares like a plain
greedy bot. Run it with `ladder match drachengold/trader.py builtin:greedy builtin:greedy`.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

# Face worth as most bots see it (gems count a little for majorities): what a partner weighs.
VALUE = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}
GEMS = ("green", "blue", "purple", "yellow", "white")
FACE = {"basic": {"silver": 1, "gold": 3, "red": 1, "black": 7},
        "advanced-a": {"silver": 1, "gold": 3, "red": 1, "black": 0},  # the black token curses its owner
        "advanced-b": {"silver": 1, "gold": 3, "red": 1, "black": 0}}
MAJORITY = {"basic": {3: 15, 4: 12, 5: 12, 6: 10}, "advanced-a": {3: 12, 4: 10, 5: 10, 6: 8},
            "advanced-b": {3: 12, 4: 10, 5: 10, 6: 8}}
# Chance of holding a majority by margin over the best rival (ties score in basic rules).
WIN_CHANCE = {-2: 0.05, -1: 0.2, 0: 0.45, 1: 0.75, 2: 0.9}


def value(tokens: list[dict[str, str]]) -> float:
    return sum(VALUE[t["colour"]] for t in tokens)


class TraderBot(Bot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.ledger = [Counter() for _ in range(self.num_players)]  # public gains per seat
        self.tokens: dict[str, str] = {}  # strategic variant: the tokens being divided, id -> colour
        self.division: list[list[str]] = []

    # ---- the ledger -------------------------------------------------------------------
    def on_event(self, event: dict[str, Any]) -> None:
        kind, data = event["type"], event["data"]
        if kind in ("treasure_taken", "wizard_seizes"):
            self.ledger[data["seat"]].update(t["colour"] for t in data["tokens"])
        elif kind == "split":
            for seat, tokens in data["shares"].items():
                self.ledger[int(seat)].update(t["colour"] for t in tokens)
        elif kind == "divide":
            self.tokens = {t["id"]: t["colour"] for t in data["tokens"]}
        elif kind == "division":
            self.division = data["shares"]
        elif kind == "chosen":
            self.ledger[data["seat"]].update(self.tokens[t] for t in self.division[data["share"]])

    def estimate(self, colours: Counter) -> float:
        """Face points plus expected majority points of a hoard with these colour counts."""
        rules = self.options.get("rules", "basic")
        points = sum(FACE[rules].get(c, 0) * n for c, n in colours.items())
        bonus = MAJORITY[rules].get(self.num_players, 10)
        for gem in GEMS:
            if colours[gem]:
                rival = max((self.ledger[s][gem] for s in range(self.num_players) if s != self.seat), default=0)
                margin = max(-2, min(2, colours[gem] - rival))
                points += WIN_CHANCE[margin] * bonus
        return points

    def gain(self, hoard: list[dict[str, str]], lose: list[dict[str, str]], get: Counter) -> float:
        before = Counter(t["colour"] for t in hoard)
        after = before - Counter(t["colour"] for t in lose) + get
        return self.estimate(after) - self.estimate(before)

    # ---- the market -------------------------------------------------------------------
    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        hoard = obs["hoard"]
        by_colour = {t["colour"]: t for t in sorted(hoard, key=lambda t: t["id"])}
        singles = [[t] for t in by_colour.values()]
        pairs = [list(p) for p in combinations(by_colour.values(), 2)]
        ideas = []
        for want in GEMS:
            for give in singles + pairs:
                # A face-value partner accepts only when it gains too; we must gain by our estimate.
                if any(t["colour"] == want for t in give) or value(give) <= VALUE[want]:
                    continue
                mine = self.gain(hoard, give, Counter({want: 1}))
                if mine > 0.5:
                    ideas.append((mine, want, give))
        offers, used, partners = [], set(), set()
        others = [s for s in range(obs["players"]) if s != self.seat and obs["hoard_sizes"][s] > 0]
        for _gain, want, give in sorted(ideas, key=lambda i: (-i[0], i[1], [t["id"] for t in i[2]])):
            ids = {t["id"] for t in give}
            holders = [s for s in others if s not in partners]
            if ids & used or not holders:
                continue
            to = max(holders, key=lambda s: (self.ledger[s][want], obs["hoard_sizes"][s], -s))
            offers.append({"to": to, "give": sorted(ids), "want": {want: 1}})
            used |= ids
            partners.add(to)
            if len(offers) == obs["request"]["max_offers"]:
                break
        return {"offers": offers}

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        hoard = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += sorted((t for t in hoard if t["colour"] == colour), key=lambda t: t["id"])[:count]
            if len(pay) != sum(offer["want"].values()):
                continue
            get = Counter(t["colour"] for t in offer["give"])
            if self.gain(hoard, pay, get) > 0:
                hoard = [t for t in hoard if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}

    # ---- fighting and sharing, as a plain greedy bot ------------------------------------
    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        mine = {a["id"]: a["attack"] for a in obs["adventurers"][self.seat]}
        req, best = obs["request"], None
        for dragon in (d for d in obs["dragons"] if d and d["id"] in req["dragons"]):
            loot = value(dragon["tokens"]) + 2.0 * dragon["hidden"]
            my_now = sum(a["attack"] for a in dragon["attackers"] if a["seat"] == self.seat)
            for adv in req["adventurers"]:
                total = dragon["total"] + mine[adv]
                share = (my_now + mine[adv]) / total
                score = loot * share * (1.0 if total >= dragon["strength"] else 0.35) - 0.3 * mine[adv]
                if best is None or score > best[0]:
                    best = (score, adv, dragon["id"])
        assert best is not None
        return {"adventurer": best[1], "dragon": best[2]}

    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        cards = {c["kind"]: c["id"] for c in obs["request"]["cards"]}
        return {"card": cards["windfall"] if "windfall" in cards and obs["bag"] > 0 else None}

    def _split(self, tokens: list[dict[str, str]], weights: dict[int, float]) -> dict[int, list[str]]:
        total, mass = value(tokens), sum(weights.values()) or 1.0
        shares: dict[int, list[dict[str, str]]] = {s: [] for s in weights}
        for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
            seat = max(weights, key=lambda s: (weights[s] / mass * total - value(shares[s]), -s))
            shares[seat].append(t)
        return {s: [t["id"] for t in ts] for s, ts in shares.items()}

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        shares = self._split(neg["tokens"], {s: float(neg["attack"].get(str(s), 1)) for s in neg["involved"]})
        return {"shares": {str(s): ids for s, ids in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        colours = {t["id"]: t for t in neg["tokens"]}
        fair = value(neg["tokens"]) * neg["attack"].get(str(self.seat), 0) / max(1, sum(neg["attack"].values()))
        floor = fair * (1.0 - 0.6 * neg["round"] / neg["rounds"])
        return {"accept": [p["id"] for p in neg["standing"]
                           if value([colours[t] for t in p["shares"].get(str(self.seat), [])]) >= floor - 1e-9]}

    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        k, tokens = obs["request"]["shares"], obs["strategic"]["tokens"]
        shares = self._split(tokens, {i: 1.0 for i in range(k)})
        out = [shares[i] for i in range(k)]
        for i in range(k):
            if not out[i] and len(tokens) >= k:
                out[i].append(out[max(range(k), key=lambda j: len(out[j]))].pop())
        return {"shares": out}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        st = obs["strategic"]
        colours = {t["id"]: t for t in st["tokens"]}
        hoard = obs["hoard"]

        def worth(i: int) -> float:
            return self.gain(hoard, [], Counter(colours[t]["colour"] for t in st["shares"][i]))

        return {"share": max(obs["request"]["remaining"], key=lambda i: (worth(i), -i))}

    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        sizes = obs["request"]["hoard_sizes"]
        return {"victim": max(obs["request"]["candidates"], key=lambda s: (sizes[str(s)], -s))}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        hoard = obs["hoard"]
        best = max(obs["request"]["hoard"], key=lambda t: (self.gain(hoard, [], Counter({t["colour"]: 1})), t["id"]))
        return {"token": best["id"]}


if __name__ == "__main__":
    run(TraderBot)
