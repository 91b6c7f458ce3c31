"""Checking the JSON shape of Treasure decisions.

Decisions arrive from bots as JSON, so anything can come in; each check returns either the parsed
value or a one-line reason. The rules module then checks them against the board.

    flip:        {"square": [row, col]}  or  {"stop": true}
    move_spider: {"square": [row, col]}  or  {"square": null}   (null leaves the Spider where it is)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ladder.games.treasure.rules.tiles import COLS, ROWS

FLIP = "flip"
MOVE_SPIDER = "move_spider"
FLIP_SHAPE = 'expected {"square": [row, col]} or {"stop": true}'
SPIDER_SHAPE = 'expected {"square": [row, col]} or {"square": null}'


@dataclass(frozen=True, slots=True)
class Parsed:
    """A decision whose shape is right: a square index (row * COLS + col), a stop, or neither."""

    square: int | None = None
    stop: bool = False


def square_json(index: int) -> list[int]:
    return [index // COLS, index % COLS]


def parse_square(value: Any) -> int | str:
    """The square's index, or the reason `value` is not a square on the board."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return f"a square is [row, col], got {value!r}"
    row, col = value
    # bool is an int subclass in Python, but true/false are not coordinates.
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (row, col)):
        return f"a square is two whole numbers [row, col], got {value!r}"
    if not (0 <= row < ROWS and 0 <= col < COLS):
        return f"square {[row, col]} is off the board (rows 0-{ROWS - 1}, columns 0-{COLS - 1})"
    return row * COLS + col


def parse_flip(decision: Any) -> Parsed | str:
    if not isinstance(decision, dict):
        return f"a decision is a JSON object: {FLIP_SHAPE}"
    keys = set(decision)
    if keys == {"stop"}:
        if decision["stop"] is not True:
            return f'"stop" must be true, got {decision["stop"]!r}'
        return Parsed(stop=True)
    if keys == {"square"}:
        square = parse_square(decision["square"])
        return square if isinstance(square, str) else Parsed(square=square)
    return f"{FLIP_SHAPE}, got keys {sorted(map(str, keys))}"


def parse_move_spider(decision: Any) -> Parsed | str:
    if not isinstance(decision, dict):
        return f"a decision is a JSON object: {SPIDER_SHAPE}"
    if set(decision) != {"square"}:
        return f"{SPIDER_SHAPE}, got keys {sorted(map(str, decision))}"
    if decision["square"] is None:
        return Parsed()
    square = parse_square(decision["square"])
    return square if isinstance(square, str) else Parsed(square=square)
