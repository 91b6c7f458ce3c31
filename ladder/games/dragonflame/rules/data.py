"""The ladder's edition of DragonFlame, read once from data.json (cards, banners, villages).

Every card of the 91-card main deck gets a stable id `c0`…`c90` in data-file order. An id names
the card's face, so an id appears in an observation or a public event only once the card is
public (face up on a castle, looted, revealed); hidden cards are shown without it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

DRAGONFLAME, KNIGHT, CURSE, PRINCESS = "dragonflame", "knight", "curse", "princess"
STATUE, CHEST, JEWELRY, RELIC = "statue", "chest", "jewelry", "relic"
TREASURES = (CHEST, STATUE, JEWELRY)  # the categories the Princess counts names of
SPYGLASS, RING_OF_FIRE, KNIGHTS_BANE = "Spyglass", "Ring of Fire", "Knight's Bane"
CURSE_BREAKER, LUCKY_CHEST = "Curse Breaker", "Lucky Chest"
RED, BLUE, GREEN = "red", "blue", "green"
FIELD = "Field"


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    category: str
    name: str
    mark: str  # "V", "II" or ""
    fire: int = 0  # Dragonflame: fire icons
    value: int = 0  # Jewelry: Glory Points

    def as_json(self) -> dict:
        return dict(_JSON[self.id])  # a copy: a bot may change what it is given


def _card_json(card: Card) -> dict:
    out = {"id": card.id, "category": card.category, "name": card.name}
    if card.fire:
        out["fire"] = card.fire
    if card.value:
        out["value"] = card.value
    return out


@dataclass(frozen=True, slots=True)
class VillageKind:
    name: str
    spaces: int  # 0 for a Field


def _load():
    raw = json.loads(resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8"))
    cards: list[Card] = []
    for kind in raw["deck"]:
        for i in range(int(kind["count"])):
            mark = "V" if i < kind["v"] else "II" if i < kind["v"] + kind["ii"] else ""
            cards.append(Card(f"c{len(cards)}", kind["category"], kind["name"], mark,
                              int(kind.get("fire", 0)), int(kind.get("value", 0))))
    villages = [VillageKind(v["name"], int(v["spaces"])) for v in raw["villages"] for _ in range(int(v["count"]))]
    return raw, tuple(cards), tuple(villages)


RAW, CARDS, VILLAGES = _load()
CARD_BY_ID: dict[str, Card] = {c.id: c for c in CARDS}
_JSON: dict[str, dict] = {c.id: _card_json(c) for c in CARDS}  # built once: events and observations copy it
PATTERNS: dict[str, dict[int, str]] = {colour: {int(n): p for n, p in table.items()}
                                       for colour, table in RAW["banners"].items()}
LIMIT_OVER_NUMBER: int = int(RAW["castle_limit_over_number"])
FIRE_PER_PLAYER: int = int(RAW["fire_per_player"])
COLOURS: tuple[str, ...] = tuple(RAW["colours"])
TWO_PLAYER_REMOVED: tuple[str, ...] = tuple(RAW["two_player_removed_villages"])
GLORY: dict[int, tuple[int, ...]] = {int(k): tuple(v) for k, v in RAW["village_glory"].items()}
TOTAL_CARDS = len(CARDS)


def castle_limit(number: int) -> int:
    """How many cards castle `number` holds (the fan icon): number + 2."""
    return number + LIMIT_OVER_NUMBER


def deck_for(players: int) -> list[Card]:
    """The main deck for a table size: V cards out below 5 players, II cards out too with 2."""
    out = set() if players >= 5 else {"V"} if players >= 3 else {"V", "II"}
    return [c for c in CARDS if c.mark not in out]
