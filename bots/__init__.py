"""Bot SDK and built-in bots.

Built-in bots are the SDK's own starter bots, run in-process by `ladder play` and as
sandboxed processes by the match runner; each is one readable file an author can copy.
"""

from __future__ import annotations

import importlib

# (game, name) -> "module:Class"
BUILTIN: dict[tuple[str, str], str] = {
    ("drachengold", "random"): "bots.drachengold_random:RandomBot",
    ("drachengold", "greedy"): "bots.drachengold_greedy:GreedyBot",
    ("drachengold", "bargainer"): "bots.drachengold_bargainer:BargainerBot",
    ("drachengold", "trader"): "bots.drachengold_trader:TraderBot",
    ("treasure", "random"): "bots.treasure_random:RandomBot",
    ("treasure", "careful"): "bots.treasure_careful:CarefulBot",
}


def builtin_names(game: str) -> list[str]:
    return sorted(name for (g, name) in BUILTIN if g == game)


def load_builtin(game: str, name: str):
    """The class of a built-in bot; raises KeyError with the choices when unknown."""
    try:
        target = BUILTIN[(game, name)]
    except KeyError:
        raise KeyError(f"no built-in bot {name!r} for {game} (have: {', '.join(builtin_names(game))})") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)
