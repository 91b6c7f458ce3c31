"""DragonFlame at a person's table (ladder/web/play.py): the seat's observation as a viewer frame.

`frame(observation)` is the replay viewer's frame (frames.py says its shape) made from what the
seat sees now, so the page draws the castles, the villages and the dragons with the viewer's own
script; the castles the request offers are marked for the person to click. `event_line` is the
match page's. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.dragonflame.view.lines import card_text, event_line
from ladder.games.dragonflame.view.timeline import Table

__all__ = ["event_line", "frame", "picks", "targets"]


def picks(observation: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The castles the request lets the person click."""
    request = observation.get("request") or {}
    if request.get("kind") in ("play", "spy", "attack"):
        return {"castles": list(request.get("castles", []))}
    return {}


HINTS = {"play": "Click a castle to play your card on it (the card: in the panel).",
         "spy": "Click the castle whose face-down cards you look at.", "attack": "Click the castle you attack."}


def targets(observation: Mapping[str, Any]) -> dict[str, Any]:
    """For the page (ladder/web/static/play.js): a click on an offered castle picks it in the form."""
    castles = picks(observation).get("castles")
    if castles is None:
        return {"hint": "", "targets": []}
    return {"hint": HINTS[observation["request"]["kind"]],
            "targets": [{"field": "castle", "select": ".df-castle[data-castle]", "attr": "data-castle",
                         "values": {str(n): str(n) for n in castles}}]}


def _card(card: Mapping[str, Any], spied: bool = False) -> dict[str, Any]:
    inner = card.get("card")
    return {"face": card.get("face"), "by": card.get("by"), "text": card_text(inner),
            "category": (inner or {}).get("category", "unknown"), "spied": spied and bool(inner)}


def frame(observation: Mapping[str, Any]) -> dict[str, Any]:
    me = int(observation.get("seat", -1))
    players = int(observation.get("players", 0))
    table = Table(players)  # the match page's table, filled from what the seat sees: the same drawing
    table.grid = [[{"name": c.get("name"), "spaces": c.get("spaces", 0), "fire": list(c.get("fire") or [])}
                   for c in row] for row in observation.get("grid") or []]
    table.banners = list(observation.get("banners") or [])
    table.hoards = [list(h) for h in observation.get("hoards") or [[] for _ in range(players)]]
    table.fire = list(observation.get("fire") or [15] * players)
    table.castles = [{"colour": c.get("colour"), "number": c.get("number"), "limit": c.get("limit"),
                      "attacker": c.get("attacker"),
                      "cards": [_card(x, spied=x.get("by") != me) for x in c.get("cards") or []]}
                     for c in observation.get("castles") or []]
    drawing = table.drawing(lambda s: f"seat {s}", with_castles=True)
    sizes = list(observation.get("hand_sizes") or [0] * players)
    hands = [{"size": sizes[s], "cards": [{"text": card_text(c), "category": c.get("category", "")}
                                          for c in observation.get("hand") or []] if s == me else None}
             for s in range(players)]
    current = observation.get("current")
    return {"title": f"Round {observation.get('round', '?')}", "seat": current if isinstance(current, int) else None,
            "lines": [], "scores": list(drawing["scores"]),
            "table": {**drawing, "hands": hands, "deck": observation.get("deck"),
                      "mark": {"castle": None, "cells": []}}}
