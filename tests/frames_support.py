"""What a viewer frame draws, without its log index: a live (spectator's) log holds only the public
entries, so a frame drawn from it counts entries differently from the same frame of the whole replay
(whose index the owner's decisions are matched by); the drawings themselves must agree."""

from __future__ import annotations

from typing import Any


def drawings(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in f.items() if k != "entry"} for f in frames]
