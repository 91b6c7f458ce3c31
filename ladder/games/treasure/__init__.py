"""Treasure of the Dragons (Reiner Knizia), 2-6 players: push your luck in a 7x7 cave.

Rules (pure, the only part a bot is given): rules/; how a replay is shown: view/ (one pass,
timeline.py, drawn as the step list and the viewer frames); the edition: docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ladder.games.base import JSON, Game
from ladder.games.treasure.rules.decisions import FLIP, MOVE_SPIDER
from ladder.games.treasure.rules.state import MAX_TURNS, TreasureState

__all__ = ["MAX_TURNS", "Treasure", "TreasureState"]


class Treasure(Game):
    name = "treasure"
    title = "Treasure of the Dragons"
    min_players = 2
    max_players = 6
    default_players = 4
    preferred_players = 4
    starter_bots = ("random", "careful", "memory", "search")  # bots/treasure/<name>.py
    fallback_bot = "careful"
    boss = "search"
    # bosses by the house bots' tournaments (docs/bots.md): careful and memory are level, search
    # ahead of both, random far behind: three bosses of clearly rising strength
    leagues = (("random",), ("careful", "memory"), ("search",), ())
    validation_bots = ("random", "careful")
    renderer = "view.steps"
    view = "view.frames"
    forward = "rules.forward"
    forms = "view.forms"  # a person's seat (ladder/games/forms.py)
    seat_view = "view.seat"  # a person's table drawn as the viewer draws a frame (ladder/web/play.py)
    replay_dictionary = "replay.zdict"  # typical decisions: the compact stored replays' preset dictionary
    scorecard = "view.scorecard"  # the bot page's measures (ladder/games/scorecard.py)
    rules_files = ("__init__.py", "rules/__init__.py", "rules/decisions.py", "rules/forward.py",
                   "rules/observation.py", "rules/state.py", "rules/tiles.json", "rules/tiles.py")
    options = {}
    decision_kinds = (FLIP, MOVE_SPIDER)

    def new_state(
        self,
        options: Mapping[str, JSON] | None,
        seed: int,
        num_players: int,
        *,
        layout: Sequence[str] | None = None,
        max_turns: int = MAX_TURNS,
    ) -> TreasureState:
        """A new game. `layout` (49 tile kinds, row-major) and `max_turns` are for tests and tools:
        by default the tiles are shuffled with the state's rng and the safety cap is MAX_TURNS."""
        self.check_players(num_players)
        return TreasureState(self, self.resolve_options(options), seed, num_players, layout=layout, max_turns=max_turns)
