"""The search house bot for DragonFlame: the heuristic's values, refined by sampling.

Meant as the strongest; measured level with the heuristic and looter so far (docs/bots.md).

Every decision starts from the heuristic bot's values (`ladder.games.dragonflame.outlook`: card
counting and a forecast of the attack round). Attacks and Dragonflames are then searched by flat
Monte Carlo over determinizations: it samples full states consistent with what it saw (the game's
own forward model, `ladder.games.dragonflame.forward`: other hands, face-down cards and the deck
dealt at random), plays each of the heuristic's best CANDIDATES decisions on the same sample
(common random numbers: the candidates meet the same luck), plays on to the end of the round (of
the game in the last round) with a fast policy for every seat (cards onto random castles, each
attack on the castle that looks best with the cards really there, Dragonflames on random lines)
and scores the result: the end score when the game ended, else each seat's hoard and village
prospect. A candidate's value is its seat's lead (half over the best other, half over their mean:
both matter for the rank); the heuristic's first choice stands unless another leads it by MARGIN.
Plays are the heuristic's: searched they measured worse (see SEARCHED).

Budget: SEARCH_SECONDS of wall time per decision (a fifth of the ladder's 1 s) and at most
MAX_SWEEPS samples; at least one sample is always played. With the same seed and events it plays
the same unless the clock cuts a search short. The Spyglass is always used where most is unseen.
Standard library and the game's rules only.
"""

from __future__ import annotations

import random
import time

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

SEARCH_SECONDS = 0.2  # per decision: a fifth of the ladder's 1 s, the bank untouched even when slowed
MAX_SWEEPS = 60  # samples per decision: every candidate is played out once on each
# Plays keep the heuristic's forecast: searched with random plays in the rollouts they measured
# worse (a card's effect drowns in the others' random cards); attacks and Dragonflames, followed
# only by the round's other attacks, measured better searched.
SEARCHED = ("attack", "flame")
CANDIDATES = 4  # the heuristic's best few decisions are searched, not every listed one
MARGIN = 0.5  # Glory Points of lead the samples must add to overrule the heuristic's first choice


def seat_value(state, seat: int) -> float:
    """What `seat` would score if the game ended now, villages half-burnt counting in part."""
    from ladder.games.dragonflame.outlook import hoard_now, village_outlook

    return hoard_now(state.hoards[seat]) + village_outlook(state, seat)


def lead(values: list[float], seat: int) -> float:
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


class SearchBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.hello: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.sweeps: list[int] = []  # samples per searched decision (tests and tuning read it)

    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.hello = hello

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        start = time.monotonic()
        # The rules are imported at the first decision, not at start-up: `ready` must come within
        # the start-up limit even on a busy machine, and the rules are most of the start's cost.
        from ladder.games.dragonflame.forward import Sampler, clone
        from ladder.games.dragonflame.outlook import Outlook, spy

        if kind == "spy":
            return spy(observation)
        sampler = Sampler(self.hello, observation, self.events)
        ranked = Outlook(sampler).ranked(kind, observation["request"])
        candidates = [decision for _worth, decision in ranked[:CANDIDATES]]
        if len(candidates) == 1 or kind not in SEARCHED:
            return candidates[0]
        totals = [0.0] * len(candidates)
        sweeps = 0
        while sweeps < MAX_SWEEPS and (sweeps < 1 or time.monotonic() - start < SEARCH_SECONDS):
            sample = sampler.sample(self.rng)
            seed = self.rng.getrandbits(32)
            for i, decision in enumerate(candidates):
                state = clone(sample)
                state._emit = quiet  # a rollout's events go nowhere: not building them halves its cost
                state.apply_validated(self.seat, decision)
                totals[i] += self.rollout(state, random.Random(seed))
            sweeps += 1
        self.sweeps.append(sweeps)
        means = [t / sweeps for t in totals]
        best = max(range(len(candidates)), key=lambda i: means[i])
        # The heuristic's first choice stands unless the samples clearly prefer another.
        return candidates[best] if means[best] - means[0] > MARGIN else candidates[0]

    def rollout(self, state, rng: random.Random) -> float:
        """Play on to the end of this round (of the game in the last round); the seat's lead."""
        start_round = state.round
        while state.pending() is not None and state.round == start_round:
            pending = state.pending()
            state.apply_validated(pending.seat, policy(state, pending.seat, pending.kind, rng))
        if state.pending() is None:
            return lead([float(s) for s in state.scores()], self.seat)
        return lead([seat_value(state, s) for s in range(state.num_players)], self.seat)


def _rough(card) -> float:
    """A card's worth at a glance, for the rollout policy (the end evaluation is exact)."""
    by_category = {"statue": 4.0, "chest": 2.0, "knight": -3.0, "curse": -3.0, "princess": 3.0, "relic": 1.0}
    return card.value or 1.5 * card.fire or by_category.get(card.category, 0.0)


ROUGH: dict[str, float] = {}  # card id -> _rough, filled at the first rollout (the rules load late)


def rough(card: str) -> float:
    if not ROUGH:
        from ladder.games.dragonflame.data import CARD_BY_ID

        ROUGH.update((cid, _rough(c)) for cid, c in CARD_BY_ID.items())
    return ROUGH[card]


def quiet(*_args: Any, **_data: Any) -> None:
    """Stands in for the state's event log during a rollout."""


def policy(state, seat: int, kind: str, rng: random.Random) -> dict[str, Any]:
    """The fast policy every seat follows in a rollout."""
    if kind == "play":
        roomy = [c.number for c in state.castles if c.room]
        return {"card": rng.choice(state.hands[seat]), "castle": rng.choice(roomy) if roomy else None}
    if kind == "spy":
        return {"castle": None}
    if kind == "flame":
        side, index = rng.choice(state.grid.lines())
        return {"side": side, "index": index}
    last = len(state.deck) < state.per_round * state.num_players  # the banner looted now scores

    def worth(castle) -> float:
        return sum(rough(cid) for cid, _up, _by in castle.cards) + (castle.number if last else 0)

    open_ = [c for c in state.castles if c.attacker is None]
    return {"castle": max(open_, key=worth).number}


if __name__ == "__main__":
    run(SearchBot)
