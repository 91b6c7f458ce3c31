"""Toy Nim's starter bots. A real game's live in bots/<game>/<name>.py, one file an author copies;
a test game keeps them in its own package (ToyGame.bot_module points here; not "bots.py",
which would shadow the real `bots` package when the folder itself is on the path)."""

from __future__ import annotations

from bots.sdk import Bot


class RandomBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict] = []

    def on_event(self, event):
        self.events.append(event)

    def take(self, obs):
        return {"n": self.rng.randint(1, obs["request"]["max"])}

    def bet(self, obs):
        return {"high": self.rng.random() < 0.5}


class FixedBot(Bot):
    """Takes as many as it may and bets from its secret: deterministic without the RNG."""

    def take(self, obs):
        return {"n": obs["request"]["max"]}

    def bet(self, obs):
        return {"high": obs["secret"] > 3}


class CrashBot(FixedBot):
    def take(self, obs):
        raise RuntimeError("boom")


class IllegalBot(FixedBot):
    def take(self, obs):
        return {"n": 99}


class NotjsonBot(FixedBot):
    def take(self, obs):
        return {"n": object()}
