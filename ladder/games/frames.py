"""The replay viewer's frames as a stream: the one shape every game's view module (`Game.view`) has.

A view module offers
- `stream(heading, seat=None, *, reveal=False) -> FrameStream`: frames drawn as the log comes, one
  typed entry (ladder/replay/model.py) at a time;
- `frames(replay, seat=None, *, reveal=False) -> list[dict]`: the frames of a whole typed replay,
  which is `drawn(stream(Heading.of(replay), ...), replay.log)`: the one pass and the live view are
  one piece of code, so they cannot disagree;
- optionally `score_label(seat, reveal) -> str`.

A stream keeps the frames no later entry can change (`settled`) and draws the open end (a fault
line waiting for the next frame, an event whose meaning the next event decides) only when asked,
without changing its state. So every frame but the last is final once drawn (the live viewer keeps
what it has and is sent the rest from its last frame on), and what a push costs, and what the
frames from the last one on cost, does not grow with the entries before: a live view of a long
match is not redrawn from its start at every batch (tests/games/test_frames.py, `ladder bench live`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ladder.replay.model import Entry, Replay

Frame = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Heading:
    """What a view knows of a match before its first entry: the game, the seats' names, the options."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "names", tuple(str(n) for n in self.names))

    @classmethod
    def of(cls, replay: Replay) -> Heading:
        h = replay.header
        return cls(h.game, h.players, h.options, tuple(s.bot for s in replay.seats))

    def who(self, seat: Any) -> str:
        """A seat by its bot's name ("seat x" for a seat the names do not cover)."""
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else f"seat {seat}"


class FrameStream:
    """A game's frames of a log fed one entry at a time. A game's stream appends to `settled` in
    `push` and says in `open_end` how the last frames stand if the log ended now."""

    def __init__(self) -> None:
        self.settled: list[Frame] = []

    def push(self, index: int, entry: Entry) -> None:
        """Entry `index` of the log the frames are drawn from (indexes go up by one)."""
        raise NotImplementedError

    def open_end(self) -> tuple[int, list[Frame]]:
        """(how many settled frames stand as they are, the frames after them as they stand now);
        never changes the stream, and costs what the last few entries cost, not the whole log."""
        return len(self.settled), []

    def count(self) -> int:
        keep, tail = self.open_end()
        return keep + len(tail)

    def frames_from(self, start: int) -> list[Frame]:
        """The frames from `start` on, as they stand (all but the last are final)."""
        keep, tail = self.open_end()
        return self.settled[start:keep] + tail[max(0, start - keep):]

    def feed(self, entries: Iterable[Entry], first: int) -> None:
        for offset, entry in enumerate(entries):
            self.push(first + offset, entry)


def joined_to_last(settled: list[Frame], lines: list[str], entry: int) -> tuple[int, list[Frame]]:
    """An open end where waiting fault lines join the last frame (and its entry becomes theirs)."""
    if not lines or not settled:
        return len(settled), []
    last = settled[-1]
    return len(settled) - 1, [{**last, "lines": [*last["lines"], *lines], "entry": entry}]


def drawn(stream: FrameStream, log: Sequence[Entry]) -> list[Frame]:
    """Every frame of `log` in one pass (a game's `frames`)."""
    stream.feed(log, 0)
    return stream.frames_from(0)
