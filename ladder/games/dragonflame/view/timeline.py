"""One pass over a DragonFlame replay: the table as one sight knew it after every log entry.

Iterating `Timeline.of(replay, sight)` walks a typed replay's log once and yields a `Moment` for
each entry the sight keeps (`Timeline.step` takes the entries one at a time: the live view's
stream); the timeline's fields (`table`, `hands`, `hand_size`, `deck`, `title`, `round`) stand as
that entry left them. They are updated in place, so a reader copies what it keeps. Both readers
of a replay take the table from here, the match page's step list (steps.py) and the viewer's
frames (frames.py); only what they draw and say is their own.

A sight is what the pass may learn. The log holds every seat's private events (the hands dealt,
what a Spyglass saw) and every decision, and a play decision names its card even face down:
- `PAGE`, the match page of a finished match: the public events, and every play decision, so the
  drawings name every face-down card (marked face down) but tell no seat's private news;
- `Sight(seat)`: also the events addressed to `seat`, and its own play decisions;
- `Sight(seat, events=True, decisions=True)`: everything (the viewer's "reveal").

An event that starts a section (a round's plays, its attacks, the end) is yielded twice: first with
`opens` set, before it changes anything (the step list draws the section it closes as it stood),
then as itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.games.dragonflame.rules.data import CARD_BY_ID, COLOURS, castle_limit
from ladder.games.dragonflame.rules.scoring import hoard_points
from ladder.games.dragonflame.rules.village import Cell, village_glory
from ladder.games.dragonflame.view.lines import card_text
from ladder.games.render import Who
from ladder.replay.model import Decision, Entry, Replay


@dataclass(frozen=True, slots=True)
class Sight:
    seat: int | None = None  # whose private events and play decisions it keeps
    events: bool = False  # every event, whoever it was addressed to
    decisions: bool = False  # every play decision's card

    def sees_event(self, to: Any) -> bool:
        return to is None or self.events or (self.seat is not None and self.seat in to)

    def sees_play(self, seat: Any) -> bool:
        return self.decisions or (self.seat is not None and seat == self.seat)


PAGE = Sight(decisions=True)


@dataclass(frozen=True, slots=True)
class Moment:
    entry: Entry
    kind: Any  # the event's type, or the decision's kind
    data: dict[str, Any]  # the event's data ({} for a decision)
    seat: Any  # who acted: the event's data names it, a decision carries it
    is_decision: bool = False
    opens: bool = False  # a new section (Timeline.title) starts with this event, not yet applied
    index: int = -1  # the entry's place in the replay's log (the owner's decisions are keyed by it)


class Table:
    """The table as the sight knows it, and its drawing (the match page's and the viewer's)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.grid: list[list[dict[str, Any]]] = []
        self.castles: list[dict[str, Any]] = []
        self.banners: list[dict[str, Any]] = []
        self.hoards: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.fire = [15] * players
        self.lucky = [0] * players
        self.pending_card: dict[int, str] = {}  # seat -> card id of its last play decision the sight saw

    def castle(self, number: Any) -> dict[str, Any] | None:
        return next((c for c in self.castles if c["number"] == number), None)

    def scores(self) -> list[int]:
        villages = [0] * self.players
        for row in self.grid:
            for cell in row:
                for seat, glory in enumerate(village_glory(Cell(cell["name"], cell["spaces"], cell["fire"]),
                                                           self.players)):
                    villages[seat] += glory
        out = []
        for seat in range(self.players):
            points = hoard_points([c["id"] for c in self.hoards[seat]], 1 + self.lucky[seat])
            banner = self.banners[seat]["number"] if seat < len(self.banners) else 0
            out.append(villages[seat] + banner + sum(points.values()))
        return out

    def drawing(self, who: Who, with_castles: bool, *, owners: bool = True) -> dict[str, Any]:
        """`owners`: say whose each face-down card is ("by"; the match page's drawing never did)."""
        def stack(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return list(cards) if owners else [{k: v for k, v in c.items() if k != "by"} for c in cards]

        return {
            "castles": [dict(c, cards=stack(c["cards"])) for c in self.castles] if with_castles else [],
            "banners": [{"who": who(s), **b} for s, b in enumerate(self.banners)],
            "grid": [[{**cell, "fire": [COLOURS[s % len(COLOURS)] for s in cell["fire"]],
                       "full": len(cell["fire"]) >= cell["spaces"] > 0} for cell in row] for row in self.grid],
            "hoards": [{"who": who(s), "colour": COLOURS[s % len(COLOURS)], "fire": self.fire[s],
                        "cards": [card_text(c) for c in h], "categories": [c["category"] for c in h]}
                       for s, h in enumerate(self.hoards)],
            "scores": self.scores(),
        }

    def apply(self, kind: Any, d: dict[str, Any]) -> None:
        seat = d.get("seat")
        if kind == "setup":
            self.grid = [[{"name": c["name"], "spaces": c["spaces"], "fire": list(c["fire"])} for c in row]
                         for row in d.get("grid", [])]
            self.banners = list(d.get("banners", []))
        elif kind == "round":
            self.castles = [{**c, "limit": castle_limit(c["number"]), "cards": [], "attacker": None}
                            for c in d.get("castles", [])]
            self.banners = list(d.get("banners", []))
        elif kind == "play" and (castle := self.castle(d.get("castle"))) is not None:
            card = d.get("card")
            hidden = CARD_BY_ID.get(self.pending_card.get(seat, ""))
            castle["cards"].append({"face": d.get("face"), "text": card_text(card or (hidden and hidden.as_json())),
                                    "category": (card or (hidden and hidden.as_json()) or {}).get("category", "")})
            if d.get("face") != "up":
                castle["cards"][-1]["by"] = seat  # whose card it is: public
        elif kind == "attack" and (castle := self.castle((d.get("castle") or {}).get("number"))) is not None:
            castle["attacker"] = seat
            castle["cards"] = []
            self.hoards[seat] += [c for c in d.get("cards", []) if c.get("category") != "dragonflame"]
        elif kind == "second_discarded":
            gone = (d.get("card") or {}).get("id")
            self.hoards[seat] = [c for c in self.hoards[seat] if c.get("id") != gone]
        elif kind == "flame":
            for p in d.get("placed", []):
                self.grid[p["row"]][p["col"]]["fire"].append(seat)
            self.fire[seat] = d.get("fire_left", self.fire[seat])
        elif kind == "castle_discarded" and (castle := self.castle((d.get("castle") or {}).get("number"))):
            castle["cards"] = []
        elif kind == "round_end":
            self.banners = list(d.get("banners", []))
        elif kind == "relic":
            gone = {c.get("id") for c in d.get("discarded", [])}
            self.hoards[seat] = [c for c in self.hoards[seat] if c.get("id") not in gone]
            self.lucky[seat] += d.get("relic") == "Lucky Chest"
        elif kind == "spied" and (castle := self.castle(d.get("castle"))) is not None:
            seen = iter(d.get("cards", []))  # the Spyglass showed the face-down cards in stack order
            for placed in castle["cards"]:
                if placed.get("face") == "down" and (card := next(seen, None)) is not None:
                    placed.update(text=card_text(card), category=card.get("category", ""), spied=True)


class Timeline:
    def __init__(self, players: int, sight: Sight = PAGE, log: Sequence[Entry] = ()) -> None:
        self.sight, self.log = sight, log
        self.players = int(players)
        self.table = Table(self.players)
        self.hand_size = [0] * self.players
        self.hands: list[list[dict[str, Any]] | None] = [None] * self.players  # card json, when the sight saw it
        self.deck: Any = None  # cards left, as the last setup, round or round_end said
        self.title, self.round, self._attacking = "Setup", 0, False

    @classmethod
    def of(cls, replay: Replay, sight: Sight = PAGE) -> Timeline:
        """The timeline of a whole replay: iterate it for its moments."""
        return cls(replay.header.players, sight, replay.log)

    def __iter__(self) -> Iterator[Moment]:
        for index, entry in enumerate(self.log):
            yield from self.step(index, entry)

    def step(self, index: int, entry: Entry) -> Iterator[Moment]:
        """The moments of one more entry (none, one, or two for an event that opens a section: the
        first comes before the event changes anything, so a reader draws the section it closes)."""
        if isinstance(entry, Decision):  # a play's card is learnt only by a sight that sees it
            seat, decision = entry.seat, entry.decision
            if entry.kind == "play" and isinstance(decision, dict) and self.sight.sees_play(seat):
                self.table.pending_card[seat] = str(decision.get("card"))
            yield Moment(entry, entry.kind, {}, seat, is_decision=True, index=index)
            return
        if not self.sight.sees_event(entry.to):
            return
        kind, d = entry.type, entry.data or {}
        if self._opens(kind, d):
            yield Moment(entry, kind, d, d.get("seat"), opens=True, index=index)
        self._apply(kind, d)
        yield Moment(entry, kind, d, d.get("seat"), index=index)

    def _opens(self, kind: Any, d: dict[str, Any]) -> bool:
        if kind == "round":
            self.round, self._attacking = d.get("round"), False
            self.title = f"Round {self.round}: cards played"
        elif kind in ("spy", "attack") and not self._attacking:
            self._attacking, self.title = True, f"Round {self.round}: attacks"
        elif kind == "game_end":
            self.title = "End"
        else:
            return False
        return True

    def _apply(self, kind: Any, d: dict[str, Any]) -> None:
        seat = d.get("seat")
        mine = isinstance(seat, int) and 0 <= seat < self.players
        if kind == "round":
            self.hand_size = [4 if self.players == 2 else 3] * self.players
            self.hands = [[] if self.sight.sees_play(k) else None for k in range(self.players)]
        if "deck" in d and kind in ("setup", "round", "round_end"):
            self.deck = d["deck"]
        if kind == "hand" and mine:
            self.hands[seat] = list(d.get("cards", []))
        elif kind == "play" and mine:
            self.hand_size[seat] = max(0, self.hand_size[seat] - 1)
            played = (d.get("card") or {}).get("id") or self.table.pending_card.get(seat)
            hand = self.hands[seat]
            if hand is not None:
                gone = next((i for i, c in enumerate(hand) if c.get("id") == played), None)
                if gone is not None:
                    hand.pop(gone)
        self.table.apply(kind, d)
