"""A random bot for Treasure of the Dragons: a starting point to copy.

Every decision is chosen uniformly among the legal ones the request lists. Once a flip has been
made, it stops with probability STOP_CHANCE (a bot that never stopped would never keep a tile).
"""

from __future__ import annotations

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

STOP_CHANCE = 0.3


class RandomBot(Bot):
    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        request = observation["request"]
        if request["can_stop"] and self.rng.random() < STOP_CHANCE:
            return {"stop": True}
        return {"square": self.rng.choice(request["squares"])}

    def move_spider(self, observation: dict[str, Any]) -> dict[str, Any]:
        # Leaving the Spider where it is (null) is as legal as any empty square.
        return {"square": self.rng.choice([*observation["request"]["squares"], None])}


if __name__ == "__main__":
    run(RandomBot)
