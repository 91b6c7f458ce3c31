"""The pieces on Drachengold's table that the state holds: adventurers, each keeping its own entry of
an observation current as it moves, and the table's slots, each a dragon with its treasure and
attackers (and the JSON an observation copies while they stay)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, init=False)
class Adventurer:
    id: str
    attack: int
    role: str
    up: bool = True
    dragon: str | None = None  # the dragon it attacks, None when in front of its owner
    # Its entry in an observation, {id, attack, role, face, dragon}, kept current by __setattr__
    # whenever `up` or `dragon` changes (a few times a turn): observation.py hands out copies.
    entry: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __init__(self, id: str, attack: int, role: str, up: bool = True, dragon: str | None = None) -> None:
        # The entry first, so that __setattr__ (every move sets `up` or `dragon`) finds it without a check.
        object.__setattr__(self, "entry", {"id": id, "attack": attack, "role": role, "face": "up", "dragon": None})
        self.id, self.attack, self.role, self.up, self.dragon = id, attack, role, up, dragon

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "up" or name == "dragon":
            try:
                entry = self.entry
            except AttributeError:  # a deep copy or an unpickling sets the slots in order, the entry last, whole
                return
            if name == "up":
                entry["face"] = "up" if value else "down"
            else:
                entry["dragon"] = value

    def move(self, dragon: str | None, up: bool) -> None:
        """Sends it against `dragon` (None: home) face up or down. What the rules call on every move:
        the slots' own setters and the entry at once, where a store through __setattr__ (kept for
        any other store) costs a Python call from C and a generic object.__setattr__ per field."""
        _set_dragon(self, dragon)
        _set_up(self, up)
        entry = self.entry
        entry["dragon"], entry["face"] = dragon, "up" if up else "down"

    def send(self, dragon: str) -> None:
        """Sends it, at home and face up, against `dragon`: move(dragon, True) without setting the
        face it already shows (every attack calls it; each slot setter is a call from Python)."""
        _set_dragon(self, dragon)
        self.entry["dragon"] = dragon


_set_dragon, _set_up = Adventurer.dragon.__set__, Adventurer.up.__set__  # type: ignore[attr-defined]


@dataclass(slots=True)
class Slot:
    dragon: Mapping[str, Any]
    tokens: list[int]
    # (seat, adventurer id, bonus) in the order they were played
    attackers: list[tuple[int, str, int]] = field(default_factory=list)
    # seats in the order they first placed an adventurer here; a recall does not undo it
    # (strategic variant: "the one who first placed a character on this Dragon")
    first_placed: list[int] = field(default_factory=list)
    # (tokens, attackers, its JSON, its token dicts, its attacker dicts) as shown_dragon last made
    # them: while neither list changed, the JSON is handed out again as copies (dragon_json,
    # observation.py). The token dicts are data.py's own (copied on the way out), the lists are
    # snapshots, so a change in place is seen (compared in C, one ==).
    shown: tuple[list[int], list[tuple[int, str, int]], dict[str, Any], list[dict[str, str]],
                 list[dict[str, Any]]] | None = field(default=None, repr=False, compare=False)

    def total(self, advs: list[dict[str, Adventurer]]) -> int:
        total = 0
        for s, a, bonus in self.attackers:  # a loop, not sum() of a generator (_send has it inline)
            total += advs[s][a].attack + bonus
        return total
