"""Where a registered game's package lies on disk: its templates/ and static/ folders.

Kept out of ladder/games, whose modules stay pure (no file system); the site and `ladder replay
view` read a game's own partials and viewer files from here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ladder.games import GAMES


def package_dir(name: str) -> Path | None:
    """The folder of a registered game's package; None for a name the registry does not hold (so a
    name from a URL or a replay never reaches the disk)."""
    target = GAMES.get(name)
    spec = importlib.util.find_spec(target.split(":")[0]) if target else None
    locations = (spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None
