"""One pass over a Toy Nim replay: the table as one sight knew it after every log entry.

Iterating `Timeline.of(replay, sight)` yields a `Moment` per typed log entry the sight keeps
(`step` takes one entry at a time); the
timeline's fields (`pile`, `taken`, `secrets`, `bets`, `title`) stand as that entry left them, so
both readers, the step list (steps.py) and the viewer frames (frames.py), draw the same table. An
event that starts a section (the taking, the betting, the end) is yielded twice: first with `opens`
set, before it changes anything (the step list draws the section it closes as it stood), then as
itself, under the new `title`.

A sight: `seat` None is the public (no secret until the reveal, no bet's side); a seat also sees its
own secret and its own bets; `reveal` sees every event and decision (the match is over).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.replay.model import Decision, Entry, Replay


@dataclass(frozen=True, slots=True)
class Sight:
    seat: int | None = None
    reveal: bool = False

    def sees(self, to: Any, seat: Any = None) -> bool:
        """An event addressed to `to` (None: everyone), or a decision of `seat`."""
        if self.reveal:
            return True
        if seat is not None:
            return seat == self.seat
        return to is None or (self.seat is not None and self.seat in to)


PUBLIC = Sight()
SECTIONS = {"took": "Taking", "pile_empty": "Betting", "reveal": "End"}  # the event a section starts with


@dataclass(frozen=True, slots=True)
class Moment:
    entry: Entry
    kind: Any  # the event's type, or the decision's kind
    seat: Any  # who acted
    is_decision: bool = False
    opens: bool = False  # a new section starts with this event, not yet applied (yielded again after)
    index: int = -1  # the entry's place in the replay's log


class Timeline:
    def __init__(self, players: int, sight: Sight = PUBLIC, log: Sequence[Entry] = ()) -> None:
        self.sight, self.log = sight, log
        self.players = int(players)
        self.pile = 0
        self.taken = [0] * self.players
        self.secrets: list[int | None] = [None] * self.players  # None: this sight does not know it
        self.bets: list[str] = [""] * self.players  # "", "made" (side unseen), "high" or "low"
        self.title = "Setup"

    @classmethod
    def of(cls, replay: Replay, sight: Sight = PUBLIC) -> Timeline:
        return cls(replay.header.players, sight, replay.log)

    def drawing(self) -> dict[str, Any]:
        """The table as a fresh JSON value (the fields above change as the pass goes on)."""
        return {"pile": self.pile, "taken": list(self.taken), "secrets": list(self.secrets), "bets": list(self.bets)}

    def __iter__(self) -> Iterator[Moment]:
        for index, entry in enumerate(self.log):
            yield from self.step(index, entry)

    def step(self, index: int, entry: Entry) -> Iterator[Moment]:
        if isinstance(entry, Decision):
            seat, decision = entry.seat, entry.decision
            if entry.kind == "bet" and isinstance(decision, dict) and self.sight.sees(None, seat) \
                    and self._is_seat(seat):
                self.bets[seat] = "high" if decision.get("high") is True else "low"
            yield Moment(entry, entry.kind, seat, is_decision=True, index=index)
            return
        if not self.sight.sees(entry.to):
            return
        kind, data = entry.type, entry.data or {}
        title = SECTIONS.get(kind)
        if title is not None and title != self.title:
            yield Moment(entry, kind, data.get("seat"), opens=True, index=index)
            self.title = title
        self._apply(kind, data)
        yield Moment(entry, kind, data.get("seat"), index=index)

    def _is_seat(self, seat: Any) -> bool:
        return isinstance(seat, int) and 0 <= seat < self.players

    def _apply(self, kind: Any, d: dict[str, Any]) -> None:
        seat = d.get("seat")
        if kind == "start":
            self.pile = d.get("pile", 0)
        elif kind == "secret" and self._is_seat(seat):
            self.secrets[seat] = d.get("value")
        elif kind == "took" and self._is_seat(seat):
            self.taken[seat] += d.get("n", 0)
            self.pile = d.get("pile", self.pile)
        elif kind == "bet" and self._is_seat(seat):
            self.bets[seat] = self.bets[seat] or "made"
        elif kind == "reveal":
            self.secrets = list(d.get("secrets", self.secrets))
