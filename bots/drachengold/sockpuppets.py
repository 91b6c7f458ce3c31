"""Two sock-puppet Drachengold bots, the collusion report's fixtures (`ladder bench collusion`,
its test, and the operator's walk in tests/web/test_moderation_walk.py): two accounts that agree
outside the game. Not starter bots: Drachengold names this module (Game.sock_puppets). The
feeder proposes that the taker take the whole treasure and accepts such proposals; the taker
always proposes everything for itself. Each knows the other's seat (sock puppets share it
outside the game); in every other way they play as the greedy house bot."""

from __future__ import annotations

from typing import Any

from bots.drachengold.greedy import GreedyBot


class TakerBot(GreedyBot):
    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        return {"shares": {str(self.seat): [t["id"] for t in neg["tokens"]]}}


class FeederBot(GreedyBot):
    def __init__(self, taker_seat: int) -> None:
        super().__init__()
        self.taker = taker_seat

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        if self.taker not in neg["involved"]:
            return super().propose(obs)
        return {"shares": {str(self.taker): [t["id"] for t in neg["tokens"]]}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        if self.taker not in neg["involved"]:
            return super().vote(obs)
        whole = len(neg["tokens"])
        return {"accept": [p["id"] for p in neg["standing"]
                           if len(p["shares"].get(str(self.taker), ())) == whole or p["proposer"] == self.taker]}
