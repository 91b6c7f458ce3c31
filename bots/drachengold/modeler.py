"""Drachengold: an opponent modeler, in the style of the negotiation competitions' baselines.

It remembers, for each opponent, every split that opponent accepted at a table it shared: the
opponent's share as a ratio of its fair part (fair: in proportion to attack, tokens at face
worth) and the round. It then proposes each opponent the least it accepted before at that stage
of a negotiation (its fair part while it knows nothing), keeping the rest, and accepts any
proposal that gives it a fair part, less as the deadline nears. It fights, steals and trades like
a plain greedy player. Run it with `ladder match drachengold/modeler.py builtin:greedy builtin:bargainer`.
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


class ModelerBot(Bot):
    # ---- the negotiation: offer each opponent what it accepted before --------------------
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.accepted: dict[int, list[tuple[float, float]]] = {}  # seat -> (stage, share / fair)
        self.neg: dict[str, Any] | None = None

    def on_event(self, event: dict[str, Any]) -> None:
        # The votes of a negotiation it is part of: the observation gave it the attack totals.
        if event["type"] == "votes" and self.neg is not None and event["data"]["dragon"] == self.neg["dragon"]:
            neg, stage = self.neg, progress(self.neg)
            colours = {t["id"]: t for t in neg["tokens"]}
            for seat_s, ids in event["data"]["votes"].items():
                worth = fair(neg, int(seat_s))
                for p in neg["standing"]:
                    if p["id"] in ids and p["proposer"] != int(seat_s) and int(seat_s) != self.seat and worth > 0:
                        ratio = value([colours[t] for t in p["shares"].get(seat_s, [])]) / worth
                        self.accepted.setdefault(int(seat_s), []).append((stage, ratio))

    def expected_ratio(self, seat: int, stage: float) -> float:
        """The least share (times fair) seat accepted at this stage or earlier; 1.0 when unknown."""
        return min((r for q, r in self.accepted.get(seat, []) if q <= stage + 1e-9), default=1.0)

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = self.neg = obs["negotiation"]
        stage = progress(neg)
        need = {s: fair(neg, s) * self.expected_ratio(s, stage) for s in neg["involved"] if s != self.seat}
        shares: dict[int, list[str]] = {s: [] for s in neg["involved"]}
        got = dict.fromkeys(need, 0.0)
        # Smallest tokens first to the others until each has what it accepted before; the rest is its own.
        for t in sorted(neg["tokens"], key=lambda t: (VALUE[t["colour"]], t["id"])):
            short = [s for s in need if got[s] < need[s] - 1e-9]
            seat = max(short, key=lambda s: (need[s] - got[s], -s)) if short else self.seat
            shares[seat].append(t["id"])
            if short:
                got[seat] += VALUE[t["colour"]]
        return {"shares": {str(s): ids for s, ids in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = self.neg = obs["negotiation"]
        colours = {t["id"]: t for t in neg["tokens"]}
        bar = fair(neg, self.seat) * (1.0 - 0.6 * progress(neg))
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
    run(ModelerBot)
