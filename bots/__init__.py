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
    ("dragonflame", "random"): "bots.dragonflame_random:RandomBot",
    ("dragonflame", "looter"): "bots.dragonflame_looter:LooterBot",
}


# Each game's sensible reference bot: the default opponent, the benchmark's "greedy-style"
# line-up, and the fallback that plays a forfeited seat for the rest of a match.
REFERENCE: dict[str, str] = {"drachengold": "greedy", "treasure": "careful", "dragonflame": "looter"}


def reference_bot(game: str) -> str:
    """REFERENCE's entry, else the game's first built-in that is not "random"."""
    others = [n for n in builtin_names(game) if n != "random"]
    return REFERENCE.get(game) or (others[0] if others else "random")


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
