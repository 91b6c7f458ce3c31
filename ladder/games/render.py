"""How a replay reads: the shared pieces of every game's renderer, and the generic renderer.

Architecture. A game names its renderer module, inside its own package, in `Game.renderer`
(e.g. "render"); the match page, the replay viewer and the CLI call `renderer_for(game)` and use
its two functions, never a branch on the game's name:

- `event_line(entry, who) -> str`: one readable line for one replay log entry (an event
  `{type, data, to}` or a decision `{seat, kind, decision[, fault]}`); `who(seat)` names a seat.
  An empty string means the entry adds nothing to the lines before it (the CLI skips it). The
  CLI demo prints these.
- `sections(replay, names) -> list[Section]`: the match page's step list (the setup, one section
  per turn, the end), every line plain text that the template escapes.
- optional `score_cells(breakdown) -> list[tuple[str, str]]`: one seat's score breakdown (the
  engine's dict, without "seat" and "total") as (human label, cell text) pairs for the match
  page's scoring table. A renderer without one gets `score_cells` below, which labels the keys.

A section may carry a game-specific picture in `Section.drawing` (any JSON-like value, e.g. a
grid of cells). The site draws it with the game's own template partials, which live in the
game's package: `ladder/games/<name>/view/templates/drawing.html` renders one section's `drawing`
(the template gets it as `drawing`), and the optional `legend.html` is shown once above the
steps. The web app loads them under `games/<name>/` and includes them `ignore missing`, so a
game without pictures needs no template and the match template never names a game.

A game with no renderer (`Game.renderer == ""`) gets this module: generic lines from the event
type and its data, all in one section. Everything here is pure: no Flask, no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

MAX_SECTIONS = 2000  # a page, not a dump: the replay download has everything

Who = Callable[[Any], str]


@dataclass
class Block:
    talk: bool  # a negotiation or division transcript, shown as such
    lines: list[str] = field(default_factory=list)
    label: str = ""


@dataclass
class Section:
    """One turn: its lines in the order they happened, transcripts in place, and maybe a picture."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    drawing: Any = None  # the game's picture of this step, drawn by its drawing.html partial

    def add(self, line: str, talk: bool = False, label: str = "") -> None:
        if not self.blocks or self.blocks[-1].talk != talk or self.blocks[-1].label != label:
            self.blocks.append(Block(talk, label=label))
        self.blocks[-1].lines.append(line)

    @property
    def lines(self) -> list[str]:
        return [line for b in self.blocks if not b.talk for line in b.lines]

    @property
    def transcript(self) -> list[str]:
        return [line for b in self.blocks if b.talk for line in b.lines]

    @property
    def size(self) -> int:
        return sum(len(b.lines) for b in self.blocks)

    @property
    def grid(self) -> Any:
        """The name `drawing` had in ladder/web/steps.py, kept so renderers written against it work."""
        return self.drawing

    @grid.setter
    def grid(self, value: Any) -> None:
        self.drawing = value

    @property
    def shown(self) -> bool:
        return bool(self.blocks) or self.drawing is not None


def compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={compact(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    return str(value)


def seat_namer(names: Sequence[str]) -> Who:
    """`who` for a match: "name (seat i)", or "seat x" for a seat the names do not cover."""

    def who(seat: Any) -> str:
        try:
            return f"{names[int(seat)]} (seat {int(seat)})"
        except (IndexError, TypeError, ValueError):
            return f"seat {seat}"

    return who


def fault_line(entry: dict[str, Any], who: Who) -> str | None:
    fault = entry.get("fault")
    if not fault:
        return None
    return (f"⚠ {who(entry.get('seat'))}: {fault.get('status')} on {entry.get('kind')} "
            f"({fault.get('reason') or 'no reason'}); the default decision was played")


def decision_line(entry: dict[str, Any], who: Who) -> str:
    return fault_line(entry, who) or f"{who(entry.get('seat'))} decides {entry.get('kind')}: " \
                                     f"{compact(entry.get('decision'))}"


# --- the generic renderer --------------------------------------------------------------------


def event_line(entry: dict[str, Any], who: Who) -> str:
    if "kind" in entry:
        return decision_line(entry, who)
    return f"{entry.get('type')}: {compact(entry.get('data', {}))}"


def sections(replay: dict[str, Any], names: Sequence[str]) -> list[Section]:
    return generic_sections(replay.get("log", []), seat_namer(names))


def generic_sections(log: Iterable[dict[str, Any]], who: Who) -> list[Section]:
    section = Section("The game")
    for entry in log:
        section.add(event_line(entry, who))
    return [section]


def cell_text(value: Any) -> str:
    """A breakdown value as a short cell: yes/—, nested parts as "k v" without zeros."""
    if isinstance(value, bool):
        return "yes" if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items() if v) or "—"
    return "—" if value in (None, "") else str(value)


def score_cells(breakdown: dict[str, Any]) -> list[tuple[str, str]]:
    """The generic scoring cells: each key as a capitalised label, in the engine's order."""
    return [(key.replace("_", " ").capitalize(), cell_text(value)) for key, value in breakdown.items()]


def score_table(game: Any, results: Sequence[dict[str, Any]]) -> tuple[list[str], list[tuple[dict, list[str]]]]:
    """Column labels and, per result in rank order (ties by seat), the result and its cells, total last."""
    cells_of = getattr(renderer_for(game), "score_cells", score_cells)
    ordered = sorted(results, key=lambda r: (r.get("rank") is None, r.get("rank") or 0, r.get("seat") or 0))
    per_seat = []
    columns: list[str] = []
    for result in ordered:
        parts = {k: v for k, v in (result.get("breakdown") or {}).items() if k not in ("seat", "total")}
        cells = dict(cells_of(parts))
        columns.extend(label for label in cells if label not in columns)
        per_seat.append((result, cells))
    rows = [
        (result, [cells.get(label, "—") for label in columns]
         + [str((result.get("breakdown") or {}).get("total", result.get("score")))])
        for result, cells in per_seat
    ]
    return [*columns, "Total"], rows


def renderer_for(game: Any) -> ModuleType:
    """The renderer module a game declares (`Game.renderer`), else (or for no game) this generic one."""
    part = getattr(game, "part", None)  # None: no game, or a stand-in with no parts
    return (part("renderer") if part is not None else None) or importlib.import_module(__name__)
