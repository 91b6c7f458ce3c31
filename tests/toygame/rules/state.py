"""Toy Nim's rules: a public pile, then a private bet (tests/toygame/__init__.py says the game)."""

from __future__ import annotations

import random

from ladder.games.base import Event, Game, Pending, State

KINDS = ("take", "bet")


class ToyState(State):
    def __init__(self, game: Game, options: dict, seed: int, num_players: int) -> None:
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
