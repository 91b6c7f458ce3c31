"""The card and token data of the ladder's Drachengold edition, loaded from deck.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

DECK: dict[str, Any] = json.loads(resources.files(__package__).joinpath("deck.json").read_text())

# Token i has colour TOKEN_COLOURS[i]; its id on the wire is "t<i>".
TOKEN_COLOURS: tuple[str, ...] = tuple(c for c, k in DECK["tokens"].items() for _ in range(k))
COLOURS: tuple[str, ...] = tuple(DECK["tokens"])
_IDS = tuple(f"t{i}" for i in range(len(TOKEN_COLOURS)))
_INDEX = {tid: i for i, tid in enumerate(_IDS)}
# Each token's JSON, made once: tokens_json hands out copies (a copy of a small dict costs about two
# thirds of building it anew), so these are never seen, nor changed, outside this module.
_JSON = tuple({"id": tid, "colour": colour} for tid, colour in zip(_IDS, TOKEN_COLOURS, strict=True))


# The wire id of token `index`: the tuple's own C method rather than a Python function, as it is
# mapped over whole shares and hoards (the same value and the same TypeError for a non-int index).
token_id: Callable[[int], str] = _IDS.__getitem__


def token_index(value: Any) -> int | None:
    """The token index for a wire id, or None when `value` names no token."""
    return _INDEX.get(value) if isinstance(value, str) else None


def token_ids(tokens: list[int]) -> list[str]:
    """The wire ids of `tokens`, in their order (one C-level map, not a call per token)."""
    return list(map(_IDS.__getitem__, tokens))


# The token index of a wire id, raising KeyError for any other string (TypeError if unhashable):
# the index's own C method, to map over a list of ids where a Python call per list costs.
token_index_of_id: Callable[[str], int] = _INDEX.__getitem__


def token_indices(values: list[Any]) -> list[int] | None:
    """The token indexes for a list of wire ids, or None when any value names no token: one C-level
    map for the common, well-formed decision; token_index says which value it is. A value that is
    not a string is never a key here (decisions are JSON), and an unhashable one raises TypeError."""
    try:
        return list(map(token_index_of_id, values))
    except (KeyError, TypeError):
        return None


def tokens_json(tokens: list[int]) -> list[dict[str, str]]:
    """Fresh dicts, {"id": "t<i>", "colour": ...}, one per token: the caller may keep or hand them out.
    (A comprehension: map(dict.copy, map(_JSON.__getitem__, ...)) costs about 40% more instructions.)"""
    return [_JSON[t].copy() for t in tokens]


def token_dicts(tokens: list[int]) -> list[dict[str, str]]:
    """This module's own dicts for the tokens, not copies: for a cache that hands out only copies
    of them (state.dragon_json); never to be handed out or changed as they are."""
    return [_JSON[t] for t in tokens]
