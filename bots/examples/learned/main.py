"""A Treasure of the Dragons bot that plays a model learned from the ladder's own games.

The tutorial "A bot that learns" in docs/bots.md builds it: record games, export them, fit the
model with train.py. The model is model.json, one weight per feature of policy.py; at each flip
the bot scores every choice (stop, an unseen square, each remembered kind) and plays the best.

Where the model comes from, first found wins:
1. `$LADDER_BOT_DATA/model.json`: the bot's data folder on the ladder, which persists between
   its matches (docs/bots.md); upload a new model there without uploading a new bot version;
2. model.json beside this file: the model shipped with the bot.
A model that cannot be read is logged and the next one is used, so a bad upload to the data
folder does not cost a match.

It only reads. Plain Python (no numpy): it starts as fast as any Python bot.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from policy import FEATURES, Memory, choices, score

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

HERE = Path(__file__).resolve().parent


def model_paths() -> list[Path]:
    data = os.environ.get("LADDER_BOT_DATA")
    return ([Path(data) / "model.json"] if data else []) + [HERE / "model.json"]


def load_model(paths: list[Path], log: Any = lambda *a: None) -> tuple[list[float], Path]:
    """The first readable model's weights, in FEATURES order, and where they came from."""
    for path in paths:
        try:
            model = json.loads(path.read_text(encoding="utf-8"))
            if model.get("features") != list(FEATURES):
                raise ValueError(f"its features are not this bot's {list(FEATURES)}")
            weights = [float(w) for w in model["weights"]]
            if len(weights) != len(FEATURES):
                raise ValueError("one weight per feature")
            return weights, path
        except FileNotFoundError:
            continue
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log(f"model {path} skipped: {exc}")
    raise RuntimeError(f"no model among {', '.join(map(str, paths))}")


class LearnedBot(Bot):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.memory = Memory()
        self.weights, where = load_model(model_paths(), self.log)
        self.log(f"model: {where}")

    def on_event(self, event: dict[str, Any]) -> None:
        self.memory.on_event(event)

    def flip(self, observation: dict[str, Any]) -> dict[str, Any]:
        options = choices(observation, self.memory.known)
        if not options:  # only remembered Spiders face down and no stop: any square is forced
            return {"square": self.rng.choice(observation["request"]["squares"])}
        # max keeps the first of equal scores: the fixed order of `choices` breaks ties
        answer, _ = max(options, key=lambda option: score(self.weights, option[1]))
        if answer.get("square") == "unseen":
            known = self.memory.known
            unknown = [sq for sq in observation["request"]["squares"] if tuple(sq) not in known]
            return {"square": self.rng.choice(unknown)}
        return answer

    def move_spider(self, observation: dict[str, Any]) -> dict[str, Any]:
        # Where the Spider goes is public, so moving it hides nothing: leave it.
        return {"square": None}


if __name__ == "__main__":
    run(LearnedBot)
