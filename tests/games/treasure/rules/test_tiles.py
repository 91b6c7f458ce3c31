"""The tile set, read from the package's tiles.json."""

from __future__ import annotations

import json
from importlib import resources

from ladder.games.treasure.rules import tiles


def test_the_data_file_holds_the_49_tiles_of_the_rulebook():
    assert tiles.COUNTS == {
        "chest": 8, "sword": 6, "scroll": 4, "potion": 4, "egg": 4, "diamond": 8, "dragon": 12, "spider": 3,
    }  # fmt: skip
    assert tiles.TOTAL_TILES == 49 == tiles.ROWS * tiles.COLS
    raw = json.loads(resources.files("ladder.games.treasure.rules").joinpath("tiles.json").read_text())
    assert [t["kind"] for t in raw["tiles"]] == list(tiles.KINDS)


def test_set_sizes_chest_4_sword_3_scroll_potion_egg_2_diamond_1():
    assert tiles.SET_SIZE == {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}
    # Every kind's count is whole sets, so every treasure tile can be won in the end.
    assert all(tiles.COUNTS[k] % size == 0 for k, size in tiles.SET_SIZE.items())


def test_kept_from_keeps_whole_sets_only():
    kept = tiles.kept_from(["sword"] * 4 + ["chest"] * 3 + ["diamond", "scroll", "dragon"])
    assert kept == {"sword": 3, "diamond": 1}
