"""How Treasure of the Dragons reads (ladder/games/render.py): events as lines, and the replay as
turns, each drawn as the grid as it stood when the turn ended (templates/drawing.html).

Every flip is public, so once a tile has been seen its kind is shown (dimmed while it lies face
down again). Cells: `down` (never seen), `known` (seen, face down), `flipped` (turned this turn and
lost), `kept` (won this turn), `empty`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ladder.games.render import MAX_SECTIONS, Section, Who, compact, decision_line, fault_line, seat_namer

# one letter per kind (no emoji: servers and headless browsers often lack the font); colours in CSS
SYMBOL = {"chest": "C", "sword": "S", "scroll": "R", "potion": "P", "egg": "E", "diamond": "◆",
          "dragon": "D", "spider": "✱"}

# Why a turn ended without keeping anything, as the match page says it.
LOST = {"spider": "a Spider!", "dragon": "a Dragon after other tiles!", "not_dragon": "a non-Dragon in a Dragon run!"}


def event_line(entry: dict[str, Any], who: Who) -> str:
    """One log entry as a sentence (the CLI demo's line; the steps use the same phrases)."""
    if "kind" in entry:
        return decision_line(entry, who)
    kind, d = entry.get("type"), entry.get("data", {})
    seat = who(d.get("seat"))
    if kind == "game_start":
        return f"{d.get('players')} players, a {d.get('rows')} by {d.get('cols')} grid of face-down tiles"
    if kind == "turn_start":
        return f"Turn {d.get('turn')}: {seat}"
    if kind == "flip":
        return f"{seat} flips {_square(tuple(d.get('square', (0, 0))))}: {d.get('kind')}"
    if kind == "keep":
        return f"{seat} " + _keeps(d)
    if kind == "turn_end":
        ended = _turn_end(d)
        return f"{seat}: {ended}" if ended else ""  # a plain stop: the keep line said it all
    if kind == "spider_move":
        return f"{seat} " + _spider(d)
    if kind == "game_end":
        return _end_line(d, who)
    return f"{kind}: {compact(d)}"


def _keeps(d: dict[str, Any]) -> str:
    return "keeps " + ", ".join(f"{n} {k}" for k, n in d.get("tiles", {}).items())


def _turn_end(d: dict[str, Any]) -> str | None:
    reason = d.get("reason")
    if reason != "stop":
        lost = len(d.get("returned", []))
        return f"{LOST.get(reason, reason)} {lost} {'tile goes' if lost == 1 else 'tiles go'} back face down"
    if d.get("returned"):
        surplus = len(d["returned"])
        return f"{surplus} surplus {'tile goes' if surplus == 1 else 'tiles go'} back face down"
    return None


def _spider(d: dict[str, Any]) -> str:
    src, dst = d.get("from"), d.get("to")
    if src is None or dst is None:
        return "leaves the spider where it is"
    return f"moves the spider from {_square(tuple(src))} to {_square(tuple(dst))}"


def sections(replay: dict[str, Any], names: Sequence[str]) -> list[Section]:
    who = seat_namer(names)
    rows, cols = 7, 7
    known: dict[tuple[int, int], str] = {}
    empty: set[tuple[int, int]] = set()
    this_turn: dict[tuple[int, int], str] = {}  # square -> flipped | kept
    out: list[Section] = []
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
            if current.shown:
                out.append(current)
            if len(out) >= MAX_SECTIONS:
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
            current.add(_keeps(d))
        elif kind == "turn_end":
            line = _turn_end(d)
            if line:
                current.add(line)
            current.drawing = snapshot()
        elif kind == "spider_move":
            src, dst = d.get("from"), d.get("to")
            if src is not None and dst is not None:
                src, dst = tuple(src), tuple(dst)
                known.pop(src, None)
                empty.add(src)
                empty.discard(dst)
                known[dst] = "spider"
                this_turn.pop(src, None)
            current.add(_spider(d))
            current.drawing = snapshot()
        elif kind == "game_end":
            out.append(current)
            this_turn.clear()
            left = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in empty]
            for sq in left:  # only spiders are left: they leave with the bonus, or stay
                if d.get("spider_bonus_to") is not None:
                    empty.add(sq)
                else:
                    known[sq] = "spider"
            current = Section("End")
            current.add(_end_line(d, who))
            current.drawing = snapshot()
        else:
            current.add(f"{kind}: {compact(d)}")
    out.append(current)
    return [s for s in out if s.shown]


def _square(sq: tuple[int, ...]) -> str:
    r, c = sq
    return f"{'ABCDEFGHIJ'[c] if c < 10 else c}{r + 1}"


def _end_line(d: dict[str, Any], who) -> str:
    bonus = d.get("spider_bonus_to")
    spiders = f"the spiders go to {who(bonus)}" if bonus is not None else "nobody gets the spiders (a tie)"
    return f"Only spiders are left ({d.get('reason')}); {spiders}. Scores: " + ", ".join(
        f"{who(i)} {s}" for i, s in enumerate(d.get("scores", [])))


def score_cells(breakdown: dict[str, Any]) -> list[tuple[str, str]]:
    """One column per tile kind (the engine nests them under "tiles"), then Dragons and the bonus."""
    tiles = breakdown.get("tiles") or {}
    cells = [(kind.replace("_", " ").capitalize(), str(n)) for kind, n in tiles.items()]
    cells.append(("Dragons", str(breakdown.get("dragons", 0))))
    cells.append(("Spider bonus", str(breakdown.get("spider_bonus", 0))))
    return cells
