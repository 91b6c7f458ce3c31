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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ladder.replay.model import Decision, Entry, Fault, Replay, Result

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


def fault_line(entry: Decision, who: Who) -> str | None:
    """A refused decision of the typed log as the step list says it; None for an accepted one."""
    fault = entry.fault
    if fault is None:
        return None
    return (f"⚠ {who(entry.seat)}: {fault.status} on {entry.kind} "
            f"({fault.reason or 'no reason'}); the default decision was played")


def decision_line(entry: Mapping[str, Any] | Decision, who: Who) -> str:
    """A decision as a sentence: a typed one (the views), or the play loop's JSON (the CLI demo,
    a person's table)."""
    if not isinstance(entry, Decision):
        fault = entry.get("fault")
        entry = Decision(entry.get("seat"), entry.get("kind"), entry.get("decision"),
                         Fault(fault.get("status"), fault.get("reason")) if fault else None)
    return fault_line(entry, who) or f"{who(entry.seat)} decides {entry.kind}: {compact(entry.decision)}"


# --- the generic renderer --------------------------------------------------------------------


def event_line(entry: Mapping[str, Any], who: Who) -> str:
    if "kind" in entry:
        return decision_line(entry, who)
    return f"{entry.get('type')}: {compact(entry.get('data', {}))}"


def entry_line(entry: Entry, who: Who) -> str:
    """`event_line` of a typed log entry."""
    if isinstance(entry, Decision):
        return decision_line(entry, who)
    return f"{entry.type}: {compact(entry.data if entry.data is not None else {})}"


def sections(replay: Replay, names: Sequence[str]) -> list[Section]:
    return generic_sections(replay.log, seat_namer(names))


def generic_sections(log: Iterable[Entry], who: Who) -> list[Section]:
    section = Section("The game")
    for entry in log:
        section.add(entry_line(entry, who))
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


def score_table(game: Any, results: Sequence[Result]) -> tuple[list[str], list[tuple[Result, list[str]]]]:
    """Column labels and, per result in rank order (ties by seat), the result and its cells, total last."""
    cells_of = getattr(renderer_for(game), "score_cells", score_cells)
    ordered = sorted(results, key=lambda r: (r.rank is None, r.rank or 0, r.seat or 0))
    per_seat = []
    columns: list[str] = []
    for result in ordered:
        breakdown = result.breakdown if isinstance(result.breakdown, dict) else {}
        parts = {k: v for k, v in breakdown.items() if k not in ("seat", "total")}
        cells = dict(cells_of(parts))
        columns.extend(label for label in cells if label not in columns)
        per_seat.append((result, cells))
    rows = [
        (result, [cells.get(label, "—") for label in columns]
         + [str((result.breakdown if isinstance(result.breakdown, dict) else {}).get("total", result.score))])
        for result, cells in per_seat
    ]
    return [*columns, "Total"], rows


def renderer_for(game: Any) -> ModuleType:
    """The renderer module a game declares (`Game.renderer`), else (or for no game) this generic one."""
    part = getattr(game, "part", None)  # None: no game, or a stand-in with no parts
    return (part("renderer") if part is not None else None) or importlib.import_module(__name__)
