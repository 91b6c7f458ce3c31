"""Drachengold scoring: basic, advanced-a (printings 000/001) and advanced-b (printing 002).

A pure function of each player's token colours, so the web site and the tests can score any
position without a game state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any


def majority_points(table: Mapping[str, Any], num_players: int) -> int:
    return int(table["majority"][str(num_players)])


def score_hoards(
    hoards: Sequence[Mapping[str, int]], rules: Mapping[str, Any], gems: Sequence[str]
) -> list[dict[str, Any]]:
    """Per seat: points by source and the total. `hoards` are colour -> count per seat."""
    counts = [Counter(h) for h in hoards]
    cursed = cursed_seats(counts, rules)
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
    for colour, leaders, points in _majorities(counts, rules, gems, cursed):
        for s in leaders:
            out[s]["majorities"][colour] = points
    for s, c in enumerate(counts):
        b = out[s]
        b["sets"] = set_points(c, rules, gems, s in cursed)
        b["counts"] = {colour: c[colour] for colour in sorted(c) if c[colour]}
        b["cursed"] = s in cursed
        b["total"] = b["silver"] + b["gold"] + b["red"] + b["black"] + sum(b["majorities"].values()) + b["sets"]
    return out


def score_totals(hoards: Sequence[Mapping[str, int]], rules: Mapping[str, Any], gems: Sequence[str]) -> list[int]:
    """Each seat's total alone, as score_hoards adds it up: the scorecard's ex-post worths score the
    final hoards some eighty times a match (view/expost.py) and need no breakdown (nor Counters:
    the hoards are read with .get)."""
    cursed = cursed_seats(hoards, rules)
    silver, gold, red, black = rules["silver"], rules["gold"], rules["red"], rules["black"]
    totals = [h.get("silver", 0) * silver + h.get("gold", 0) * gold + h.get("red", 0) * red
              + h.get("black", 0) * black + set_points(h, rules, gems, s in cursed) for s, h in enumerate(hoards)]
    for _colour, leaders, points in _majorities(hoards, rules, gems, cursed):
        for s in leaders:
            totals[s] += points
    return totals


def cursed_seats(counts: Sequence[Mapping[str, int]], rules: Mapping[str, Any]) -> set[int]:
    """The seats whose hoard holds the cursed black diamond (none under rules without the curse)."""
    return {s for s, c in enumerate(counts) if c.get("black", 0) > 0} if rules["curse"] else set()


def _majorities(counts: Sequence[Mapping[str, int]], rules: Mapping[str, Any], gems: Sequence[str],
                cursed: set[int]) -> Iterator[tuple[str, list[int], int]]:
    """(colour, the seats scoring its majority, the points each) for every gem colour someone scores."""
    for colour in gems:
        scoring, points = majority([c.get(colour, 0) for c in counts], rules, cursed)
        if scoring:
            yield colour, scoring, points


def majority(held: Sequence[int], rules: Mapping[str, Any], cursed: set[int]) -> tuple[list[int], int]:
    """One gem colour's majority from each seat's count of it: the seats scoring it and the points
    each (([], 0) when nobody does)."""
    best = max(held)
    if best == 0:
        return [], 0
    leaders = [s for s, n in enumerate(held) if n == best]
    # Curse: a cursed owner alone on top means nobody scores the colour.
    if len(leaders) == 1 and leaders[0] in cursed:
        return [], 0
    bonus = majority_points(rules, len(held))
    if rules["ties"] == "full" or len(leaders) == 1:
        points = bonus
    elif len(leaders) == 2:
        points = bonus // 2
    else:
        return [], 0
    return [s for s in leaders if s not in cursed], points


def set_points(c: Mapping[str, int], rules: Mapping[str, Any], gems: Sequence[str], cursed: bool) -> int:
    """A hoard's points for gem sets (`cursed`: its owner holds the cursed black diamond)."""
    if cursed or rules["sets"] == "none":
        return 0
    full_sets = min(c.get(g, 0) for g in gems)
    if rules["sets"] == "per-set":
        return full_sets * rules["set_points"]
    return rules["set_points"] if full_sets > 0 else 0
