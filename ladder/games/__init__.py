"""Registered games. Modules load lazily so `ladder --help` stays fast."""

from __future__ import annotations

import importlib

from ladder.games.base import Event, Game, IllegalDecision, Option, OptionError, Pending, State

__all__ = ["FLAGSHIP", "GAMES", "Event", "Game", "IllegalDecision", "Option", "OptionError", "Pending", "State",
           "game_files", "game_view_files", "get_game"]

# name -> "module:Class"
GAMES: dict[str, str] = {
    "drachengold": "ladder.games.drachengold:Drachengold",
    "treasure": "ladder.games.treasure:Treasure",
    "dragonflame": "ladder.games.dragonflame:DragonFlame",
}
FLAGSHIP = next(iter(GAMES))  # the first entry: what commands play when no game is named


def _game_class(target: str) -> type[Game]:
    """The one place a registry entry's "module:Class" is read (a game's own parts: `Game.part`)."""
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


def get_game(name: str) -> Game:
    try:
        target = GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
    return _game_class(target)()


def available_games() -> list[str]:
    """Games whose class loads (a game may be registered before it lands)."""
    out = []
    for name, target in GAMES.items():
        try:
            _game_class(target)
        except (ModuleNotFoundError, AttributeError):
            continue
        out.append(name)
    return out


def game_files(name: str):
    """A registered game's package folder (an importlib Traversable: its schema.json, rules.md and
    view/); None for a name the registry does not hold (so a name from a URL or a replay never
    reaches the disk by itself) or a game that is one module."""
    return get_game(name).files() if name in GAMES else None


VIEW_FILES = ("templates", "static")


def game_view_files(name: str, kind: str):
    """A registered game's `view/templates/` (the match page's partials) or `view/static/` (its
    viewer.js and viewer.css) folder; None when the name is not registered or the game has none.
    The one place that knows where they lie in a game's package."""
    if kind not in VIEW_FILES:
        raise ValueError(f"a game's view files are {' or '.join(VIEW_FILES)}, not {kind!r}")
    folder = game_files(name)
    folder = folder / "view" / kind if folder is not None else None
    return folder if folder is not None and folder.is_dir() else None
