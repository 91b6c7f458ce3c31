"""Treasure of the Dragons as replay-viewer frames: the 7x7 cave after every event.

`frames(replay, seat)` is pure: it reads the replay's log and returns one small JSON frame per
flip, keep, end of turn and spider move. Every event of this game is public, so every view
(public, a seat's own, everything after the end) gets the same frames: a tile's kind is shown
once some flip showed it to the table, dimmed while it lies face down again.

A frame: {title, turn, seat, lines, scores, board} where board is
{rows, cols, cells: rows of [state, kind], hl: [[r, c], ...], hoards: [{kind: n}], left: n}.
Cell states: down (never seen), known (seen, face down again), up (face up this turn), kept
(won by this step), lost (went back face down by this step), spider (a spider moved here), empty.
"""

from __future__ import annotations

from typing import Any

SCORE_LABEL = "tiles won"


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return SCORE_LABEL


def square_name(r: int, c: int) -> str:
    """The name the moves use: column letter, row number (A1 is the top left)."""
    return f"{'ABCDEFGHIJ'[c] if c < 10 else c}{r + 1}"


def _names(replay: dict[str, Any]) -> list[str]:
    return [str(s.get("bot", f"seat {i}")) for i, s in enumerate(replay.get("seats", []))]


def frames(replay: dict[str, Any], seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    names = _names(replay)
    players = int(replay.get("players", len(names)))
    who = lambda s: names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"  # noqa: E731
    rows, cols = 7, 7
    known: dict[tuple[int, int], str] = {}
    empty: set[tuple[int, int]] = set()
    face_up: dict[tuple[int, int], str] = {}  # this turn's flips still on the table
    mark: dict[tuple[int, int], str] = {}  # kept / lost / spider: what the last step did to a square
    hoards: list[dict[str, int]] = [{} for _ in range(players)]
    scores = [0] * players
    out: list[dict[str, Any]] = []
    title, turn, active = "Setup", 0, None
    pending_lines: list[str] = []

    def emit(lines: list[str], hl: list[tuple[int, int]]) -> None:
        cells = []
        for r in range(rows):
            row = []
            for c in range(cols):
                sq = (r, c)
                if sq in mark:
                    state = mark[sq]
                elif sq in empty:
                    state = "empty"
                elif sq in face_up:
                    state = "up"
                elif sq in known:
                    state = "known"
                else:
                    state = "down"
                kind = "" if state == "empty" else known.get(sq, "")
                if state == "kept":
                    kind = mark_kinds.get(sq, kind)
                row.append([state, kind])
            cells.append(row)
        out.append({
            "title": title, "turn": turn, "seat": active, "lines": pending_lines + lines,
            "scores": list(scores),
            "board": {"rows": rows, "cols": cols, "cells": cells, "hl": [list(s) for s in hl],
                      "hoards": [dict(h) for h in hoards], "left": rows * cols - len(empty)},
        })
        pending_lines.clear()
        mark.clear()
        mark_kinds.clear()

    mark_kinds: dict[tuple[int, int], str] = {}
    for entry in replay.get("log", []):
        if "decision" in entry:
            fault = entry.get("fault")
            if fault:
                pending_lines.append(f"⚠ {who(entry.get('seat'))}: {fault.get('status')} on {entry.get('kind')}; "
                                     "the default decision was played")
            continue
        kind, d = entry.get("type"), entry.get("data") or {}
        if kind == "game_start":
            rows, cols = int(d.get("rows", 7)), int(d.get("cols", 7))
            emit([f"{d.get('players')} players, a {rows} by {cols} cave of face-down tiles"], [])
        elif kind == "turn_start":
            turn, active = int(d.get("turn", turn + 1)), d.get("seat")
            title = f"Turn {turn}: {who(active)}"
            face_up.clear()
        elif kind == "flip":
            sq = tuple(d.get("square", (0, 0)))
            known[sq] = str(d.get("kind", "?"))
            face_up[sq] = known[sq]
            emit([f"{who(d.get('seat'))} flips {square_name(*sq)}: {d.get('kind')}"], [sq])
        elif kind == "keep":
            squares = [tuple(s) for s in d.get("squares", [])]
            for sq in squares:
                mark[sq], mark_kinds[sq] = "kept", known.get(sq, "")
                empty.add(sq)
                known.pop(sq, None)
                face_up.pop(sq, None)
            s = d.get("seat")
            for k, n in (d.get("tiles") or {}).items():
                if isinstance(s, int) and 0 <= s < players:
                    hoards[s][k] = hoards[s].get(k, 0) + int(n)
                    scores[s] += int(n)
            won = ", ".join(f"{n} {k}" for k, n in (d.get("tiles") or {}).items()) or "nothing"
            emit([f"{who(s)} keeps {won}"], squares)
        elif kind == "turn_end":
            returned = [tuple(s) for s in d.get("returned", [])]
            for sq in returned:
                mark[sq] = "lost"
            face_up.clear()
            reason = d.get("reason")
            n = len(returned)
            tiles = "tile goes" if n == 1 else "tiles go"
            if reason == "stop":
                line = f"{who(d.get('seat'))} stops" + (f"; {n} surplus {tiles} back face down" if n else "")
            else:
                why = {"spider": "a Spider", "dragon": "a Dragon after other tiles",
                       "not_dragon": "a non-Dragon in a Dragon run"}.get(reason, str(reason))
                line = f"{why}: {who(d.get('seat'))} loses the turn; {n} {tiles} back face down"
            emit([line], returned)
        elif kind == "spider_move":
            src, dst = d.get("from"), d.get("to")
            if src is None or dst is None:
                emit([f"{who(d.get('seat'))} leaves the spider where it is"], [])
            else:
                src, dst = tuple(src), tuple(dst)
                known.pop(src, None)
                empty.add(src)
                empty.discard(dst)
                known[dst] = "spider"
                mark[dst] = "spider"
                emit([f"{who(d.get('seat'))} moves the spider from {square_name(*src)} to {square_name(*dst)}"],
                     [src, dst])
        elif kind == "game_end":
            title, active = "End", None
            bonus = d.get("spider_bonus_to")
            for r in range(rows):
                for c in range(cols):
                    if (r, c) not in empty:
                        if bonus is not None:
                            empty.add((r, c))
                        else:
                            known[(r, c)] = "spider"
            final = d.get("scores")
            if isinstance(final, list) and len(final) == players:
                scores = [int(x) for x in final]
            spiders = f"the spiders go to {who(bonus)}" if bonus is not None else "nobody gets the spiders"
            emit([f"The game is over ({d.get('reason')}); {spiders}. Scores: "
                  + ", ".join(f"{who(i)} {s}" for i, s in enumerate(scores))], [])
        else:
            emit([f"{kind}: {d}"], [])
    if pending_lines:
        emit([], [])
    return out
