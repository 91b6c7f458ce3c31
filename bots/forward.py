"""The forward model: a bot's own copy of the game's rules, to look ahead with.

Inside the sandbox a Python bot imports the game's pure engine (`ladder.games`, read-only, the
version the match itself runs) next to this SDK. From the handshake, the events its seat saw and
its current observation, `ForwardModel.sample` builds a full game state consistent with all of
it, with the hidden parts (face-down tiles, other hands, the deck) drawn at random from what is
still possible: a determinization. The bot never sees the true hidden state; it can then try
decisions on as many sampled states as its time allows and read the outcome.

    from bots.forward import ForwardBot

    class MyBot(ForwardBot):
        def flip(self, observation):
            state = self.model.sample(observation, self.rng)  # the events so far are remembered
            ...  # self.model.apply(state, decision), .pending(state), .scores(state), ...

Each game declares its sampler as `Game.forward`, a pure module of its package defining
`determinize(hello, observation, events, rng) -> State`; games without one have no forward model
(`ForwardModel.available`). The rest of the API is the game's `State` (ladder/games/base.py).
"""

from __future__ import annotations

import copy
import random

from bots.sdk import Bot

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ladder.games.base import State


def _forward_module(game: str) -> Any:
    """The game's `forward` module, or None when the game has no forward model."""
    from ladder.games import GAMES, get_game

    return get_game(game).part("forward") if game in GAMES else None


_REPLAYED: set[type] = set()  # state classes that deep-copy fails on: copied by replaying their recipe


class _Recipe:
    """How a sample was made (the sampler and the rng state it started from) and the decisions
    played on it since: enough to build the same state again."""

    __slots__ = ("again", "decisions", "start")

    def __init__(self, again: Callable[[random.Random], State], start: object, decisions: list) -> None:
        self.again, self.start, self.decisions = again, start, decisions

    def __deepcopy__(self, memo: dict) -> _Recipe:  # a deep-copied state keeps its own decision list
        return _Recipe(self.again, self.start, copy.deepcopy(self.decisions, memo))


class ForwardModel:
    """Determinizations of one seat's game, and the moves of the game's rules on them."""

    def __init__(self, hello: dict[str, Any]) -> None:
        self.hello = dict(hello)
        self.seat = int(hello.get("seat", 0))
        self.events: list[dict[str, Any]] = []
        self._module: Any = None  # loaded at the first sample: importing the rules before `ready`
        # would spend the start-up time limit on a busy machine

    @classmethod
    def available(cls, game: str) -> bool:
        return _forward_module(game) is not None

    def observe(self, event: dict[str, Any]) -> None:
        """Remember one event this seat saw (call it from `on_event` with every event, in order)."""
        self.events.append(event)

    def sample(self, observation: dict[str, Any], rng: random.Random) -> State:
        """A full state consistent with `observation` and every event seen, hidden parts drawn
        with `rng`. A fresh state each call: change it at will."""
        if self._module is None:
            self._module = _forward_module(str(self.hello.get("game", "")))
        if self._module is None:
            raise LookupError(f"the game {self.hello.get('game')!r} has no forward model")
        module, hello, events, start = self._module, self.hello, self.events[:], rng.getstate()

        def again(rng: random.Random) -> State:
            return module.determinize(hello, observation, events, rng)

        state = again(rng)
        # How to build this state again, for copy(): a state whose flow is a running generator
        # cannot be deep-copied, but the same rng state gives the same sample.
        state._forward_recipe = _Recipe(again, start, [])
        return state

    # ---- the rules, on a sampled state -------------------------------------------------------

    @staticmethod
    def pending(state: State) -> tuple[int, str] | None:
        """(seat, decision kind) the state waits for, or None once the game is over."""
        pending = state.pending()
        return None if pending is None else (pending.seat, pending.kind)

    @staticmethod
    def request(state: State) -> dict[str, Any]:
        """The pending decision's request, as its seat would see it (kind and legal choices)."""
        pending = state.pending()
        if pending is None:
            raise ValueError("the game is over")
        return state.observation(pending.seat)["request"]

    @staticmethod
    def legal(state: State, decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Those of `decisions` the rules allow for the pending seat now."""
        pending = state.pending()
        if pending is None:
            return []
        return [d for d in decisions if state.validate(pending.seat, d) is None]

    @staticmethod
    def apply(state: State, decision: dict[str, Any]) -> None:
        """Play `decision` for the pending seat; raises IllegalDecision (with why) when illegal."""
        pending = state.pending()
        if pending is None:
            raise ValueError("the game is over")
        state.apply(pending.seat, decision)
        recipe = getattr(state, "_forward_recipe", None)
        if recipe is not None:
            recipe.decisions.append(copy.deepcopy(decision))  # the caller may reuse its dict

    @staticmethod
    def copy(state: State) -> State:
        """An independent copy of a sampled state. Most states are deep-copied; one whose flow is a
        running generator is sampled again from the same rng state and replayed through the
        decisions `apply` played on it since, which gives the same state (its engine rng included).
        Play on a sample through `apply`, not `state.apply`, to copy it later."""
        if type(state) not in _REPLAYED:
            try:
                return copy.deepcopy(state)
            except TypeError:
                _REPLAYED.add(type(state))  # a failed deep copy costs more than the replay: once is enough
        recipe = getattr(state, "_forward_recipe", None)
        if recipe is None:
            raise TypeError("this state cannot be deep-copied: copy a state made by sample() "
                            "and played on with apply()")
        rng = random.Random()
        rng.setstate(recipe.start)
        twin = recipe.again(rng)
        for decision in recipe.decisions:
            twin.apply(twin.pending().seat, decision)
        twin._forward_recipe = _Recipe(recipe.again, recipe.start, list(recipe.decisions))
        return twin

    @staticmethod
    def is_over(state: State) -> bool:
        return state.is_terminal()

    @staticmethod
    def scores(state: State) -> list[int]:
        return state.scores()

    @staticmethod
    def ranks(state: State) -> list[int]:
        return state.ranks()


class ForwardBot(Bot):
    """A bot with a forward model of its game in `self.model`, fed every event it sees."""

    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.model = ForwardModel(hello)

    def on_event(self, event: dict[str, Any]) -> None:
        self.model.observe(event)
