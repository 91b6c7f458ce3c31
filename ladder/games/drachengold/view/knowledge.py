"""What one viewer of a Drachengold replay knows of the table: the state the one pass (timeline.py)
keeps, from which the viewer's frames (frames.py) are drawn.

`Knowledge` is fed only the events its viewer saw (timeline.py decides which). Tokens a private
event moved out of the viewer's sight are counted, not guessed: `unseen` tokens arrived without
their colour being shown, `lost` tokens left a hoard without the viewer learning which.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ladder.games.drachengold.rules.data import DECK
from ladder.games.drachengold.rules.scoring import score_hoards
from ladder.games.frames import Heading
from ladder.replay.model import LoggedEvent

ATTACK = {a["id"]: int(a["attack"]) for a in DECK["adventurers"]}


def colours(tokens: Any) -> dict[str, int]:
    counts = Counter(t.get("colour", "?") for t in tokens or [] if isinstance(t, dict))
    return dict(sorted(counts.items()))


def count_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "nothing"


class Knowledge:
    """The table as one viewer knows it."""

    def __init__(self, heading: Heading, seat: int | None, reveal: bool) -> None:
        self.seat, self.reveal = seat, reveal
        self.names = list(heading.names)
        self.n = int(heading.players)
        self.rules = heading.options.get("rules", "basic")
        self.advanced = self.rules != "basic"
        self.slots: list[dict[str, Any] | None] = []
        self.advs = [{a: "home" for a in ATTACK} for _ in range(self.n)]
        self.known: list[list[dict[str, str]]] = [[] for _ in range(self.n)]  # tokens seen to arrive
        self.unseen = [0] * self.n
        self.lost = [0] * self.n
        self.known_version = [0] * self.n  # bumped on every change to known[s]
        self.colour_cache: dict[int, tuple[int, dict[str, int]]] = {}
        self.points: tuple[tuple[int, ...] | None, list[int]] = (None, [])
        self.hand_size = [0] * self.n
        self.cards: list[list[dict[str, str]]] = [[] for _ in range(self.n)]
        self.colour_of: dict[str, str] = {}
        self.negotiation: dict[str, Any] | None = None
        self.division: dict[str, Any] | None = None
        self.market: dict[str, Any] | None = None
        self.bag: int | None = None
        self.slain = 0
        self.final: list[int] | None = None
        self.windfall_seen = False

    # --- helpers ---------------------------------------------------------------------
    def who(self, s: Any) -> str:
        return self.names[s] if isinstance(s, int) and 0 <= s < len(self.names) else f"seat {s}"

    def seats(self, *values: Any) -> bool:
        """True when every value is a seat of this match (a hand-edited replay may say anything)."""
        return all(isinstance(x, int) and 0 <= x < self.n for x in values)

    def sees(self, entry: LoggedEvent) -> bool:
        to = entry.to
        return self.reveal or to is None or (self.seat is not None and self.seat in to)

    def learn(self, tokens: Any) -> None:
        for t in tokens or []:
            if isinstance(t, dict) and "id" in t:
                self.colour_of[t["id"]] = t.get("colour", "?")

    def gain(self, seat: Any, tokens: Any) -> None:
        if isinstance(seat, int) and 0 <= seat < self.n:
            self.learn(tokens)
            self.known[seat].extend(t for t in tokens or [] if isinstance(t, dict))
            self.known_version[seat] += 1

    def lose(self, seat: Any, token_id: str) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.n):
            return
        for i, t in enumerate(self.known[seat]):
            if t.get("id") == token_id:
                del self.known[seat][i]
                self.known_version[seat] += 1
                return
        if self.unseen[seat]:
            self.unseen[seat] -= 1
        else:
            self.lost[seat] += 1

    def id_colours(self, ids: Any) -> dict[str, int]:
        """Tokens named by id, counted by the colours this viewer has seen them in ("?" if never)."""
        return dict(sorted(Counter(self.colour_of.get(t, "?") for t in ids).items()))

    def stand(self, seat: Any, adventurer: Any, where: Any) -> None:
        """Where one of a seat's adventurers now is: home, down (face down) or a dragon's id."""
        if self.seats(seat):
            self.advs[seat][adventurer] = where

    def slot_of(self, dragon: Any) -> dict[str, Any] | None:
        for slot in self.slots:
            if slot is not None and slot["id"] == dragon:
                return slot
        return None

    def take_from_slot(self, dragon: Any, tokens: Any) -> None:
        slot = self.slot_of(dragon)
        if slot is None:
            return
        for colour, k in colours(tokens).items():
            left = slot["tokens"].get(colour, 0) - k
            if left > 0:
                slot["tokens"][colour] = left
            else:
                slot["tokens"].pop(colour, None)

    def clear_slain(self) -> None:
        """A slain dragon leaves the table once its treasure is shared; its attackers lie face down."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.get("slain"):
                for s, a, _ in slot["attackers"]:
                    if 0 <= s < self.n and a in self.advs[s]:
                        self.advs[s][a] = "down"
                self.slots[i] = None

    def remove_attacker(self, dragon: Any, seat: Any, adv: Any) -> None:
        slot = self.slot_of(dragon)
        if slot is not None:
            slot["attackers"] = [x for x in slot["attackers"] if not (x[0] == seat and x[1] == adv)]
            slot["total"] = sum(x[2] for x in slot["attackers"])

    def hoardcolours(self, s: int) -> dict[str, int]:
        """The colours of the tokens seen arriving, counted again only after the hoard changed."""
        version, counts = self.colour_cache.get(s, (-1, {}))
        if version != self.known_version[s]:
            counts = colours(self.known[s])
            self.colour_cache[s] = (self.known_version[s], counts)
        return counts

    def hoard_size(self, s: int) -> int:
        return len(self.known[s]) + self.unseen[s] - self.lost[s]

    def scores(self) -> list[int]:
        if not self.reveal:  # points need the colours, which private events may have hidden
            return [self.hoard_size(s) for s in range(self.n)]
        if self.final is not None:
            return list(self.final)
        key = tuple(self.known_version)
        if self.points[0] != key:  # score again only when some hoard changed
            hoards = [self.hoardcolours(s) for s in range(self.n)]
            table = DECK["scoring"].get(self.rules) or DECK["scoring"]["basic"]
            self.points = (key, [int(b["total"]) for b in score_hoards(hoards, table, DECK["gems"])])
        return list(self.points[1])

    def board(self) -> dict[str, Any]:
        board: dict[str, Any] = {
            "slots": self.slots,
            "adventurers": self.advs,
            "hoards": [{"size": self.hoard_size(s), "colours": self.hoardcolours(s), "unseen": self.unseen[s],
                        "lost": self.lost[s]} for s in range(self.n)],
            "negotiation": self.negotiation,
            "division": self.division,
            "market": self.market,
            "bag": self.bag,
            "slain": self.slain,
        }
        if self.advanced:
            board["hands"] = [{"size": self.hand_size[s], "cards": sorted(c["kind"] for c in self.cards[s])}
                              for s in range(self.n)]
        return json.loads(json.dumps(board))  # a snapshot: several times faster than copy.deepcopy

