"""Drachengold: a sensible greedy player, and a readable example to start from.

It values tokens by what they score, attacks where it can kill (alone if possible) or take a
good share, proposes and accepts splits roughly proportional to attack (conceding a little more
each round so the treasure is not lost), steals from the biggest hoard and takes the most
valuable token it can see, and trades only when it gains.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

# Rough worth of a token: face value, with gems counted for their share of majority bonuses.
VALUE = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}


def value(tokens: list[dict[str, str]]) -> float:
    return sum(VALUE[t["colour"]] for t in tokens)


def normalised(weights: dict[int, float]) -> dict[int, float]:
    """Weights as parts of 1 (attack strengths come as raw totals; all zero counts as even)."""
    mass = sum(weights.values())
    return {s: w / mass if mass > 0 else 1 / len(weights) for s, w in weights.items()}


def counts_by_weight(n: int, weights: dict[int, float]) -> dict[int, int]:
    """Split n tokens by weight, largest remainder: each seat gets the whole part of its
    proportional count, and the tokens left over go to the biggest fractions."""
    mass = sum(weights.values())
    exact = {s: n * w / mass if mass > 0 else n / len(weights) for s, w in weights.items()}
    counts = {s: int(q) for s, q in exact.items()}
    by_remainder = sorted(weights, key=lambda s: (-(exact[s] - counts[s]), -weights[s], s))
    for s in by_remainder[: n - sum(counts.values())]:
        counts[s] += 1
    return counts


def fair_shares(tokens: list[dict[str, str]], weights: dict[int, float]) -> dict[int, list[dict[str, str]]]:
    """Each token exactly once, in proportion to weight: every seat gets its largest-remainder
    number of tokens, and the most valuable go first, each to the seat (with room left) that is
    furthest below its proportional share of the treasure's worth."""
    counts, parts, total = counts_by_weight(len(tokens), weights), normalised(weights), value(tokens)
    shares: dict[int, list[dict[str, str]]] = {s: [] for s in weights}
    for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
        room = [s for s in weights if len(shares[s]) < counts[s]]
        seat = max(room, key=lambda s: (parts[s] * total - value(shares[s]), -s))
        shares[seat].append(t)
    return shares


class GreedyBot(Bot):
    # ---- fighting ---------------------------------------------------------------------
    def _attack_options(self, obs: dict[str, Any], bonus: int = 0) -> list[tuple[float, str, str]]:
        mine = {a["id"]: a["attack"] for a in obs["adventurers"][self.seat]}
        req = obs["request"]
        options = []
        for dragon in (d for d in obs["dragons"] if d and d["id"] in req["dragons"]):
            loot = value(dragon["tokens"]) + 2.0 * dragon["hidden"]
            my_now = sum(a["attack"] for a in dragon["attackers"] if a["seat"] == self.seat)
            for adv in req["adventurers"]:
                hit = mine[adv] + bonus
                total = dragon["total"] + hit
                share = (my_now + hit) / total
                if total >= dragon["strength"]:
                    score = loot * share
                else:
                    # Weaken a dragon only when a later kill will still leave us a good share;
                    # leaving it one blow from death invites someone else to take it.
                    left = dragon["strength"] - total
                    score = 0.35 * loot * share - (2.0 if left <= 2 else 0.0)
                options.append((score - 0.3 * hit, adv, dragon["id"]))
        return sorted(options, reverse=True)

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        _, adv, dragon = self._attack_options(obs)[0]
        return {"adventurer": adv, "dragon": dragon}

    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        cards = {c["kind"]: c["id"] for c in obs["request"]["cards"]}
        face_down = sum(1 for a in obs["adventurers"][self.seat] if a["face"] == "down" and a["dragon"] is None)
        if "windfall" in cards and obs["bag"] > 0:
            return {"card": cards["windfall"]}
        if "might" in cards and obs["request"].get("adventurers", True):
            best_with = self._attack_options({**obs, "request": self._attack_request(obs)}, bonus=3)
            best_without = self._attack_options({**obs, "request": self._attack_request(obs)})
            if best_with and best_with[0][0] > best_without[0][0] + 3:
                return {"card": cards["might"]}
        if "second_wind" in cards and face_down >= 2:
            return {"card": cards["second_wind"]}
        if "double_strike" in cards and len(self._attack_request(obs)["adventurers"]) >= 2:
            return {"card": cards["double_strike"]}
        return {"card": None}

    def _attack_request(self, obs: dict[str, Any]) -> dict[str, Any]:
        ready = [a["id"] for a in obs["adventurers"][self.seat] if a["face"] == "up" and a["dragon"] is None]
        return {"adventurers": ready, "dragons": [d["id"] for d in obs["dragons"] if d]}

    # ---- sharing ----------------------------------------------------------------------
    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        weights = {s: neg["attack"][str(s)] for s in neg["involved"]}
        shares = fair_shares(neg["tokens"], weights)
        return {"shares": {str(s): [t["id"] for t in ts] for s, ts in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        colours = {t["id"]: t for t in neg["tokens"]}
        fair = value(neg["tokens"]) * neg["attack"][str(self.seat)] / sum(neg["attack"].values())
        # Concede more as the deadline nears: a small share beats the box lid.
        floor = fair * (1.0 - 0.6 * neg["round"] / neg["rounds"])
        accept = []
        for p in neg["standing"]:
            mine = [colours[t] for t in p["shares"].get(str(self.seat), [])]
            if value(mine) >= floor - 1e-9:
                accept.append(p["id"])
        return {"accept": accept}

    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        k = obs["request"]["shares"]
        tokens = obs["strategic"]["tokens"]
        # Shares of even worth (others choose first), not of even size: dearest token first,
        # each to the poorest share so far.
        shares: list[list[dict[str, str]]] = [[] for _ in range(k)]
        for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
            min(shares, key=value).append(t)
        # Keep every share non-empty when there are enough tokens.
        for share in shares:
            if not share and len(tokens) >= k:
                share.append(max(shares, key=len).pop())
        return {"shares": [[t["id"] for t in share] for share in shares]}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        st = obs["strategic"]
        colours = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"], key=lambda i: (value([colours[t] for t in st["shares"][i]]), -i))
        return {"share": best}

    # ---- thieves ----------------------------------------------------------------------
    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        sizes = obs["request"]["hoard_sizes"]
        return {"victim": max(obs["request"]["candidates"], key=lambda s: (sizes[str(s)], -s))}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        best = max(obs["request"]["hoard"], key=lambda t: (VALUE[t["colour"]], t["id"]))
        return {"token": best["id"]}

    # ---- market -----------------------------------------------------------------------
    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"offers": []}

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        free = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += sorted((t for t in free if t["colour"] == colour), key=lambda t: t["id"])[:count]
            if len(pay) == sum(offer["want"].values()) and value(offer["give"]) > value(pay):
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}


if __name__ == "__main__":
    run(GreedyBot)
