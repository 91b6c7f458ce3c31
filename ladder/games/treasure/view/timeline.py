"""One pass over a Treasure replay: the cave after every log entry.

`walk(replay)` yields, for each entry of a typed replay's log in order, a `Moment` (what the entry
was and what it did to the squares) together with the `Cave` as that entry left it; a `Pass` takes
the entries one at a time (the live view's stream, frames.py). The cave is one object updated in
place, so a reader copies what it keeps. Both readers of a replay, the step list (steps.py) and
the viewer's frames (frames.py), take the board from here; only their wording is their own.

Every event of this game is public: a tile's kind is known once some flip showed it to the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ladder.replay.model import Decision, Entry, Replay

Square = tuple[int, int]


def square_name(r: int, c: int) -> str:
    """The name the moves use: column letter, row number (A1 is the top left)."""
    return f"{'ABCDEFGHIJ'[c] if c < 10 else c}{r + 1}"


@dataclass
class Cave:
    players: int
    rows: int = 7
    cols: int = 7
    known: dict[Square, str] = field(default_factory=dict)  # kinds the table has seen
    empty: set[Square] = field(default_factory=set)  # won, or left by a spider
    face_up: dict[Square, str] = field(default_factory=dict)  # this turn's flips still on the table
    this_turn: dict[Square, str] = field(default_factory=dict)  # flipped | kept, for the whole turn
    hoards: list[dict[str, int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hoards = self.hoards or [{} for _ in range(self.players)]
        self.scores = self.scores or [0] * self.players

    def squares(self) -> Iterator[Square]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c


@dataclass
class Moment:
    entry: Entry | None  # None: no entry (the frame that shows fault lines left at the end)
    kind: str  # "decision" or the event's type
    data: dict[str, Any]
    turn: int
    seat: int | None  # whose turn it is (None in the setup and at the end)
    marks: dict[Square, str] = field(default_factory=dict)  # kept / lost / spider: what this entry did
    mark_kinds: dict[Square, str] = field(default_factory=dict)  # the kind of each kept square
    hl: list[Square] = field(default_factory=list)  # the squares to point at
    index: int = -1  # the entry's place in the replay's log (the owner's decisions are keyed by it)

    @property
    def is_decision(self) -> bool:
        return self.kind == "decision"


def walk(replay: Replay) -> Iterator[tuple[Moment, Cave]]:
    one = Pass(replay.header.players)
    for index, entry in enumerate(replay.log):
        yield one.step(index, entry), one.cave


class Pass:
    """The cave fed one log entry at a time."""

    def __init__(self, players: int) -> None:
        self.cave = Cave(int(players))
        self.turn, self.active = 0, None

    def step(self, index: int, entry: Entry) -> Moment:
        cave = self.cave
        if isinstance(entry, Decision):  # its event says what it did
            return Moment(entry, "decision", {}, self.turn, self.active, index=index)
        kind, d = str(entry.type), entry.data or {}
        moment = Moment(entry, kind, d, self.turn, self.active, index=index)
        if kind == "game_start":
            cave.rows, cave.cols = int(d.get("rows", 7)), int(d.get("cols", 7))
        elif kind == "turn_start":
            self.turn, self.active = int(d.get("turn", self.turn + 1)), d.get("seat")
            moment.turn, moment.seat = self.turn, self.active
            cave.face_up.clear()
            cave.this_turn.clear()
        elif kind == "flip":
            sq = tuple(d.get("square", (0, 0)))
            cave.known[sq] = str(d.get("kind", "?"))
            cave.face_up[sq] = cave.known[sq]
            cave.this_turn[sq] = "flipped"
            moment.hl = [sq]
        elif kind == "keep":
            _keep(cave, moment, d)
        elif kind == "turn_end":
            moment.hl = [tuple(s) for s in d.get("returned", [])]
            moment.marks = dict.fromkeys(moment.hl, "lost")
            cave.face_up.clear()
        elif kind == "spider_move":
            src, dst = d.get("from"), d.get("to")
            if src is not None and dst is not None:
                src, dst = tuple(src), tuple(dst)
                cave.known.pop(src, None)
                cave.empty.add(src)
                cave.empty.discard(dst)
                cave.known[dst] = "spider"
                cave.this_turn.pop(src, None)
                moment.marks = {dst: "spider"}
                moment.hl = [src, dst]
        elif kind == "game_end":
            self.active = moment.seat = None
            _end(cave, d)
        return moment


def _keep(cave: Cave, moment: Moment, d: dict[str, Any]) -> None:
    squares = [tuple(s) for s in d.get("squares", [])]
    for sq in squares:
        moment.marks[sq], moment.mark_kinds[sq] = "kept", cave.known.get(sq, "")
        cave.this_turn[sq] = "kept"
        cave.empty.add(sq)
        cave.face_up.pop(sq, None)
    seat = d.get("seat")
    if isinstance(seat, int) and 0 <= seat < cave.players:
        for kind, n in (d.get("tiles") or {}).items():
            cave.hoards[seat][kind] = cave.hoards[seat].get(kind, 0) + int(n)
            cave.scores[seat] += int(n)
    moment.hl = squares


def _end(cave: Cave, d: dict[str, Any]) -> None:
    cave.this_turn.clear()
    bonus = d.get("spider_bonus_to")
    for sq in cave.squares():  # only spiders are left: they leave with the bonus, or stay
        if sq not in cave.empty:
            if bonus is not None:
                cave.empty.add(sq)
            else:
                cave.known[sq] = "spider"
    final = d.get("scores")
    if isinstance(final, list) and len(final) == cave.players:
        cave.scores = [int(x) for x in final]
