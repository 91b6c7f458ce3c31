"""Registered games. Modules load lazily so `ladder --help` stays fast."""

from __future__ import annotations

import importlib

from ladder.games.base import Event, Game, IllegalDecision, Option, OptionError, Pending, State

__all__ = ["FLAGSHIP", "GAMES", "Event", "Game", "IllegalDecision", "Option", "OptionError", "Pending", "State",
           "get_game"]

# name -> "module:Class"
GAMES: dict[str, str] = {
    "drachengold": "ladder.games.drachengold:Drachengold",
    "treasure": "ladder.games.treasure:Treasure",
    "dragonflame": "ladder.games.dragonflame:DragonFlame",
}
FLAGSHIP = next(iter(GAMES))  # the first entry: what commands play when no game is named


def get_game(name: str) -> Game:
    try:
        target = GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)()


def available_games() -> list[str]:
    """Games whose class loads (a game may be registered before it lands)."""
    out = []
    for name, target in GAMES.items():
        module, cls = target.split(":")
        try:
            getattr(importlib.import_module(module), cls)
        except (ModuleNotFoundError, AttributeError):
            continue
        out.append(name)
    return out
