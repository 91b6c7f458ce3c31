"""DragonFlame as replay-viewer frames: the table as one viewer knew it after every event.

`frames(replay, seat, reveal=False)` is pure (`stream` draws the same an entry at a time). It is
drawn from the one pass over the replay
(timeline.py, whose table the match page's drawings come from too, so the two cannot disagree) with
the viewer's sight:
- public (seat None): events addressed to everyone; face-down castle cards stay "a hidden card"
  until a dragon loots them, and no hand is shown (only its size, which the table sees);
- seat k: also the events addressed to k (its hand, what its Spyglass saw) and its own play
  decisions, so its own face-down cards show (marked face down);
- reveal: every event and decision (the match is over): every face-down card and every hand.

A frame: {title, round, seat, lines, scores, entry, table}; entry: the index in the replay's log of
the last entry it shows (the owner's decisions follow the steps by it); table: the timeline's drawing
  castles: [{colour, number, limit, attacker, cards: [{face, text, category[, by, spied]}]}]
  banners, grid (cells with fire colours), hoards, scores (as the match page draws them)
plus hands: per seat {size, cards: [{text, category}] or null when the viewer did not see it},
deck (cards left), and mark: {castle: number or null, cells: [[row, col]]}, where this step happened.
`hand` and `spied` events (one seat's private news) join the frame before them, so every view steps
through the same public moments.
"""

from __future__ import annotations

import copy
from typing import Any

from ladder.games.dragonflame.view.lines import card_text, entry_line
from ladder.games.dragonflame.view.timeline import Moment, Sight, Timeline
from ladder.games.frames import FrameStream, Heading, drawn, joined_to_last
from ladder.replay.model import Entry, Replay

SCORE_LABEL = "glory"
PRIVATE_NEWS = ("hand", "spied")  # added to the previous frame instead of making one


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return SCORE_LABEL


def frames(replay: Replay, seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    return drawn(stream(Heading.of(replay), seat, reveal=reveal), replay.log)


def stream(heading: Heading, seat: int | None = None, *, reveal: bool = False) -> FrameStream:
    return Frames(heading, Sight(seat, events=reveal, decisions=reveal))


class Frames(FrameStream):
    """The frames of one sight, fed one entry at a time."""

    def __init__(self, heading: Heading, sight: Sight) -> None:
        super().__init__()
        self.who = heading.who
        self.timeline = Timeline(heading.players, sight)
        self.pending: list[str] = []  # fault lines wait for the next frame
        self.last = -1  # the log index of the last fault line waiting

    def push(self, index: int, entry: Entry) -> None:
        for moment in self.timeline.step(index, entry):
            self._moment(moment)

    def _moment(self, moment: Moment) -> None:
        timeline, who, out = self.timeline, self.who, self.settled
        if moment.opens:
            return
        if moment.is_decision:
            if moment.entry.fault is not None:
                self.pending.append(entry_line(moment.entry, who))
                self.last = moment.index
            return
        line = entry_line(moment.entry, who)
        if moment.kind in PRIVATE_NEWS and out:  # the last frame: the only one that may still change
            out[-1]["lines"].append(line)
            out[-1]["entry"] = moment.index
            out[-1]["table"]["castles"] = copy.deepcopy(timeline.table.drawing(who, with_castles=True)["castles"])
            out[-1]["table"]["hands"] = _hands(timeline)
            return
        drawing = timeline.table.drawing(who, with_castles=True)
        active = moment.seat if isinstance(moment.seat, int) else None
        frame = {
            "title": timeline.title, "round": timeline.round, "seat": active, "lines": [*self.pending, line],
            "scores": list(drawing["scores"]), "entry": moment.index,
            "table": {**drawing, "deck": timeline.deck, "mark": _mark(moment, timeline.players),
                      "hands": _hands(timeline)},
        }
        self.pending = []
        if moment.kind == "game_end" and isinstance(moment.data.get("scores"), list):
            frame["seat"] = None
            frame["scores"] = [int(x) for x in moment.data["scores"]]  # the game's own count, relics included
            frame["table"]["breakdown"] = [{"who": who(k), **row}
                                           for k, row in enumerate(moment.data.get("breakdown", []))]
        out.append(copy.deepcopy(frame))  # the table's lists change in place as the log goes on

    def open_end(self) -> tuple[int, list[dict[str, Any]]]:
        """Fault lines after the last event join the last frame, until an event's frame takes them."""
        return joined_to_last(self.settled, self.pending, self.last)


def _mark(moment: Moment, players: int) -> dict[str, Any]:
    """Where the step happened: the castle played on, spied, looted or cleared, the spaces burnt."""
    kind, d, seat = moment.kind, moment.data, moment.seat
    mark: dict[str, Any] = {"castle": None, "cells": []}
    if kind == "play":
        if isinstance(seat, int) and 0 <= seat < players:
            mark["castle"] = d.get("castle")
    elif kind in ("spy", "attack", "castle_discarded"):
        castle = d.get("castle")
        mark["castle"] = castle.get("number") if isinstance(castle, dict) else castle
    elif kind == "flame":
        mark["cells"] = [[p.get("row"), p.get("col")] for p in d.get("placed", [])]
    return mark


def _hands(timeline: Timeline) -> list[dict[str, Any]]:
    return [{"size": timeline.hand_size[s], "cards": None if hand is None else [_card(c) for c in hand]}
            for s, hand in enumerate(timeline.hands)]


def _card(card: dict[str, Any] | None) -> dict[str, str]:
    return {"text": card_text(card), "category": str((card or {}).get("category", ""))}
