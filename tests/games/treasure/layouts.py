"""A cave with chosen tiles on chosen squares, the rest of the 49 tiles filling the others in
data-file order (Gold Chests first), so every test state still holds exactly the game's tiles."""

from __future__ import annotations

from collections import Counter

from ladder.games.treasure.rules.tiles import COLS, ROWS, full_tile_list


def build_layout(placed: dict[tuple[int, int], str]) -> list[str]:
    rest = Counter(full_tile_list())
    rest.subtract(placed.values())
    assert all(n >= 0 for n in rest.values()), f"more tiles placed than the game has: {placed}"
    filler = []
    for kind in full_tile_list():
        if rest[kind] > 0:
            rest[kind] -= 1
            filler.append(kind)
    fill = iter(filler)
    return [placed.get((r, c)) or next(fill) for r in range(ROWS) for c in range(COLS)]
