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

from toygame.view.steps import event_line
from toygame.view.timeline import Sight, Timeline

PRIVATE_NEWS = ("secret",)


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return "counters"


def frames(replay: dict[str, Any], seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    names = [str(s.get("bot", f"seat {i}")) for i, s in enumerate(replay.get("seats", []))]

    def who(s: Any) -> str:
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    timeline = Timeline(replay, Sight(seat, reveal))
    out: list[dict[str, Any]] = []
    pending: list[str] = []  # fault lines wait for the next frame
    last = -1  # the log index of the last fault line waiting
    for moment in timeline:
        if moment.opens:
            continue
        line = event_line(moment.entry, who)
        if moment.is_decision:
            if line:
                pending.append(line)
                last = moment.index
            continue
        if moment.kind in PRIVATE_NEWS and out:
            out[-1]["lines"].append(line)
            out[-1]["table"], out[-1]["entry"] = timeline.drawing(), moment.index
            continue
        out.append({"title": timeline.title, "seat": moment.seat if isinstance(moment.seat, int) else None,
                    "lines": [*pending, line], "scores": list(timeline.taken), "entry": moment.index,
                    "table": timeline.drawing()})
        pending.clear()
    results = replay.get("results") or []
    if out and len(results) == timeline.players:  # the end: the game's own count, the bets' bonus included
        out[-1]["scores"] = [r.get("score") for r in sorted(results, key=lambda r: r.get("seat", 0))]
    if pending and out:
        out[-1]["lines"] += pending
        out[-1]["entry"] = last
    return out
