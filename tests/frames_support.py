"""What a viewer frame draws, without its log index: a live (spectator's) log holds only the public
entries, so a frame drawn from it counts entries differently from the same frame of the whole replay
(whose index the owner's decisions are matched by); the drawings themselves must agree."""

from __future__ import annotations

import random
from typing import Any

from ladder.games import get_game
from ladder.games.frames import Heading, drawn
from ladder.replay.public import typed_public_entry


def drawings(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in f.items() if k != "entry"} for f in frames]


def spectators_frames(heading: Heading, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public frames a spectator's log (the published entries) draws, in one pass."""
    view = get_game(heading.game).part("view")
    return drawn(view.stream(heading, None, reveal=False), [typed_public_entry(e) for e in log])


class Flaky:
    """A house bot that answers nonsense one time in five: refused decisions, with reasons."""

    def __init__(self, bot, seed: int):
        self.bot, self.rng = bot, random.Random(seed)

    def setup(self, hello):
        self.bot.setup(hello)

    def on_event(self, event):
        self.bot.on_event(event)

    def decide(self, kind, observation):
        if self.rng.random() < 0.2:
            return {"nonsense": 12}
        return self.bot.decide(kind, observation)
