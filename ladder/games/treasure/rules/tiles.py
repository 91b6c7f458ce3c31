"""The tile set of Treasure of the Dragons, read once from tiles.json (the package's data file)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class TileKind:
    kind: str
    name: str
    count: int
    set_size: int | None  # None: not kept in sets (Dragon, Spider)


def _load() -> tuple[int, int, tuple[TileKind, ...]]:
    raw = json.loads(resources.files(__package__).joinpath("tiles.json").read_text(encoding="utf-8"))
    kinds = tuple(TileKind(t["kind"], t["name"], int(t["count"]), t["set"]) for t in raw["tiles"])
    if sum(k.count for k in kinds) != raw["rows"] * raw["cols"]:
        raise ValueError("tiles.json: the tiles must fill the grid exactly")
    return int(raw["rows"]), int(raw["cols"]), kinds


ROWS, COLS, TILE_KINDS = _load()
DRAGON = "dragon"
SPIDER = "spider"
KINDS: tuple[str, ...] = tuple(t.kind for t in TILE_KINDS)
COUNTS: dict[str, int] = {t.kind: t.count for t in TILE_KINDS}
SET_SIZE: dict[str, int] = {t.kind: t.set_size for t in TILE_KINDS if t.set_size is not None}
NAMES: dict[str, str] = {t.kind: t.name for t in TILE_KINDS}
TOTAL_TILES = sum(COUNTS.values())


def full_tile_list() -> list[str]:
    """Every tile once, in data-file order (the deck before shuffling)."""
    return [t.kind for t in TILE_KINDS for _ in range(t.count)]


def kept_from(kinds: list[str]) -> Counter[str]:
    """How many of each kind a stop keeps: whole sets only (4 Swords with sets of 3 keep 3)."""
    have = Counter(kinds)
    return Counter({k: n - n % SET_SIZE[k] for k, n in have.items() if k in SET_SIZE and n >= SET_SIZE[k]})
