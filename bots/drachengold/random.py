"""Drachengold: a bot that makes uniformly random legal decisions.

A test fixture and a baseline: anything that loses to this bot is broken. It reads only its
observation (see docs/protocol.md), so it also shows where each decision finds its choices.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any


class RandomBot(Bot):
    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        cards = [c for c in req["cards"] if c["kind"] not in ("recall", "banish") or req[c["kind"]]]
        if not cards or self.rng.random() < 0.5:
            return {"card": None}
        card = self.rng.choice(cards)
        if card["kind"] == "recall":
            return {"card": card["id"], "adventurer": self.rng.choice(req["recall"])}
        if card["kind"] == "banish":
            return {"card": card["id"], **self.rng.choice(req["banish"])}
        return {"card": card["id"]}

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        return {"adventurer": self.rng.choice(req["adventurers"]), "dragon": self.rng.choice(req["dragons"])}

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        roll = self.rng.random()
        if roll < 0.3:
            return {}
        if roll < 0.4:
            return {"withdraw": True}
        shares: dict[str, list[str]] = {str(s): [] for s in neg["involved"]}
        for token in neg["tokens"]:
            shares[str(self.rng.choice(neg["involved"]))].append(token["id"])
        return {"shares": shares}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"accept": [p for p in obs["request"]["proposals"] if self.rng.random() < 0.5]}

    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"victim": self.rng.choice(obs["request"]["candidates"])}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"token": self.rng.choice(obs["request"]["hoard"])["id"]}

    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        k = obs["request"]["shares"]
        tokens = [t["id"] for t in obs["strategic"]["tokens"]]
        self.rng.shuffle(tokens)
        shares: list[list[str]] = [[] for _ in range(k)]
        for i, token in enumerate(tokens):
            # One token per share first, so no share is empty when there are enough tokens.
            shares[i if i < k else self.rng.randrange(k)].append(token)
        return {"shares": shares}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"share": self.rng.choice(obs["request"]["remaining"])}

    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        others = [s for s in range(obs["players"]) if s != self.seat]
        mine = [t["id"] for t in obs["hoard"]]
        offers = []
        for _ in range(self.rng.randrange(obs["request"]["max_offers"] + 1)):
            give = self.rng.sample(mine, min(len(mine), self.rng.randrange(3)))
            colour = self.rng.choice(["silver", "gold", "red", "blue", "green", "purple", "yellow", "white"])
            want = {colour: self.rng.randrange(3)} if self.rng.random() < 0.7 or not give else {}
            if give or any(want.values()):
                offers.append({"to": self.rng.choice(others), "give": give, "want": want})
        return {"offers": offers}

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        free = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            if self.rng.random() < 0.5:
                continue
            pay = []
            for colour, count in offer["want"].items():
                pay += [t for t in free if t["colour"] == colour][:count]
            if len(pay) == sum(offer["want"].values()):
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}


if __name__ == "__main__":
    run(RandomBot)
