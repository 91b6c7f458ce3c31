"""Shape checks shared by the decision validators: each returns a reason or None."""

from __future__ import annotations

from typing import Any

from ladder.games.drachengold.rules.data import token_index, token_indices


def token_list(value: Any, what: str) -> tuple[list[int] | None, str | None]:
    """Parse a list of distinct token ids."""
    if not isinstance(value, list):
        return None, f"{what} must be a list of token ids"
    out = token_indices(value)
    if out is None:  # the first value that is not a token id, for the reason
        bad = next(item for item in value if token_index(item) is None)
        return None, f"{what}: {bad!r} is not a token id"
    if len(set(out)) != len(out):
        return None, f"{what} names a token twice"
    return out, None


def is_int(value: Any) -> bool:
    """A JSON integer (bool and float are not: 1.0 would pass `in` checks and then fail as an index)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_value(value: Any, n: int) -> int | None:
    """A seat number from an int or a decimal string (JSON object keys are strings)."""
    if isinstance(value, str):  # first: a share's or an offer's key always is one
        # ASCII only: str.isdigit() accepts "²" (int() then raises) and other scripts' digits.
        if not (value.isascii() and value.isdigit() and len(value) < 3):
            return None
        value = int(value)
    elif isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value < n else None


def attack_checker(info: dict[str, Any]):
    """Checks an attack against the request's `info`: "adventurers", the seat's face-up adventurers
    at home, and "dragons", the ids on the table (lists a seat only ever sees copies of). Read at
    each check, so that the flow's one attack request serves every turn with its info's lists
    replaced, instead of a checker (and a request) made every turn."""

    def check(d: dict[str, Any]) -> str | None:
        adv, dragon = d.get("adventurer"), d.get("dragon")
        available = info["adventurers"]
        if not isinstance(adv, str) or adv not in available:
            return f"adventurer {adv!r} is not one of your face-up adventurers ({', '.join(sorted(available))})"
        if not isinstance(dragon, str) or dragon not in info["dragons"]:
            return f"dragon {dragon!r} is not on the table"
        return None

    return check


def attack_default(info: dict[str, Any]) -> dict[str, Any]:
    """Safe default: the first face-up adventurer against the first dragon on the table."""
    return {"adventurer": info["adventurers"][0], "dragon": info["dragons"][0]}
