"""Glory Points from a hoard: every category of the rules' Scoring section.

Villages and the Banner come from the table (village.py, the state); the rest from the cards in a
hoard, after the end-of-game Relics have been resolved (Knight's Bane and Curse Breaker discard
cards; each Lucky Chest lets one more Chest name score as a set).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ladder.games.dragonflame.rules.data import (
    CARD_BY_ID,
    CHEST,
    CURSE,
    JEWELRY,
    KNIGHT,
    PRINCESS,
    STATUE,
    TREASURES,
)

STATUE_POINTS = 5
KNIGHT_POINTS = -3
CURSE_PER_CHEST_NAME = -2


def chest_points(names: Counter, scoring_sets: int = 1) -> int:
    """Each Chest of a scoring set is worth the set's size; only `scoring_sets` names score (the
    largest), every other Chest is -1."""
    sizes = sorted(names.values(), reverse=True)
    scoring, rest = sizes[:scoring_sets], sizes[scoring_sets:]
    return sum(n * n for n in scoring) - sum(rest)


def hoard_points(card_ids: Iterable[str], scoring_sets: int = 1) -> dict[str, int]:
    """The card categories of the breakdown (villages and banner are added by the state)."""
    cards = [CARD_BY_ID[c] for c in card_ids]
    by = Counter(c.category for c in cards)
    statues = Counter(c.name for c in cards if c.category == STATUE)
    chests = Counter(c.name for c in cards if c.category == CHEST)
    treasure_names = {c.name for c in cards if c.category in TREASURES}
    return {
        "statues": sum(STATUE_POINTS for _name, n in statues.items() if n == 1),
        "chests": chest_points(chests, scoring_sets),
        "jewelry": sum(c.value for c in cards if c.category == JEWELRY),
        "princess": len(treasure_names) if by[PRINCESS] else 0,
        "knights": KNIGHT_POINTS * by[KNIGHT],
        "curse": CURSE_PER_CHEST_NAME * len(chests) if by[CURSE] else 0,
    }
