"""The Python SDK for bot authors.

Subclass `Bot` and write one method per decision kind of your game (for Drachengold:
`attack`, `magic`, `propose`, `vote`, `theft_victim`, `theft_pick`, `market_offer`,
`market_answer`, `divide`, `choose`; for Treasure of the Dragons: `flip`, `move_spider`).
Each method gets the observation (a dict, see docs/protocol.md) and returns the decision
(a dict). `on_event` receives every event your seat may see. Log with `self.log(...)`:
it goes to stderr, which the ladder keeps for you.
"""

from __future__ import annotations

import random
import sys
from typing import Any


class Bot:
    def __init__(self) -> None:
        self.seat: int = 0
        self.num_players: int = 0
        self.options: dict[str, Any] = {}
        self.game: str = ""
        self.rng = random.Random()

    def setup(self, hello: dict[str, Any]) -> None:
        """Called once with the handshake: game, seat, players, options, seed."""
        self.game = hello.get("game", "")
        self.seat = int(hello.get("seat", 0))
        self.num_players = int(hello.get("players", 0))
        self.options = dict(hello.get("options") or {})
        # Seeding from the match seed keeps in-process games reproducible.
        self.rng = random.Random(f"{hello.get('seed', 0)}:{self.seat}:{type(self).__name__}")

    def on_event(self, event: dict[str, Any]) -> None:
        """Every event this seat may see, in order. Override to remember the game."""

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        method = getattr(self, kind, None)
        if method is None:
            raise NotImplementedError(f"{type(self).__name__} has no method for decision kind {kind!r}")
        return method(observation)

    def log(self, *parts: Any) -> None:
        print(*parts, file=sys.stderr, flush=True)
