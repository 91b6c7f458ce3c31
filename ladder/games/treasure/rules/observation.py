"""What one seat may see of a Treasure game: everything public, no face-down tile's identity.

A face-down square shows only "down", even when its tile was flipped earlier in the game: bots
that want to remember the board do so from the public flip events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ladder.games.base import JSON
from ladder.games.treasure.rules.decisions import FLIP, MOVE_SPIDER, square_json
from ladder.games.treasure.rules.tiles import COLS, COUNTS, KINDS, ROWS, SET_SIZE, SPIDER

if TYPE_CHECKING:
    from ladder.games.treasure.rules.state import TreasureState


def observe(state: TreasureState, seat: int) -> dict[str, JSON]:
    up = set(state.flipped)
    cells = ["empty" if tile is None else tile if i in up else "down" for i, tile in enumerate(state.grid)]
    pending = state.pending()
    obs: dict[str, JSON] = {
        "game": "treasure",
        "seat": seat,
        "players": state.num_players,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "current": state.current,
        "grid": [cells[r * COLS : (r + 1) * COLS] for r in range(ROWS)],
        "flipped": [{"square": square_json(i), "kind": state.grid[i]} for i in state.flipped],
        "dragon_run": state.dragon_run,
        "tile_counts": dict(COUNTS),
        "set_sizes": dict(SET_SIZE),
        "hoards": [{k: hoard[k] for k in KINDS if k != SPIDER} for hoard in state.hoards],
        "spider_bonus": list(state.spider_bonus),
        "over": pending is None,
        "end_reason": state.end_reason,
    }
    if pending is not None and pending.seat == seat:
        obs["request"] = request(state)
    return obs


def request(state: TreasureState) -> dict[str, JSON]:
    """The pending decision and its legal moves, for the seat that must make it."""
    pending = state.pending()
    assert pending is not None
    if pending.kind == FLIP:
        return {
            "kind": FLIP,
            "can_stop": bool(state.flipped),
            "squares": [square_json(i) for i in state.face_down()],
        }
    assert state.spider_at is not None
    return {
        "kind": MOVE_SPIDER,
        "spider": square_json(state.spider_at),
        "squares": [square_json(i) for i in state.empty_squares()],
        "may_leave": True,
    }
