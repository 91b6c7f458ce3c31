"""Treasure at a person's table (ladder/web/play.py): the seat's observation as a viewer frame.

`frame(observation)` is the replay viewer's frame (frames.py says its shape) made from what the
seat sees now, so the page draws the cave with the viewer's own script; the squares the request
offers are outlined ("hl") for the person to click. `event_line` is the match page's. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.treasure.view.steps import event_line
from ladder.games.treasure.view.timeline import square_name

__all__ = ["event_line", "frame", "picks", "targets"]


def picks(observation: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The squares the request lets the person click, as [row, col]."""
    request = observation.get("request") or {}
    return {"squares": [list(s) for s in request.get("squares", [])]}


def targets(observation: Mapping[str, Any]) -> dict[str, Any]:
    """For the page (ladder/web/static/play.js): a click on an offered square (the viewer names it
    "C5") picks it in the form ("4,2")."""
    kind = (observation.get("request") or {}).get("kind")
    values = {square_name(r, c): f"{r},{c}" for r, c in picks(observation)["squares"]}
    hint = "Click a face-down tile to flip it." if kind == "flip" else "Click the empty square the Spider moves to."
    return {"hint": hint, "targets": [{"field": "square", "select": "td[data-square]", "attr": "data-square",
                                       "values": values}]}


def frame(observation: Mapping[str, Any]) -> dict[str, Any]:
    grid = observation.get("grid") or []
    flipped = {tuple(f.get("square", ())): f.get("kind") for f in observation.get("flipped") or []}
    cells = []
    for r, row in enumerate(grid):
        cells.append([["empty", ""] if face == "empty" else ["down", ""] if face == "down"
                      else ["up", str(flipped.get((r, c), face))] for c, face in enumerate(row)])
    hoards = [dict(h) for h in observation.get("hoards") or []]
    left = sum(1 for row in grid for face in row if face != "empty")
    current = observation.get("current")
    return {"title": f"Turn {observation.get('turn', '?')}", "seat": current if isinstance(current, int) else None,
            "lines": [], "scores": [sum(h.values()) for h in hoards],
            "board": {"rows": len(grid), "cols": len(grid[0]) if grid else 0, "cells": cells,
                      "hl": picks(observation)["squares"], "hoards": hoards, "left": left}}
