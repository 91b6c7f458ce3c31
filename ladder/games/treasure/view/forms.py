"""Treasure's two decisions as forms for a person (ladder/games/forms.py says how forms work)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.forms import Choice, Field, Form, FormError, Values, one, request_of
from ladder.games.treasure.rules.decisions import FLIP, MOVE_SPIDER
from ladder.games.treasure.view.timeline import square_name

STOP, STAY = "stop", "stay"


def _key(square: Any) -> str:
    return f"{square[0]},{square[1]}"


def _label(observation: Mapping[str, Any], square: Any) -> str:
    row, col = square
    face = observation.get("grid", [[]] * 7)[row][col] if 0 <= row < 7 else "?"
    where = square_name(row, col)
    return where if face == "down" else f"{where} ({face})"


def _squares(observation: Mapping[str, Any], request: Mapping[str, Any]) -> list[Choice]:
    return [Choice(_key(s), _label(observation, s)) for s in request.get("squares", [])]


def form(observation: Mapping[str, Any]) -> Form:
    request = request_of(observation)
    kind = request["kind"]
    if kind == FLIP:
        options = _squares(observation, request)
        if request.get("can_stop"):
            options.insert(0, Choice(STOP, "stop and keep what I flipped this turn"))
        return Form(kind, "Flip a tile", (Field("square", "The tile to flip", choices=tuple(options)),),
                    help="Flip a face-down tile; a second dragon of a run ends your turn with nothing.")
    if kind == MOVE_SPIDER:
        options = _squares(observation, request)
        if request.get("may_leave"):
            options.insert(0, Choice(STAY, "leave the Spider where it is"))
        spider = request.get("spider")
        title = "Move the Spider" + (f" (now at {square_name(spider[0], spider[1])})" if spider else "")
        return Form(kind, title, (Field("square", "Where the Spider goes", choices=tuple(options)),))
    raise FormError(f"treasure has no decision {kind!r}")


def read(observation: Mapping[str, Any], values: Values) -> dict[str, Any]:
    the_form = form(observation)
    choice = one(the_form, values, "square")
    if choice == STOP:
        return {"stop": True}
    if choice == STAY:
        return {"square": None}
    row, col = choice.split(",")
    return {"square": [int(row), int(col)]}


def fill(observation: Mapping[str, Any], decision: Mapping[str, Any]) -> dict[str, list[str]]:
    if decision.get("stop"):
        return {"square": [STOP]}
    square = decision.get("square")
    return {"square": [STAY if square is None else _key(square)]}


def sight(observation: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The cave as rows of tiles (face down: "·"), then the rest of what the seat sees."""
    from ladder.games.forms import sight as rows

    grid = observation.get("grid") or []
    cave = "\n".join(f"{r}  " + " ".join("·" if cell == "down" else str(cell)[:2] for cell in row)
                     for r, row in enumerate(grid))
    header = "   " + " ".join(f"{c:<2}" for c in range(len(grid[0]) if grid else 0))
    return [("cave", f"{header}\n{cave}"), *((k, v) for k, v in rows(observation) if k != "grid")]
