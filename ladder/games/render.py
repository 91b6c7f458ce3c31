"""What a game's renderer returns for the match page: sections of lines (pure, no Flask).

A game's `render.sections(replay, names)` cuts its replay into `Section`s, each a list of `Block`s
of lines (a transcript block is shown as such); `compact` prints any JSON value on one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Block:
    talk: bool  # a negotiation or division transcript, shown as such
    lines: list[str] = field(default_factory=list)
    label: str = ""


@dataclass
class Section:
    """One turn: its lines in the order they happened, transcripts in place, and maybe a grid."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    grid: list[list[dict[str, Any]]] | None = None  # Treasure: rows of cells at the end of the turn

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


def compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={compact(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "[" + ", ".join(compact(v) for v in value) + "]"
    return str(value)
