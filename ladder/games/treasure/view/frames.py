"""Treasure of the Dragons as replay-viewer frames: the 7x7 cave after every event.

`frames(replay, seat)` is pure (`stream` draws the same frames an entry at a time): one small
JSON frame per flip, keep, end of turn and spider move,
drawn from the one pass over the replay (timeline.py). Every event of this game is public, so
every view (public, a seat's own, everything after the end) gets the same frames: a tile's kind is
shown once some flip showed it to the table, dimmed while it lies face down again.

A frame: {title, turn, seat, lines, scores, entry, board} where entry is the index in the replay's
log of the last entry the frame shows (the owner's decisions, keyed by entry, follow the steps), and board is
{rows, cols, cells: rows of [state, kind], hl: [[r, c], ...], hoards: [{kind: n}], left: n}.
Cell states: down (never seen), known (seen, face down again), up (face up this turn), kept
(won by this step), lost (went back face down by this step), spider (a spider moved here), empty.
"""

from __future__ import annotations

from typing import Any

from ladder.games.frames import FrameStream, Heading, drawn
from ladder.games.treasure.view.timeline import Cave, Moment, Pass, square_name
from ladder.replay.model import Entry, Replay

__all__ = ["SCORE_LABEL", "frames", "score_label", "square_name", "stream"]

SCORE_LABEL = "tiles won"
WHY_LOST = {"spider": "a Spider", "dragon": "a Dragon after other tiles", "not_dragon": "a non-Dragon in a Dragon run"}


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return SCORE_LABEL


def frames(replay: Replay, seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    return drawn(stream(Heading.of(replay), seat, reveal=reveal), replay.log)


def stream(heading: Heading, seat: int | None = None, *, reveal: bool = False) -> FrameStream:
    return Frames(heading)


class Frames(FrameStream):
    """The frames fed one entry at a time (every view is the same: every event is public)."""

    def __init__(self, heading: Heading) -> None:
        super().__init__()
        self.who = heading.who
        self.one = Pass(heading.players)
        self.title = "Setup"
        self.pending: list[str] = []  # fault lines wait for the next frame
        self.last: Moment | None = None

    def push(self, index: int, entry: Entry) -> None:
        moment = self.last = self.one.step(index, entry)
        cave = self.one.cave
        if moment.is_decision:
            fault = entry.fault
            if fault is not None:
                self.pending.append(f"⚠ {self.who(entry.seat)}: {fault.status} on {entry.kind}; "
                                    "the default decision was played")
            return
        if moment.kind == "turn_start":
            self.title = f"Turn {moment.turn}: {self.who(moment.seat)}"
            return
        if moment.kind == "game_end":
            self.title = "End"
        self.settled.append(_frame(self.title, moment, cave, [*self.pending, _line(moment, cave, self.who)]))
        self.pending = []

    def open_end(self) -> tuple[int, list[dict[str, Any]]]:
        """Fault lines after the last event: a frame of their own, until an event's frame takes them."""
        if not self.pending or self.last is None:
            return len(self.settled), []
        moment = self.last
        blank = Moment(None, "", {}, moment.turn, moment.seat, index=moment.index)
        return len(self.settled), [_frame(self.title, blank, self.one.cave, list(self.pending))]


def _line(moment: Moment, cave: Cave, who) -> str:
    d, kind = moment.data, moment.kind
    if kind == "game_start":
        return f"{d.get('players')} players, a {cave.rows} by {cave.cols} cave of face-down tiles"
    if kind == "flip":
        return f"{who(d.get('seat'))} flips {square_name(*moment.hl[0])}: {d.get('kind')}"
    if kind == "keep":
        won = ", ".join(f"{n} {k}" for k, n in (d.get("tiles") or {}).items()) or "nothing"
        return f"{who(d.get('seat'))} keeps {won}"
    if kind == "turn_end":
        n = len(moment.hl)
        tiles = "tile goes" if n == 1 else "tiles go"
        if d.get("reason") == "stop":
            return f"{who(d.get('seat'))} stops" + (f"; {n} surplus {tiles} back face down" if n else "")
        why = WHY_LOST.get(d.get("reason"), str(d.get("reason")))
        return f"{why}: {who(d.get('seat'))} loses the turn; {n} {tiles} back face down"
    if kind == "spider_move":
        if not moment.hl:
            return f"{who(d.get('seat'))} leaves the spider where it is"
        src, dst = moment.hl
        return f"{who(d.get('seat'))} moves the spider from {square_name(*src)} to {square_name(*dst)}"
    if kind == "game_end":
        bonus = d.get("spider_bonus_to")
        spiders = f"the spiders go to {who(bonus)}" if bonus is not None else "nobody gets the spiders"
        return (f"The game is over ({d.get('reason')}); {spiders}. Scores: "
                + ", ".join(f"{who(i)} {s}" for i, s in enumerate(cave.scores)))
    return f"{kind}: {d}"


def _frame(title: str, moment: Moment, cave: Cave, lines: list[str]) -> dict[str, Any]:
    cells = []
    for r in range(cave.rows):
        row = []
        for c in range(cave.cols):
            sq = (r, c)
            if sq in moment.marks:
                state = moment.marks[sq]
            elif sq in cave.empty:
                state = "empty"
            elif sq in cave.face_up:
                state = "up"
            elif sq in cave.known:
                state = "known"
            else:
                state = "down"
            kind = "" if state == "empty" else cave.known.get(sq, "")
            if state == "kept":
                kind = moment.mark_kinds.get(sq, kind)
            row.append([state, kind])
        cells.append(row)
    return {
        "title": title, "turn": moment.turn, "seat": moment.seat, "lines": lines, "scores": list(cave.scores),
        "entry": moment.index,
        "board": {"rows": cave.rows, "cols": cave.cols, "cells": cells, "hl": [list(s) for s in moment.hl],
                  "hoards": [dict(h) for h in cave.hoards], "left": cave.rows * cave.cols - len(cave.empty)},
    }
