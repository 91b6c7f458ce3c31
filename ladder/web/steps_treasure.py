"""Treasure of the Dragons' replay as turns, each with the grid as it stood when the turn ended.

Every flip is public, so once a tile has been seen its kind is shown (dimmed while it lies face
down again). Cells: `down` (never seen), `known` (seen, face down), `flipped` (turned this turn and
lost), `kept` (won this turn), `empty`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ladder.web.steps import MAX_SECTIONS, Section, compact, fault_line

# one letter per kind (no emoji: servers and headless browsers often lack the font); colours in CSS
SYMBOL = {"chest": "C", "sword": "S", "scroll": "R", "potion": "P", "egg": "E", "diamond": "◆",
          "dragon": "D", "spider": "✱"}

# Why a turn ended without keeping anything, as the match page says it.
LOST = {"spider": "a Spider!", "dragon": "a Dragon after other tiles!", "not_dragon": "a non-Dragon in a Dragon run!"}


def treasure_steps(replay: dict[str, Any], names: Sequence[str]) -> list[Section]:
    def who(seat: Any) -> str:
        try:
            return f"{names[int(seat)]} (seat {int(seat)})"
        except (IndexError, TypeError, ValueError):
            return f"seat {seat}"

    rows, cols = 7, 7
    known: dict[tuple[int, int], str] = {}
    empty: set[tuple[int, int]] = set()
    this_turn: dict[tuple[int, int], str] = {}  # square -> flipped | kept
    sections: list[Section] = []
    current = Section("Setup")

    def snapshot() -> list[list[dict[str, Any]]]:
        grid = []
        for r in range(rows):
            row = []
            for c in range(cols):
                sq = (r, c)
                state = this_turn.get(sq) or ("empty" if sq in empty else "known" if sq in known else "down")
                kind = known.get(sq, "")
                row.append({"state": state, "kind": kind, "symbol": SYMBOL.get(kind, "") if state != "empty" else ""})
            grid.append(row)
        return grid

    for entry in replay.get("log", []):
        if "kind" in entry:
            line = fault_line(entry, who)
            if line:
                current.add(line)
            continue
        kind, d = entry.get("type"), entry.get("data", {})
        if kind == "game_start":
            rows, cols = int(d.get("rows", 7)), int(d.get("cols", 7))
            current.add(f"{d.get('players')} players, a {rows} by {cols} grid of face-down tiles")
        elif kind == "turn_start":
            if current.blocks or current.grid:
                sections.append(current)
            if len(sections) >= MAX_SECTIONS:
                current = Section("…")
                current.add("the rest is in the replay download")
                break
            this_turn.clear()
            current = Section(f"Turn {d.get('turn')}: {who(d.get('seat'))}")
        elif kind == "flip":
            sq = tuple(d.get("square", (0, 0)))
            known[sq] = d.get("kind", "?")
            this_turn[sq] = "flipped"
            current.add(f"flips {_square(sq)}: {d.get('kind')}")
        elif kind == "keep":
            for sq in map(tuple, d.get("squares", [])):
                this_turn[sq] = "kept"
                empty.add(sq)
            current.add("keeps " + ", ".join(f"{n} {k}" for k, n in d.get("tiles", {}).items()))
        elif kind == "turn_end":
            reason = d.get("reason")
            if reason != "stop":
                lost = len(d.get("returned", []))
                tiles = "tile goes" if lost == 1 else "tiles go"
                current.add(f"{LOST.get(reason, reason)} {lost} {tiles} back face down")
            elif d.get("returned"):
                surplus = len(d["returned"])
                current.add(f"{surplus} surplus {'tile goes' if surplus == 1 else 'tiles go'} back face down")
            current.grid = snapshot()
        elif kind == "spider_move":
            src, dst = d.get("from"), d.get("to")
            if src is None or dst is None:
                current.add("leaves the spider where it is")
            else:
                src, dst = tuple(src), tuple(dst)
                known.pop(src, None)
                empty.add(src)
                empty.discard(dst)
                known[dst] = "spider"
                this_turn.pop(src, None)
                current.add(f"moves the spider from {_square(src)} to {_square(dst)}")
            current.grid = snapshot()
        elif kind == "game_end":
            sections.append(current)
            this_turn.clear()
            left = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in empty]
            for sq in left:  # only spiders are left: they leave with the bonus, or stay
                if d.get("spider_bonus_to") is not None:
                    empty.add(sq)
                else:
                    known[sq] = "spider"
            current = Section("End")
            current.add(_end_line(d, who))
            current.grid = snapshot()
        else:
            current.add(f"{kind}: {compact(d)}")
    sections.append(current)
    return [s for s in sections if s.blocks or s.grid]


def _square(sq: tuple[int, ...]) -> str:
    r, c = sq
    return f"{'ABCDEFGHIJ'[c] if c < 10 else c}{r + 1}"


def _end_line(d: dict[str, Any], who) -> str:
    bonus = d.get("spider_bonus_to")
    spiders = f"the spiders go to {who(bonus)}" if bonus is not None else "nobody gets the spiders (a tie)"
    return f"Only spiders are left ({d.get('reason')}); {spiders}. Scores: " + ", ".join(
        f"{who(i)} {s}" for i, s in enumerate(d.get("scores", [])))
