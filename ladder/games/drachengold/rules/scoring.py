"""Drachengold scoring: basic, advanced-a (printings 000/001) and advanced-b (printing 002).

A pure function of each player's token colours, so the web site and the tests can score any
position without a game state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any


def majority_points(table: Mapping[str, Any], num_players: int) -> int:
    return int(table["majority"][str(num_players)])


def score_hoards(
    hoards: Sequence[Mapping[str, int]], rules: Mapping[str, Any], gems: Sequence[str]
) -> list[dict[str, Any]]:
    """Per seat: points by source and the total. `hoards` are colour -> count per seat."""
    n = len(hoards)
    counts = [Counter(h) for h in hoards]
    cursed = {s for s, c in enumerate(counts) if c["black"] > 0} if rules["curse"] else set()
    bonus = majority_points(rules, n)
    out: list[dict[str, Any]] = []
    for c in counts:
        out.append(
            {
                "silver": c["silver"] * rules["silver"],
                "gold": c["gold"] * rules["gold"],
                "red": c["red"] * rules["red"],
                "black": c["black"] * rules["black"],
                "majorities": {},
                "sets": 0,
            }
        )
    for colour in gems:
        best = max(c[colour] for c in counts)
        if best == 0:
            continue
        leaders = [s for s, c in enumerate(counts) if c[colour] == best]
        # Curse: a cursed owner alone on top means nobody scores the colour.
        if len(leaders) == 1 and leaders[0] in cursed:
            continue
        if rules["ties"] == "full" or len(leaders) == 1:
            points = bonus
        elif len(leaders) == 2:
            points = bonus // 2
        else:
            points = 0
        for s in leaders:
            if s not in cursed and points:
                out[s]["majorities"][colour] = points
    for s, c in enumerate(counts):
        if s in cursed or rules["sets"] == "none":
            continue
        full_sets = min(c[g] for g in gems)
        if rules["sets"] == "per-set":
            out[s]["sets"] = full_sets * rules["set_points"]
        elif full_sets > 0:
            out[s]["sets"] = rules["set_points"]
    for s, c in enumerate(counts):
        b = out[s]
        b["counts"] = {colour: c[colour] for colour in sorted(c) if c[colour]}
        b["cursed"] = s in cursed
        b["total"] = b["silver"] + b["gold"] + b["red"] + b["black"] + sum(b["majorities"].values()) + b["sets"]
    return out
