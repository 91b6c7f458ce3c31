"""DragonFlame's replay as the match page's step list (ladder/games/render.py says how it is used).

`sections` gives the setup, then per round a "cards played" section (drawn with the castles and
their face-up and face-down stacks) and an "attacks" section (drawn with the village grid and its
fire, the hoards and the running scores), then the end with the final breakdown. Each section is
drawn as the table stood when the next began (templates/drawing.html), from the one pass over the
replay (timeline.py) with the page's sight: a finished match's decisions name every face-down card,
so the drawings show them too, marked as face down; no seat's private news is told.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ladder.games.dragonflame.view.lines import entry_line, event_line
from ladder.games.dragonflame.view.timeline import PAGE, Table, Timeline
from ladder.games.render import Section, Who, seat_namer
from ladder.replay.model import LoggedEvent, Replay

__all__ = ["MAX_SECTIONS", "event_line", "sections"]

MAX_SECTIONS = 500


def sections(replay: Replay, names: Sequence[str]) -> list[Section]:
    who = seat_namer(names)
    timeline = Timeline.of(replay, PAGE)
    out: list[Section] = []
    current = Section("Setup")
    full = False  # the page holds MAX_SECTIONS: the next event ends it, drawn as the table stands now
    for moment in timeline:
        if moment.is_decision:
            if moment.entry.fault is not None:
                current.add(entry_line(moment.entry, who))
            continue
        if full:
            current.add("… (the rest is in the replay download)")
            break
        if moment.opens:  # the section before is drawn as the table stood when this one began
            current.drawing = _drawing(timeline.table, who, with_castles=moment.kind in ("spy", "attack"))
            out.append(current)
            current = Section(timeline.title)
            continue
        current.add(entry_line(moment.entry, who))
        if len(out) >= MAX_SECTIONS:
            full = True
            current.drawing = _drawing(timeline.table, who, with_castles=False)
    if not full:
        current.drawing = _drawing(timeline.table, who, with_castles=False)
    end = next((e for e in reversed(replay.log) if isinstance(e, LoggedEvent) and e.type == "game_end"), None)
    if end is not None:
        rows = (end.data or {}).get("breakdown", [])
        current.drawing["breakdown"] = [{"who": who(s), **row} for s, row in enumerate(rows)]
    out.append(current)
    return [s for s in out if s.blocks]


def _drawing(table: Table, who: Who, with_castles: bool) -> dict[str, Any]:
    return table.drawing(who, with_castles, owners=False)
