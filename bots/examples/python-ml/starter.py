"""A starter bot in Python for every game of the ladder: Drachengold, Treasure of the Dragons, DragonFlame.

It uses the SDK (`bots.sdk`, which the ladder provides to every Python bot): `run` speaks the
protocol, `setup` has read the hello (self.game, self.seat, self.num_players, self.options,
self.rng seeded from the match), and each request calls `decide(kind, observation)`. Kinds repeat
across games (both Drachengold and DragonFlame ask `attack`), so `decide` calls the method named
`<game>_<kind>` below. Every decision is a legal one picked at random with self.rng from what the
request lists; the starter bots in bots/ (greedy, trader, careful, looter) show stronger play.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

STOP_CHANCE = 0.4  # Treasure: after a flip, stop this often (a bot that never stops keeps nothing)


class StarterBot(Bot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.events = 0
        self.log(f"hello: {self.game}, seat {self.seat} of {self.num_players}, options {self.options}")

    def on_event(self, event: dict[str, Any]) -> None:
        # Events tell what observations do not repeat (every flipped tile, every trade): keep what
        # you need here. This bot only counts them.
        self.events += 1

    def on_end(self, message: dict[str, Any]) -> None:
        me = message["results"][message["you"]]
        self.log(f"game over after {self.events} events: rank {me['rank']}, score {me['score']}")

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        return getattr(self, f"{self.game}_{kind}")(observation)

    # ------------------------------------------------------------------------------ Drachengold

    def drachengold_magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"card": None}  # never play a Magic Object (request.cards lists the playable ones)

    def drachengold_attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        return {"adventurer": self.rng.choice(req["adventurers"]), "dragon": self.rng.choice(req["dragons"])}

    def drachengold_propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        # Every token to exactly one involved seat: here each seat's share follows its attack.
        neg = obs["negotiation"]
        seats = [str(s) for s in neg["involved"]]
        weights = [max(1, neg["attack"].get(s, 1)) for s in seats]
        shares: dict[str, list[str]] = {s: [] for s in seats}
        for token in neg["tokens"]:
            shares[self.rng.choices(seats, weights)[0]].append(token["id"])
        return {"shares": shares}

    def drachengold_vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        # Accept any proposal that gives me something; in the last round, anything at all.
        neg = obs["negotiation"]
        if neg["round"] >= neg["rounds"]:
            return {"accept": obs["request"]["proposals"]}
        mine = {p["id"] for p in neg["standing"] if p["shares"].get(str(self.seat))}
        return {"accept": [p for p in obs["request"]["proposals"] if p in mine]}

    def drachengold_theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        sizes = obs["request"]["hoard_sizes"]
        return {"victim": max(obs["request"]["candidates"], key=lambda s: sizes.get(str(s), 0))}

    def drachengold_theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"token": self.rng.choice(obs["request"]["hoard"])["id"]}

    def drachengold_divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        k = obs["request"]["shares"]
        tokens = [t["id"] for t in obs["strategic"]["tokens"]]
        return {"shares": [tokens[i::k] for i in range(k)]}  # dealt round-robin

    def drachengold_choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        shares = obs["strategic"]["shares"]
        return {"share": max(obs["request"]["remaining"], key=lambda i: len(shares[i]))}

    def drachengold_market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        # One offer: a random token of mine to a random other seat, for one gold (or silver).
        others = [s for s in range(self.num_players) if s != self.seat]
        if not obs["hoard"] or not others or obs["request"]["max_offers"] < 1:
            return {"offers": []}
        give = self.rng.choice(obs["hoard"])
        want = "silver" if give["colour"] == "gold" else "gold"
        return {"offers": [{"to": self.rng.choice(others), "give": [give["id"]], "want": {want: 1}}]}

    def drachengold_market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        # Every offer I can pay exactly (its wanted colours), each token of mine used once.
        free = list(obs["hoard"])
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            for colour, count in offer["want"].items():
                pay += [t for t in free if t["colour"] == colour][:count]
            if len(pay) == sum(offer["want"].values()):
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}

    # ------------------------------------------------------------------ Treasure of the Dragons

    def treasure_flip(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        if req["can_stop"] and self.rng.random() < STOP_CHANCE:
            return {"stop": True}
        return {"square": self.rng.choice(req["squares"])}

    def treasure_move_spider(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"square": None}  # leave it; request.squares lists where it may go

    # ------------------------------------------------------------------------------ DragonFlame

    def dragonflame_play(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        castles = req["castles"] or [None]  # no castle has room: the card is discarded
        return {"card": self.rng.choice(req["cards"]), "castle": self.rng.choice(castles)}

    def dragonflame_spy(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"castle": self.rng.choice([*obs["request"]["castles"], None])}

    def dragonflame_attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {"castle": self.rng.choice(obs["request"]["castles"])}

    def dragonflame_flame(self, obs: dict[str, Any]) -> dict[str, Any]:
        return dict(self.rng.choice(obs["request"]["lines"]))


if __name__ == "__main__":
    run(StarterBot)
