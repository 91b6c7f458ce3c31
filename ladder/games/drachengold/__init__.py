"""Drachengold (Bruno Faidutti), the ladder's edition: ../shared/design/drachengold.md.

Rules (pure, the only part a bot is given): rules/; how a replay is shown: view/ (one pass,
timeline.py, drawn as the step list and the viewer frames); the edition: docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.base import Game, Option

KINDS = ("magic", "attack", "propose", "vote", "theft_victim", "theft_pick", "market_offer", "market_answer",
         "divide", "choose")


class Drachengold(Game):
    name = "drachengold"
    title = "Drachengold"
    min_players = 3
    max_players = 6
    default_players = 4
    preferred_players = 4
    starter_bots = ("random", "greedy", "bargainer", "trader", "conceder", "hardhead", "modeler",
                    "strong", "boss")  # bots/drachengold/<name>.py
    fallback_bot = "greedy"
    # above each held-out outsider in 0.65 to 0.75 of strict games (bots/heldout/README.md)
    boss = "boss"
    # bosses by the eight house bots' duplicate round robin (docs/bots.md): mean rank modeler 3.37,
    # trader 2.40, bargainer 1.88, strong 1.61, each league's other bots weaker than its boss; the
    # boss above strong at strong's own table (docs/bots.md, "boss")
    leagues = (("modeler", "random"), ("trader", "greedy"), ("bargainer", "conceder", "hardhead"),
               ("boss", "strong"), ())
    validation_bots = ("random", "greedy", "bargainer", "trader")
    renderer = "view.steps"
    view = "view.frames"
    forward = "rules.forward"
    forms = "view.forms"  # a person's seat (ladder/games/forms.py)
    seat_view = "view.seat"  # a person's table drawn as the viewer draws a frame (ladder/web/play.py)
    negotiations = "view.negotiations"  # the collusion report's facts (ladder/ranking/collusion.py)
    scorecard = "view.scorecard"  # the bot page's scorecard: MEASURES, measure(replay) (ladder/games/scorecard.py)
    sock_puppets = "sockpuppets"  # bots/drachengold/sockpuppets.py: `ladder bench collusion`
    replay_dictionary = "replay.zdict"  # typical decisions: the compact stored replays' preset dictionary
    rules_files = ("__init__.py", "rules/__init__.py", "rules/data.py", "rules/decisions.py", "rules/deck.json",
                   "rules/flow.py", "rules/forward.py", "rules/magic.py", "rules/market.py", "rules/negotiation.py",
                   "rules/observation.py", "rules/pieces.py", "rules/scoring.py", "rules/sharing.py", "rules/state.py",
                   "rules/strategic.py")
    decision_kinds = KINDS
    options = {
        "rules": Option("basic", choices=("basic", "advanced-a", "advanced-b"),
                        help="basic; advanced-a (printings 000/001); advanced-b (printing 002)"),
        "split": Option("negotiation", choices=("negotiation", "strategic"),
                        help="negotiate splits in rounds, or the strategic divide-and-choose variant"),
        "negotiation_rounds": Option(8, minimum=1, maximum=50, help="rounds before an unagreed treasure is lost"),
        "market_rounds": Option(3, minimum=1, maximum=20, help="rounds of trading when the market opens"),
    }

    def new_state(self, options: Mapping[str, Any] | None, seed: int, num_players: int):
        from ladder.games.drachengold.rules.state import DrachengoldState

        self.check_players(num_players)
        return DrachengoldState(self, self.resolve_options(options), seed, num_players)
