"""A replay's log as a readable step list for the match page.

The game draws its own steps: `steps` asks the replay's game for its renderer
(`Game.renderer`, see ladder/games/render.py) and never branches on a game's name. A replay of a
game this ladder does not know still shows, through the generic lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from ladder.games import OptionError, get_game
from ladder.games.render import MAX_SECTIONS, Block, Section, compact, fault_line, renderer_for
from ladder.replay import Replay

__all__ = ["MAX_SECTIONS", "Block", "Section", "compact", "fault_line", "steps"]


def steps(replay: Replay, names: Sequence[str]) -> list[Section]:
    try:
        game = get_game(replay.header.game)
    except OptionError:
        game = None
    return renderer_for(game).sections(replay, names)
