"""Toy Nim as replay-viewer frames: the table as one viewer knew it after every event.

`frames(replay, seat, reveal=False)` is pure, drawn from the one pass (timeline.py) with the
viewer's sight: public (seat None) sees no secret before the reveal and no bet's side; seat k also
its own secret and bets; reveal (the match is over) everything. A frame:
{title, seat, lines, scores, entry, table: {pile, taken, secrets, bets}} (entry: the index in the
replay's log of the last entry the frame shows); a secret event (one seat's
private news) joins the frame before it, so every view steps through the same public moments.
"""

from __future__ import annotations

from typing import Any

from ladder.games.frames import FrameStream, Heading, drawn, joined_to_last
from ladder.replay.model import Entry, Replay
from toygame.view.steps import entry_line
from toygame.view.timeline import Sight, Timeline

PRIVATE_NEWS = ("secret",)


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return "counters"


def frames(replay: Replay, seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    out = drawn(stream(Heading.of(replay), seat, reveal=reveal), replay.log)
    results = replay.results
    if out and len(results) == replay.header.players:  # the end: the game's own count, the bets' bonus included
        out[-1]["scores"] = [r.score for r in sorted(results, key=lambda r: r.seat)]
    return out


def stream(heading: Heading, seat: int | None = None, *, reveal: bool = False) -> FrameStream:
    return Frames(heading, Sight(seat, reveal))


class Frames(FrameStream):
    def __init__(self, heading: Heading, sight: Sight) -> None:
        super().__init__()
        self.who = heading.who
        self.timeline = Timeline(heading.players, sight)
        self.pending: list[str] = []  # fault lines wait for the next frame
        self.last = -1  # the log index of the last fault line waiting

    def push(self, index: int, entry: Entry) -> None:
        timeline, out = self.timeline, self.settled
        for moment in timeline.step(index, entry):
            if moment.opens:
                continue
            line = entry_line(moment.entry, self.who)
            if moment.is_decision:
                if line:
                    self.pending.append(line)
                    self.last = moment.index
                continue
            if moment.kind in PRIVATE_NEWS and out:
                out[-1]["lines"].append(line)
                out[-1]["table"], out[-1]["entry"] = timeline.drawing(), moment.index
                continue
            out.append({"title": timeline.title, "seat": moment.seat if isinstance(moment.seat, int) else None,
                        "lines": [*self.pending, line], "scores": list(timeline.taken), "entry": moment.index,
                        "table": timeline.drawing()})
            self.pending = []

    def open_end(self) -> tuple[int, list[dict[str, Any]]]:
        return joined_to_last(self.settled, self.pending, self.last)
