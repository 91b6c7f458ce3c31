"""Drachengold: a hard-headed negotiator, in the style of the negotiation competitions' baselines.

It never concedes: every round it proposes the same split, CLAIM times its fair part of the
treasure (fair: in proportion to attack, tokens at face worth), and it accepts only proposals
that give it at least RESERVATION times its fair part, even in the last round, when refusing
sends the treasure to the box lid. Against opponents that concede it takes the lion's share;
against one as stubborn, both lose the treasure. It fights, steals and trades like a plain
greedy player. Run it with `ladder match drachengold/hardhead.py builtin:greedy builtin:bargainer`.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

# Rough worth of a token: face value, gems counted for their share of majority bonuses.
VALUE = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}


def value(tokens: list[dict[str, str]]) -> float:
    return sum(VALUE[t["colour"]] for t in tokens)


def split_by_weight(tokens: list[dict[str, str]], weights: dict[int, float]) -> dict[int, list[dict[str, str]]]:
    """Most valuable tokens first, each to the seat furthest below its weighted target."""
    total, mass = value(tokens), sum(weights.values()) or 1.0
    shares: dict[int, list[dict[str, str]]] = {s: [] for s in weights}
    for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
        seat = max(weights, key=lambda s: (weights[s] / mass * total - value(shares[s]), -s))
        shares[seat].append(t)
    return shares


def fair(neg: dict[str, Any], seat: int) -> float:
    """The face worth of seat's part of the treasure in proportion to its attack."""
    attack = neg["attack"]
    return value(neg["tokens"]) * attack.get(str(seat), 0) / max(1, sum(attack.values()))


def progress(neg: dict[str, Any]) -> float:
    """0.0 in the first round, 1.0 in the last."""
    return (neg["round"] - 1) / max(1, neg["rounds"] - 1)


CLAIM, RESERVATION = 1.6, 1.2  # times its fair part: what it proposes, the least it accepts


class HardheadBot(Bot):
    # ---- the negotiation: the same high claim every round -----------------------------------
    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        weights = {s: float(neg["attack"].get(str(s), 0)) or 0.5 for s in neg["involved"]}
        others = sum(w for s, w in weights.items() if s != self.seat)
        part = min(0.95, CLAIM * weights[self.seat] / sum(weights.values()))
        weights[self.seat] = part / (1.0 - part) * others if others else 1.0
        shares = split_by_weight(neg["tokens"], weights)
        return {"shares": {str(s): [t["id"] for t in ts] for s, ts in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        colours = {t["id"]: t for t in neg["tokens"]}
        bar = fair(neg, self.seat) * RESERVATION
        return {"accept": [p["id"] for p in neg["standing"]
                           if value([colours[t] for t in p["shares"].get(str(self.seat), [])]) >= bar - 1e-9]}

    # ---- the rest: a plain greedy player ------------------------------------------------
    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        mine = {a["id"]: a["attack"] for a in obs["adventurers"][self.seat]}
        req, best = obs["request"], None
        for dragon in (d for d in obs["dragons"] if d and d["id"] in req["dragons"]):
            loot = value(dragon["tokens"]) + 2.0 * dragon["hidden"]
            my_now = sum(a["attack"] for a in dragon["attackers"] if a["seat"] == self.seat)
            for adv in req["adventurers"]:
                total = dragon["total"] + mine[adv]
                share = (my_now + mine[adv]) / total
                # A kill pays now; a wound pays only if a later kill still leaves a good share.
                score = loot * share * (1.0 if total >= dragon["strength"] else 0.35) - 0.3 * mine[adv]
                if best is None or score > best[0]:
                    best = (score, adv, dragon["id"])
        assert best is not None
        return {"adventurer": best[1], "dragon": best[2]}

    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        cards = {c["kind"]: c["id"] for c in obs["request"]["cards"]}
        if "windfall" in cards and obs["bag"] > 0:
            return {"card": cards["windfall"]}
        return {"card": None}

    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        # The divider chooses last, so only shares of even worth protect it.
        k, tokens = obs["request"]["shares"], obs["strategic"]["tokens"]
        shares: list[list[dict[str, str]]] = [[] for _ in range(k)]
        for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
            min(shares, key=lambda s: (value(s), len(s))).append(t)
        for share in shares:
            if not share and len(tokens) >= k:
                share.append(max(shares, key=len).pop())
        return {"shares": [[t["id"] for t in share] for share in shares]}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        st = obs["strategic"]
        colours = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"], key=lambda i: (value([colours[t] for t in st["shares"][i]]), -i))
        return {"share": best}

    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        sizes = obs["request"]["hoard_sizes"]
        return {"victim": max(obs["request"]["candidates"], key=lambda s: (sizes[str(s)], -s))}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"token": max(obs["request"]["hoard"], key=lambda t: (VALUE[t["colour"]], t["id"]))["id"]}

    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"offers": []}

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        free, accept = list(obs["hoard"]), []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += sorted((t for t in free if t["colour"] == colour), key=lambda t: t["id"])[:count]
            if len(pay) == sum(offer["want"].values()) and value(offer["give"]) > value(pay):
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}


if __name__ == "__main__":
    run(HardheadBot)
