"""Treasure of the Dragons as replay-viewer frames: the 7x7 cave after every event.

`frames(replay, seat)` is pure: one small JSON frame per flip, keep, end of turn and spider move,
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

from ladder.games.treasure.view.timeline import Cave, Moment, square_name, walk

__all__ = ["SCORE_LABEL", "frames", "score_label", "square_name"]

SCORE_LABEL = "tiles won"
WHY_LOST = {"spider": "a Spider", "dragon": "a Dragon after other tiles", "not_dragon": "a non-Dragon in a Dragon run"}


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return SCORE_LABEL


def frames(replay: dict[str, Any], seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    names = [str(s.get("bot", f"seat {i}")) for i, s in enumerate(replay.get("seats", []))]
    who = lambda s: names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"  # noqa: E731
    out: list[dict[str, Any]] = []
    title = "Setup"
    pending: list[str] = []  # fault lines wait for the next frame
    last: tuple[Moment, Cave] | None = None
    for moment, cave in walk(replay):
        last = moment, cave
        if moment.is_decision:
            fault = moment.entry.get("fault")
            if fault:
                pending.append(f"⚠ {who(moment.entry.get('seat'))}: {fault.get('status')} on "
                               f"{moment.entry.get('kind')}; the default decision was played")
            continue
        if moment.kind == "turn_start":
            title = f"Turn {moment.turn}: {who(moment.seat)}"
            continue
        if moment.kind == "game_end":
            title = "End"
        line = _line(moment, cave, who)
        out.append(_frame(title, moment, cave, [*pending, line]))
        pending.clear()
    if pending and last is not None:
        moment, cave = last
        out.append(_frame(title, Moment({}, "", {}, moment.turn, moment.seat, index=moment.index), cave, pending))
    return out


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
