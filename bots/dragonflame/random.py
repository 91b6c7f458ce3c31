"""A random bot for DragonFlame: a starting point to copy.

Every decision is chosen uniformly among the legal ones the request lists: which card onto which
castle, whether and where to use a Spyglass, which castle to attack, where a Dragonflame enters.
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any


class RandomBot(Bot):
    def play(self, observation: dict[str, Any]) -> dict[str, Any]:
        request = observation["request"]
        castles = request["castles"] or [None]  # no castle has room: the card is discarded
        return {"card": self.rng.choice(request["cards"]), "castle": self.rng.choice(castles)}

    def spy(self, observation: dict[str, Any]) -> dict[str, Any]:
        return {"castle": self.rng.choice([*observation["request"]["castles"], None])}

    def attack(self, observation: dict[str, Any]) -> dict[str, Any]:
        return {"castle": self.rng.choice(observation["request"]["castles"])}

    def flame(self, observation: dict[str, Any]) -> dict[str, Any]:
        return dict(self.rng.choice(observation["request"]["lines"]))


if __name__ == "__main__":
    run(RandomBot)
