"""DragonFlame (Matt Loomis), 2-5 players: play cards onto castles, loot them, burn villages.

Rules: state.py (the round), village.py (fire), end.py and scoring.py (the end); card data:
data.json; what a seat sees: observation.py; the ladder's edition: docs/rules.md (DragonFlame).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ladder.games.base import JSON, Game
from ladder.games.dragonflame.decisions import KINDS
from ladder.games.dragonflame.state import DragonFlameState

__all__ = ["DragonFlame", "DragonFlameState"]


class DragonFlame(Game):
    name = "dragonflame"
    title = "DragonFlame"
    min_players = 2
    max_players = 5
    default_players = 4
    preferred_players = 4
    options = {}
    decision_kinds = KINDS
    starter_bots = ("random", "looter", "heuristic", "search")  # bots/dragonflame/<name>.py
    fallback_bot = "looter"
    boss = "search"
    validation_bots = ("random", "looter")
    renderer = "render"
    view = "viewer"
    forward = "forward"
    rules_files = ("__init__.py", "data.json", "data.py", "decisions.py", "end.py", "forward.py", "observation.py",
                   "outlook.py", "scoring.py", "state.py", "village.py")

    def new_state(self, options: Mapping[str, JSON] | None, seed: int, num_players: int,
                  *, deck: Sequence[str] | None = None) -> DragonFlameState:
        """A new game. `deck` (card ids in draw order, the last drawn first) is for tests and
        tools: by default the deck is shuffled with the state's rng."""
        self.check_players(num_players)
        return DragonFlameState(self, self.resolve_options(options), seed, num_players, deck=deck)
