"""DragonFlame (Matt Loomis), 2-5 players: play cards onto castles, loot them, burn villages.

Rules (pure, the only part a bot is given): rules/ (state.py the round, village.py fire, end.py and
scoring.py the end, data.json the cards, observation.py what a seat sees); how a replay is shown:
view/ (one pass, timeline.py, drawn as the step list and the viewer frames); the ladder's edition:
docs/rules.md (DragonFlame).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ladder.games.base import JSON, Game
from ladder.games.dragonflame.rules.decisions import KINDS
from ladder.games.dragonflame.rules.state import DragonFlameState

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
    # bosses by the house bots' tournaments (docs/bots.md): heuristic and looter are level, search
    # ahead of both, random far behind
    leagues = (("random",), ("heuristic", "looter"), ("search",), ())
    validation_bots = ("random", "looter")
    renderer = "view.steps"
    view = "view.frames"
    forward = "rules.forward"
    forms = "view.forms"  # a person's seat (ladder/games/forms.py)
    seat_view = "view.seat"  # a person's table drawn as the viewer draws a frame (ladder/web/play.py)
    replay_dictionary = "replay.zdict"  # typical decisions: the compact stored replays' preset dictionary
    scorecard = "view.scorecard"  # the bot page's measures (ladder/games/scorecard.py)
    rules_files = ("__init__.py", "rules/__init__.py", "rules/data.json", "rules/data.py", "rules/decisions.py",
                   "rules/end.py", "rules/forward.py", "rules/observation.py", "rules/outlook.py", "rules/scoring.py",
                   "rules/state.py", "rules/village.py")

    def new_state(self, options: Mapping[str, JSON] | None, seed: int, num_players: int,
                  *, deck: Sequence[str] | None = None) -> DragonFlameState:
        """A new game. `deck` (card ids in draw order, the last drawn first) is for tests and
        tools: by default the deck is shuffled with the state's rng."""
        self.check_players(num_players)
        return DragonFlameState(self, self.resolve_options(options), seed, num_players, deck=deck)
