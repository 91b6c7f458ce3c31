"""A tiny game for testing the play loop, replays, the CLI and the bench without a real game.

"Toy Nim": a public pile; in turn order each seat takes 1-3 counters (kind "take"). When the pile
is empty every seat, in order, bets whether its own secret number (dealt privately from the RNG at
set-up) is high (kind "bet"). Score: counters taken, plus the option `bonus` for a right bet.
It has hidden information, two decision kinds, options of both sorts and ties, like real games.

Tests register it with `register(monkeypatch)`. Run as a script to rewrite the golden replay:
    python tests/toygame.py tests/golden/toy-seed3.json
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bots.sdk import Bot
from ladder.games.base import Event, Game, Option, Pending, State


class ToyState(State):
    def __init__(self, game: ToyGame, options: dict, seed: int, num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.events = []
        self.pile = options["pile"]
        self.taken = [0] * num_players
        self.secrets = [self.rng.randint(1, 6) for _ in range(num_players)]
        self.bets: list[bool | None] = [None] * num_players
        self.turn = 0
        self.events.append(Event("start", {"pile": self.pile, "players": num_players}))
        for seat, secret in enumerate(self.secrets):
            self.events.append(Event("secret", {"seat": seat, "value": secret}, to=(seat,)))

    def pending(self) -> Pending | None:
        if self.pile > 0:
            return Pending(self.turn, "take")
        if None in self.bets:
            return Pending(self.bets.index(None), "bet")
        return None

    def observation(self, seat: int) -> dict:
        obs = {"pile": self.pile, "taken": list(self.taken), "secret": self.secrets[seat]}
        pending = self.pending()
        if pending is not None and pending.seat == seat:
            obs["request"] = {"kind": pending.kind, "max": min(3, self.pile)}
        return obs

    def validate(self, seat: int, decision) -> str | None:
        error = self.turn_error(seat, decision)
        if error is not None:
            return error
        pending = self.pending()
        if pending.kind == "take":
            n = decision.get("n")
            if type(n) is not int or not 1 <= n <= min(3, self.pile):
                return f"take 1..{min(3, self.pile)} counters, not {n!r}"
        elif type(decision.get("high")) is not bool:
            return "bet needs a boolean 'high'"
        return None

    def _apply(self, seat: int, decision) -> None:
        if self.pile > 0:
            self.pile -= decision["n"]
            self.taken[seat] += decision["n"]
            self.events.append(Event("took", {"seat": seat, "n": decision["n"], "pile": self.pile}))
            self.turn = (self.turn + 1) % self.num_players
            if self.pile == 0:
                self.events.append(Event("pile_empty", {}))
        else:
            self.bets[seat] = decision["high"]
            self.events.append(Event("bet", {"seat": seat}))
            if None not in self.bets:
                self.events.append(Event("reveal", {"secrets": list(self.secrets)}))

    def default_decision(self):
        return {"n": 1} if self.pile > 0 else {"high": False}

    def _right(self, seat: int) -> bool:
        return self.bets[seat] == (self.secrets[seat] > 3)

    def scores(self) -> list[int]:
        bonus = self.options["bonus"]
        return [self.taken[s] + (bonus if self._right(s) else 0) for s in range(self.num_players)]

    def breakdown(self) -> list[dict]:
        return [
            {"taken": self.taken[s], "bet": self.options["bonus"] if self._right(s) else 0}
            for s in range(self.num_players)
        ]


class ToyGame(Game):
    name = "toy"
    title = "Toy Nim"
    min_players = 2
    max_players = 5
    default_players = 3
    options = {
        "pile": Option(default=12, minimum=3, maximum=60, help="counters in the pile"),
        "bonus": Option(default=2, minimum=0, maximum=9, help="points for a right bet"),
        "style": Option(default="plain", choices=("plain", "fancy"), help="no effect; a choice option"),
    }
    decision_kinds = ("take", "bet")
    preferred_players = 3
    starter_bots = ("random", "fixed", "crash", "illegal", "notjson")
    fallback_bot = "fixed"

    def bot_module(self, name: str) -> str:
        """A one-module test game keeps its bots beside its rules, not in bots/toy/."""
        super().bot_module(name)  # KeyError for a bot it does not have
        return __name__

    def new_state(self, options, seed, num_players) -> ToyState:
        self.check_players(num_players)
        return ToyState(self, self.resolve_options(options), seed, num_players)


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


def register(monkeypatch) -> None:
    """Make "toy" a registered game, for one test only (its starter bots come with it)."""
    import ladder.games

    monkeypatch.setitem(ladder.games.GAMES, "toy", "toygame:ToyGame")


GOLDEN = Path(__file__).parent / "golden" / "toy-seed3.json"
GOLDEN_ARGS = {"game": "toy", "names": ["random", "fixed", "random"], "seed": 3, "options": {"pile": 10}}


def golden_replay():
    """The replay behind tests/golden/toy-seed3.json, built from scratch."""
    from ladder.play import play_builtin

    return play_builtin(**GOLDEN_ARGS).replay


if __name__ == "__main__":
    import ladder.games
    from ladder.replay import write_replay

    sys.modules.setdefault("toygame", sys.modules["__main__"])
    ladder.games.GAMES["toy"] = "toygame:ToyGame"
    write_replay(golden_replay(), sys.argv[1] if len(sys.argv) > 1 else GOLDEN)
