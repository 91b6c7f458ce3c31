"""Toy Nim's replay as the match page's step list (ladder/games/render.py says how it is used):
the setup, the taking, the betting and the end, each drawn as the table stood when the next began
(templates/drawing.html), from the one pass (timeline.py) with the public's sight: the page tells
no secret before the reveal and no bet's side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ladder.games.render import Section, Who, decision_line, seat_namer
from ladder.replay.model import Decision, Entry, Replay
from toygame.view.timeline import SECTIONS, Timeline

__all__ = ["event_line", "sections"]


def event_line(entry: dict[str, Any], who: Who) -> str:
    """One sentence per log entry; "" for a decision the event after it tells better."""
    if "kind" in entry:
        return decision_line(entry, who) if entry.get("fault") else ""
    return event_text(entry.get("type"), entry.get("data") or {}, who)


def entry_line(entry: Entry, who: Who) -> str:
    """event_line of a typed log entry."""
    if isinstance(entry, Decision):
        return decision_line(entry, who) if entry.fault is not None else ""
    return event_text(entry.type, entry.data or {}, who)


def event_text(kind: Any, d: dict[str, Any], who: Who) -> str:
    if kind == "start":
        return f"{d.get('players')} players, {d.get('pile')} counters in the pile"
    if kind == "secret":
        return f"{who(d.get('seat'))} is dealt the secret {d.get('value')}"
    if kind == "took":
        return f"{who(d.get('seat'))} takes {d.get('n')}, {d.get('pile')} left"
    if kind == "pile_empty":
        return "The pile is empty: every seat bets on its secret"
    if kind == "bet":
        return f"{who(d.get('seat'))} bets"
    if kind == "reveal":
        return "The secrets: " + ", ".join(f"{who(s)} {v}" for s, v in enumerate(d.get("secrets", [])))
    return f"{kind}"


def sections(replay: Replay, names: Sequence[str]) -> list[Section]:
    who = seat_namer(names)
    timeline = Timeline.of(replay)
    out: list[Section] = []
    current = Section(timeline.title)
    for moment in timeline:
        if moment.opens:
            current.drawing = timeline.drawing()
            out.append(current)
            current = Section(SECTIONS[moment.kind])
            continue
        line = entry_line(moment.entry, who)
        if line:
            current.add(line)
    current.drawing = timeline.drawing()
    out.append(current)
    return [s for s in out if s.blocks]

