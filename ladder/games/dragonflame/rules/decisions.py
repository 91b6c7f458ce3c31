"""The decision kinds of DragonFlame and the JSON shape of each (checked before the rules).

    play:   {"card": "c17", "castle": 3}   (castle null only when no castle has room: discarded)
    spy:    {"castle": 3} or {"castle": null}   (Spyglass: look at one castle's face-down cards)
    attack: {"castle": 3}
    flame:  {"side": "left" | "right" | "top" | "bottom", "index": 0}   (row for left/right,
            column for top/bottom)
"""

from __future__ import annotations

from typing import Any

from ladder.games.dragonflame.rules.village import SIDES

PLAY, SPY, ATTACK, FLAME = "play", "spy", "attack", "flame"
KINDS = (PLAY, SPY, ATTACK, FLAME)
SHAPES = {
    PLAY: '{"card": "c17", "castle": 3}',
    SPY: '{"castle": 3} or {"castle": null}',
    ATTACK: '{"castle": 3}',
    FLAME: '{"side": "left", "index": 0}',
}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # true/false are not numbers


def shape_error(kind: str, decision: dict[str, Any]) -> str | None:
    """None when `decision` has the keys and types `kind` needs, else why not."""
    want = {PLAY: {"card", "castle"}, SPY: {"castle"}, ATTACK: {"castle"}, FLAME: {"side", "index"}}[kind]
    if set(decision) != want:
        return f"{kind}: expected {SHAPES[kind]}, got keys {sorted(map(str, decision))}"
    if kind == PLAY and not isinstance(decision["card"], str):
        return f"play: card must be a card id like \"c17\", got {decision['card']!r}"
    if kind == FLAME:
        if decision["side"] not in SIDES:
            return f"flame: side must be one of {', '.join(SIDES)}, got {decision['side']!r}"
        if not _whole(decision["index"]):
            return f"flame: index must be a whole number, got {decision['index']!r}"
        return None
    castle = decision["castle"]
    if castle is None and kind in (PLAY, SPY):
        return None
    if not _whole(castle):
        return f"{kind}: castle must be a castle number, got {castle!r}"
    return None
