"""Bot SDK and built-in bots.

Built-in bots are the games' starter bots, run in-process by `ladder play` and as sandboxed
processes by the match runner; each is one readable file an author can copy. Which bots a game
has, and which one plays a forfeited seat, the game itself declares (`Game.starter_bots`,
`Game.fallback_bot`): this module only reads the registry, so it names no game.
"""

from __future__ import annotations

# typing.TYPE_CHECKING without importing typing: every bot process imports this package at its
# start, and tests/bots/test_sdk.py holds that a bot starts without typing
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ladder.games.base import Game


def _game(game: str | Game) -> Game | None:
    """The Game of `game`: a name is looked up, a Game object (a match plan's) is taken as it is."""
    from ladder.games import OptionError, get_game

    if not isinstance(game, str):
        return game
    try:
        return get_game(game)
    except OptionError:
        return None


def builtin_bots() -> dict[tuple[str, str], str]:
    """(game, name) -> the module of every starter bot of every available game (its file is the one
    an author copies)."""
    from ladder.games import available_games, get_game

    return {(game, name): get_game(game).bot_module(name) for game in available_games()
            for name in get_game(game).starter_bots}


def reference_bot(game: str | Game) -> str:
    """The game's fallback bot (also its default opponent and the benchmark's greedy-style
    line-up), else its first built-in that is not "random"."""
    obj = _game(game)
    if obj is not None and obj.fallback_bot:
        return obj.fallback_bot
    others = [n for n in builtin_names(game) if n != "random"]
    return others[0] if others else "random"


def builtin_names(game: str | Game) -> list[str]:
    obj = _game(game)
    return sorted(obj.starter_bots) if obj is not None else []


def load_builtin(game: str | Game, name: str):
    """The class of a built-in bot; raises KeyError with the choices when unknown."""
    obj = _game(game)
    if obj is None:
        raise KeyError(f"no built-in bot {name!r} for {game} (have: none)")
    return obj.bot_class(name)
