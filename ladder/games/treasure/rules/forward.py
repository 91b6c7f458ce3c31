"""Determinizations of Treasure of the Dragons for one seat (the forward model, bots/forward.py).

Everything in Treasure is public except which tile lies on a face-down square. A seat knows the
tiles it saw flipped there (every flip is public) until they are won or, for a Spider, moved; the
other face-down squares hold, in some order, the tiles no one has seen yet. A determinization
keeps every known tile where it lies and shuffles the unseen ones over the unseen squares.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ladder.games.base import Event, Pending
from ladder.games.treasure.rules.decisions import FLIP, MOVE_SPIDER
from ladder.games.treasure.rules.state import TreasureState
from ladder.games.treasure.rules.tiles import COLS, COUNTS, SPIDER


def known_tiles(events: list[dict[str, Any]]) -> dict[int, str]:
    """Square index -> kind for every tile seen flipped that is still in the cave where it was seen."""
    known: dict[int, str] = {}
    for event in events:
        kind, data = event["type"], event["data"]
        if kind == "flip":
            row, col = data["square"]
            known[row * COLS + col] = data["kind"]
        elif kind == "keep":
            for row, col in data["squares"]:
                known.pop(row * COLS + col, None)
        elif kind == "spider_move" and data["to"] is not None:
            known.pop(data["from"][0] * COLS + data["from"][1], None)
            known[data["to"][0] * COLS + data["to"][1]] = SPIDER
    return known


def _spider_waiting(events: list[dict[str, Any]]) -> int | None:
    """The square of the Spider its finder must move now: a turn just ended on one, unmoved."""
    if not events or events[-1]["type"] != "turn_end" or events[-1]["data"]["reason"] != "spider":
        return None
    flips = [e for e in events if e["type"] == "flip"]
    row, col = flips[-1]["data"]["square"]
    return row * COLS + col


def determinize(hello: dict[str, Any], observation: dict[str, Any], events: list[dict[str, Any]],
                rng: random.Random) -> TreasureState:
    """A full state agreeing with `observation` and `events`, unseen tiles shuffled with `rng`."""
    from ladder.games.treasure import Treasure

    cells = [cell for row in observation["grid"] for cell in row]
    known = known_tiles(events)
    layout: list[str | None] = [None] * len(cells)
    unseen: list[int] = []
    for i, cell in enumerate(cells):
        if cell == "down":
            if i in known:
                layout[i] = known[i]
            else:
                unseen.append(i)
        elif cell != "empty":
            layout[i] = cell
    left = Counter(COUNTS)
    for hoard in observation["hoards"]:
        left.subtract(hoard)
    left[SPIDER] -= sum(observation["spider_bonus"])
    left.subtract(k for k in layout if k is not None)
    pool = sorted(left.elements())  # sorted: the same rng draw gives the same state
    rng.shuffle(pool)
    if len(pool) != len(unseen) or min(left.values(), default=0) < 0:
        raise ValueError("the events and the observation disagree on the tiles still unseen")
    for i, tile in zip(unseen, pool, strict=True):
        layout[i] = tile
    # The layout must hold all 49 tiles: the won ones (hoards, the Spider bonus) fill the empty
    # squares, which are emptied again below.
    empties = [i for i, cell in enumerate(cells) if cell == "empty"]
    owed = Counter(COUNTS) - Counter(t for t in layout if t is not None)
    for i, tile in zip(empties, owed.elements(), strict=True):
        layout[i] = tile
    seed = rng.getrandbits(64)
    state = Treasure().new_state(hello.get("options") or {}, seed, int(observation["players"]), layout=layout,
                                 max_turns=int(observation["max_turns"]))
    for i in empties:
        state.grid[i] = None
    state.flipped = [row * COLS + col for row, col in (f["square"] for f in observation["flipped"])]
    state.dragon_run = bool(observation["dragon_run"])
    state.hoards = [Counter({k: n for k, n in hoard.items() if n}) for hoard in observation["hoards"]]
    state.spider_bonus = list(observation["spider_bonus"])
    state.current = int(observation["current"])
    state.turn = int(observation["turn"])
    state.end_reason = observation["end_reason"]
    state.events = [Event.from_json(e) for e in events]
    if observation["over"]:
        state._pending = None
    else:
        state.spider_at = _spider_waiting(events)
        state._pending = Pending(state.current, FLIP if state.spider_at is None else MOVE_SPIDER)
    return state
