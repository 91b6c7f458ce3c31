"""Drachengold: a hard bargainer. Copy this file to start a bot of your own.

It fights like a plain greedy bot, but at the table it drives a hard bargain: its proposals give
it far more than its share of the attack would, and it accepts only generous offers. Both soften
round by round, and in the last rounds it settles for a fair share rather than see the treasure
lost. Everything it needs is in its observation (docs/protocol.md); run it with
`ladder match drachengold/bargainer.py builtin:greedy builtin:random`.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

# Rough worth of a token: face value, gems counted for their share of majority bonuses.
VALUE = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}
OPENING_GREED = 2.0  # first-round claim: this many times its fair weight
OPENING_BAR = 1.4  # first-round vote: accept only this many times its fair share
LAST_BAR = 0.85  # last-round vote: a little under fair beats losing everything


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


class BargainerBot(Bot):
    # ---- the bargaining ---------------------------------------------------------------
    def _progress(self, neg: dict[str, Any]) -> float:
        """0.0 in the first round, 1.0 in the last."""
        return (neg["round"] - 1) / max(1, neg["rounds"] - 1)

    def _fair(self, neg: dict[str, Any]) -> float:
        attack = neg["attack"]
        return value(neg["tokens"]) * attack.get(str(self.seat), 0) / max(1, sum(attack.values()))

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        greed = OPENING_GREED - (OPENING_GREED - 1.0) * self._progress(neg)
        weights = {s: float(neg["attack"].get(str(s), 1)) for s in neg["involved"]}
        weights[self.seat] *= greed
        shares = split_by_weight(neg["tokens"], weights)
        return {"shares": {str(s): [t["id"] for t in ts] for s, ts in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        colours = {t["id"]: t for t in neg["tokens"]}
        bar = self._fair(neg) * (OPENING_BAR - (OPENING_BAR - LAST_BAR) * self._progress(neg))
        accept = []
        for p in neg["standing"]:
            mine = value([colours[t] for t in p["shares"].get(str(self.seat), [])])
            if mine >= bar - 1e-9:
                accept.append(p["id"])
        return {"accept": accept}

    lost = 0  # treasures lost for want of an agreement: the price of its hard line

    def on_event(self, event: dict[str, Any]) -> None:
        if event["type"] == "split_failed":
            self.lost += 1

    def on_end(self, message: dict[str, Any]) -> None:  # only as a process: a summary for the log
        self.log(f"game over: {self.lost} treasure(s) lost without agreement; results {message['results']}")

    # ---- the strategic variant: the same hard line ----------------------------------------
    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        # The divider chooses last, so only an even division protects it.
        k = obs["request"]["shares"]
        tokens = obs["strategic"]["tokens"]
        shares = split_by_weight(tokens, {i: 1.0 for i in range(k)})
        out = [[t["id"] for t in shares[i]] for i in range(k)]
        for i in range(k):
            if not out[i] and len(tokens) >= k:
                out[i].append(out[max(range(k), key=lambda j: len(out[j]))].pop())
        return {"shares": out}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        st = obs["strategic"]
        colours = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"], key=lambda i: (value([colours[t] for t in st["shares"][i]]), -i))
        return {"share": best}

    # ---- fighting ---------------------------------------------------------------------
    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        mine = {a["id"]: a["attack"] for a in obs["adventurers"][self.seat]}
        req = obs["request"]
        best = None
        for dragon in (d for d in obs["dragons"] if d and d["id"] in req["dragons"]):
            loot = value(dragon["tokens"]) + 2.0 * dragon["hidden"]
            my_now = sum(a["attack"] for a in dragon["attackers"] if a["seat"] == self.seat)
            for adv in req["adventurers"]:
                total = dragon["total"] + mine[adv]
                share = (my_now + mine[adv]) / total
                # It bargains hard, so a big share of the attack is worth even more to it.
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

    # ---- thieves and the market ---------------------------------------------------------
    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        sizes = obs["request"]["hoard_sizes"]
        return {"victim": max(obs["request"]["candidates"], key=lambda s: (sizes[str(s)], -s))}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"token": max(obs["request"]["hoard"], key=lambda t: (VALUE[t["colour"]], t["id"]))["id"]}

    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"offers": []}

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        free = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += sorted((t for t in free if t["colour"] == colour), key=lambda t: t["id"])[:count]
            # Only a clearly good deal: what it gets must beat what it pays by half again.
            if len(pay) == sum(offer["want"].values()) and value(offer["give"]) > 1.5 * value(pay):
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}


if __name__ == "__main__":
    run(BargainerBot)
