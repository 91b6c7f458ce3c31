"""How Treasure of the Dragons reads (ladder/games/render.py): events as lines, and the replay as
turns, each drawn as the grid as it stood when the turn ended (templates/drawing.html).

The grid comes from the one pass over the replay (timeline.py). Cells: `down` (never seen),
`known` (seen, face down), `flipped` (turned this turn and lost), `kept` (won this turn), `empty`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ladder.games.render import MAX_SECTIONS, Section, Who, compact, decision_line, fault_line, seat_namer
from ladder.games.treasure.view.timeline import Cave, square_name, walk
from ladder.replay.model import Replay

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
        return f"{seat} flips {_square(d.get('square', (0, 0)))}: {d.get('kind')}"
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


def sections(replay: Replay, names: Sequence[str]) -> list[Section]:
    who = seat_namer(names)
    out: list[Section] = []
    current = Section("Setup")
    for moment, cave in walk(replay):
        d = moment.data
        if moment.is_decision:
            line = fault_line(moment.entry, who)
            if line:
                current.add(line)
        elif moment.kind == "game_start":
            current.add(f"{d.get('players')} players, a {cave.rows} by {cave.cols} grid of face-down tiles")
        elif moment.kind == "turn_start":
            if current.shown:
                out.append(current)
            if len(out) >= MAX_SECTIONS:
                current = Section("…")
                current.add("the rest is in the replay download")
                break
            current = Section(f"Turn {d.get('turn')}: {who(d.get('seat'))}")
        elif moment.kind == "flip":
            current.add(f"flips {_square(d.get('square', (0, 0)))}: {d.get('kind')}")
        elif moment.kind == "keep":
            current.add(_keeps(d))
        elif moment.kind == "turn_end":
            line = _turn_end(d)
            if line:
                current.add(line)
            current.drawing = _grid(cave)
        elif moment.kind == "spider_move":
            current.add(_spider(d))
            current.drawing = _grid(cave)
        elif moment.kind == "game_end":
            out.append(current)
            current = Section("End")
            current.add(_end_line(d, who))
            current.drawing = _grid(cave)
        else:
            current.add(f"{moment.kind}: {compact(d)}")
    out.append(current)
    return [s for s in out if s.shown]


def _grid(cave: Cave) -> list[list[dict[str, Any]]]:
    """The grid as the step list draws it: what this turn did, over what the table knows."""
    grid = []
    for r in range(cave.rows):
        row = []
        for c in range(cave.cols):
            sq = (r, c)
            state = cave.this_turn.get(sq) or (
                "empty" if sq in cave.empty else "known" if sq in cave.known else "down")
            kind = cave.known.get(sq, "")
            row.append({"state": state, "kind": kind, "symbol": SYMBOL.get(kind, "") if state != "empty" else ""})
        grid.append(row)
    return grid


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
    return f"moves the spider from {_square(src)} to {_square(dst)}"


def _square(sq: Sequence[int]) -> str:
    return square_name(*sq)


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
