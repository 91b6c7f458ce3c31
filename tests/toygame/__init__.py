"""A tiny game for testing the play loop, replays, the CLI, the bench and the site without a real
game, in exactly the shape of one (docs/layout.md): a package whose pure rules are in `rules/`, whose
replay is shown by `view/` (one pass, timeline.py, drawn as the step list and the viewer frames, with
its page partial and viewer script), registered by one GAMES line (`register`).

"Toy Nim": a public pile; in turn order each seat takes 1-3 counters (kind "take"). When the pile
is empty every seat, in order, bets whether its own secret number (dealt privately from the RNG at
set-up) is high (kind "bet"). Score: counters taken, plus the option `bonus` for a right bet.
It has hidden information, two decision kinds, options of both sorts and ties, like real games.

Tests register it with `register(monkeypatch)`. Run the package to rewrite the golden replay
(`-P`: the tests folder must not shadow the `bots` package; tests/golden/README.md):
    .venv/bin/python -P tests/toygame [tests/golden/toy-seed3.json]
"""

from __future__ import annotations

from pathlib import Path

from ladder.games.base import Game, Option
from toygame.rules.state import KINDS, ToyState

__all__ = ["GOLDEN", "GOLDEN_ARGS", "REGISTRY_ENTRY", "ToyGame", "ToyState", "golden_replay", "register"]


class ToyGame(Game):
    name = "toy"
    title = "Toy Nim"
    min_players = 2
    max_players = 5
    default_players = 3
    options = {
        "pile": Option(default=12, minimum=3, maximum=60, help="counters in the pile"),
        "bonus": Option(default=2, minimum=0, maximum=9, help="points for a right bet"),
        "style": Option(default="plain", choices=("plain", "fancy"), help="no effect; a choice option"),
    }
    decision_kinds = KINDS
    preferred_players = 3
    starter_bots = ("random", "fixed", "crash", "illegal", "notjson")
    fallback_bot = "fixed"
    renderer = "view.steps"
    view = "view.frames"
    rules_files = ("__init__.py", "rules/__init__.py", "rules/state.py")

    def bot_module(self, name: str) -> str:
        """A test game keeps its bots in its own package (starters.py), not under bots/ as a real game does."""
        super().bot_module(name)  # KeyError for a bot it does not have
        return f"{self.package()}.starters"

    def new_state(self, options, seed, num_players) -> ToyState:
        self.check_players(num_players)
        return ToyState(self, self.resolve_options(options), seed, num_players)


# The one line that adds a game to the ladder: its name and "package:Class" (ladder/games/__init__.py).
REGISTRY_ENTRY = ("toy", "toygame:ToyGame")


def register(monkeypatch) -> None:
    """Make "toy" a registered game, for one test only: one GAMES entry, nothing else."""
    import ladder.games

    monkeypatch.setitem(ladder.games.GAMES, *REGISTRY_ENTRY)


GOLDEN = Path(__file__).parents[1] / "golden" / "toy-seed3.json"
GOLDEN_ARGS = {"game": "toy", "names": ["random", "fixed", "random"], "seed": 3, "options": {"pile": 10}}


def golden_replay():
    """The replay behind tests/golden/toy-seed3.json, built from scratch."""
    from ladder.play import play_builtin

    return play_builtin(**GOLDEN_ARGS).replay
