"""The village grid and Dragonflame's fire: straight lines entered from a side, lowest free space.

A cell is a Field (no spaces) or a village with 3-5 spaces; `fire` lists the seat of each token in
space order (space 1 first), so the first entry is the village's first burner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ladder.games.dragonflame.rules.data import FIELD, GLORY

SIDES = ("left", "right", "top", "bottom")  # left/right take a row index, top/bottom a column index


@dataclass(slots=True)
class Cell:
    name: str
    spaces: int
    fire: list[int] = field(default_factory=list)

    @property
    def field(self) -> bool:
        return self.name == FIELD

    @property
    def full(self) -> bool:
        return len(self.fire) >= self.spaces

    def as_json(self) -> dict:
        return {"name": self.name, "spaces": self.spaces, "fire": list(self.fire)}


class Grid:
    def __init__(self, rows: int, cols: int, cells: list[Cell]) -> None:
        assert len(cells) == rows * cols
        self.rows, self.cols, self.cells = rows, cols, cells
        self._lines = [(s, r) for s in ("left", "right") for r in range(rows)] + [
            (s, c) for s in ("top", "bottom") for c in range(cols)]
        self._line_set = frozenset(self._lines)

    def __repr__(self) -> str:  # what the grid holds, so two equal grids print alike (forward-model tests)
        return f"Grid({self.rows}, {self.cols}, {self.cells!r})"

    def cell(self, row: int, col: int) -> Cell:
        return self.cells[row * self.cols + col]

    def lines(self) -> list[tuple[str, int]]:
        """Every way into the grid: (side, row or column index)."""
        return list(self._lines)

    def is_line(self, side: str, index: int) -> bool:
        return (side, index) in self._line_set

    def path(self, side: str, index: int) -> list[tuple[int, int]]:
        """The cells in the order a flame entering from `side` meets them."""
        if side in ("left", "right"):
            cells = [(index, c) for c in range(self.cols)]
        else:
            cells = [(r, index) for r in range(self.rows)]
        return cells[::-1] if side in ("right", "bottom") else cells

    def burnable(self) -> bool:
        return any(len(c.fire) < c.spaces for c in self.cells)  # a Field has no spaces

    def burn(self, seat: int, side: str, index: int, tokens: int, supply: int) -> tuple[list[dict], int]:
        """Place up to `tokens` fire along the path, one per card met, while `supply` lasts.
        A Field or a full village takes that token's turn but no token. Returns the tokens placed
        (row, col, village, space numbered from 1) and how many of the `tokens` were wasted."""
        placed: list[dict] = []
        for row, col in self.path(side, index)[:tokens]:
            cell = self.cell(row, col)
            if cell.field or cell.full or supply - len(placed) <= 0:
                continue
            cell.fire.append(seat)
            placed.append({"row": row, "col": col, "village": cell.name, "space": len(cell.fire)})
        return placed, tokens - len(placed)

    def tokens_of(self, seat: int) -> int:
        return sum(c.fire.count(seat) for c in self.cells)

    def as_json(self) -> list[list[dict]]:
        return [[self.cell(r, c).as_json() for c in range(self.cols)] for r in range(self.rows)]


def village_glory(cell: Cell, players: int) -> list[int]:
    """Glory per seat from one village: nothing unless destroyed (every space burnt); then by damage,
    ties broken by who burnt it first (the earliest space)."""
    out = [0] * players
    if cell.field or not cell.full:
        return out
    burners = sorted(set(cell.fire), key=lambda s: (-cell.fire.count(s), cell.fire.index(s)))
    for rank, seat in enumerate(burners):
        awards = GLORY[cell.spaces]
        if rank < len(awards):
            out[seat] += awards[rank]
    return out
