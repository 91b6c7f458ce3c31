"""The forward model of DragonFlame: a full engine state one seat could be in (a determinization).

`determinize(hello, observation, events, rng)` rebuilds a `DragonFlameState` from what the seat
knows: everything public (castles, face-up cards, hoards, grid, banners, sizes) is copied from the
observation; the seat's hand and the face-down cards it played or spied are its own; every other
card of the game is placed at random (rng) into the hidden places: the other hands, the face-down
castle cards it cannot see, the deck and the part of the discard pile it never saw. Cards it saw in
events and cannot see now must be in the discard pile (a seen card never goes back to a hidden
place), so they go there. The true seed is never used: the state's rng is reseeded from `rng`.

`Sampler` does the reading once and then samples many states cheaply (a search bot samples one
per iteration); `clone` copies a state for a rollout. The sampled state is uniform over the hidden
cards: it ignores what the others' choices hint at (a bot may weigh those hints itself).
"""

from __future__ import annotations

import random
from typing import Any

from ladder.games.base import Event, Pending
from ladder.games.dragonflame.rules.data import CARD_BY_ID, DRAGONFLAME, SPYGLASS, deck_for
from ladder.games.dragonflame.rules.decisions import ATTACK, FLAME, PLAY, SPY
from ladder.games.dragonflame.rules.state import Castle, DragonFlameState
from ladder.games.dragonflame.rules.village import Cell, Grid


def _data(event: dict[str, Any]) -> dict[str, Any]:
    """Events reach bots as {"type", "data", "to"}; accept a flat event too."""
    return event.get("data", event)


def _seen_cards(events: list[dict[str, Any]]) -> set[str]:
    """Every card id the seat has seen named in an event (its hands, reveals, discards)."""
    seen: set[str] = set()

    def add(value: Any) -> None:
        if isinstance(value, dict):
            if "id" in value and "category" in value:
                seen.add(value["id"])
            for v in value.values():
                add(v)
        elif isinstance(value, list):
            for v in value:
                add(v)

    for event in events:
        add(_data(event))
    return seen


def _pending_flames(events: list[dict[str, Any]]) -> list[str]:
    """The Dragonflames the current attacker still has to resolve: those of the last attack, less
    the ones resolved (or fizzled) since."""
    last = None
    for i, event in enumerate(events):
        if event.get("type") == "attack":
            last = i
    if last is None:
        return []
    flames = [c["id"] for c in _data(events[last])["cards"] if c["category"] == DRAGONFLAME]
    for event in events[last + 1:]:
        if event.get("type") in ("flame", "flame_fizzle") and flames:
            flames.pop(0)
        elif event.get("type") == "round_end":
            return []
    return flames


def _spied_this_round(events: list[dict[str, Any]]) -> set[int]:
    """Seats that used a Spyglass on a castle this round (a public `spy` event)."""
    used: set[int] = set()
    for event in events:
        if event.get("type") == "round":
            used = set()
        elif event.get("type") == "spy":
            used.add(int(_data(event)["seat"]))
    return used


def clone(state: DragonFlameState) -> DragonFlameState:
    """An independent copy of a state to play on (a rollout). Its event list starts empty: the
    history is not needed to play on, and copying it would cost more than the rest."""
    new = object.__new__(type(state))
    new.__dict__.update(state.__dict__)
    new.rng = random.Random()
    new.rng.setstate(state.rng.getstate())
    new.events = []
    new.deck, new.box = list(state.deck), list(state.box)
    new.discard, new.flames = list(state.discard), list(state.flames)
    new.hands = [list(h) for h in state.hands]
    new.hoards = [list(h) for h in state.hoards]
    new.fire, new.banners, new.order = list(state.fire), list(state.banners), list(state.order)
    new.played, new.spy_used, new.lucky = list(state.played), list(state.spy_used), list(state.lucky)
    new.spied = [set(s) for s in state.spied]
    grid = state.grid
    new.grid = Grid(grid.rows, grid.cols, [Cell(c.name, c.spaces, list(c.fire)) for c in grid.cells])
    new.castles = []
    for castle in state.castles:
        copy = Castle(castle.colour, castle.number, list(castle.cards), castle.attacker)
        new.castles.append(copy)
    new.taken = [None if c is None else new.castle(c.number) for c in state.taken]
    new.final = None if state.final is None else [dict(row) for row in state.final]
    return new


class Sampler:
    """What one seat knows, read once from its observation and events; `sample(rng)` gives a full
    state consistent with it each time, the hidden cards dealt at random."""

    def __init__(self, hello: dict[str, Any], observation: dict[str, Any], events: list[dict[str, Any]]) -> None:
        from ladder.games.dragonflame import DragonFlame

        obs = observation
        if obs.get("over"):
            raise ValueError("the game is over: there is nothing to determinize")
        seat, n = int(obs["seat"]), int(obs["players"])
        self.seat = seat
        # A fresh state from a fixed seed (never the match's): every attribute is then replaced.
        state = DragonFlame().new_state(hello.get("options") or None, 0, n)
        state.events = []
        state.round, state.phase = int(obs["round"]), obs["phase"]
        state.order = list(obs["order"])
        state.banners = [(b["colour"], int(b["number"])) for b in obs["banners"]]
        aside = obs["set_aside"]
        state.set_aside = None if aside is None else (aside["colour"], int(aside["number"]))
        state.played = list(obs["played"])
        state.fire = list(obs["fire"])
        rows = obs["grid"]
        state.grid = Grid(len(rows), len(rows[0]), [Cell(c["name"], c["spaces"], list(c["fire"]))
                                                    for row in rows for c in row])
        state.hoards = [[c["id"] for c in hoard] for hoard in obs["hoards"]]

        # Castles: known cards by id, hidden ones as slots to fill.
        state.castles = []
        self.slots: list[tuple[int, int]] = []  # (index in castles, index of a hidden card)
        known: set[str] = set()
        spied: set[str] = set()
        for entry in obs["castles"]:
            castle = Castle(entry["colour"], int(entry["number"]))
            castle.attacker = entry["attacker"]
            for card in entry["cards"]:
                up, by = card["face"] == "up", int(card["by"])
                if "card" in card:
                    cid = card["card"]["id"]
                    known.add(cid)
                    if not up and by != seat:
                        spied.add(cid)
                else:
                    cid = ""
                    self.slots.append((len(state.castles), len(castle.cards)))
                castle.cards.append((cid, up, by))
            state.castles.append(castle)
        state.taken = [None if number is None else state.castle(number) for number in obs["looted"]]

        hand = [c["id"] for c in obs["hand"]]
        pending_seat = obs["current"]
        request = obs.get("request")
        flames = _pending_flames(events) if state.phase == "attack" else []
        if request is not None and request["kind"] == FLAME:
            flames = flames if flames and flames[0] == request["card"]["id"] else [request["card"]["id"]]
        elif request is not None:
            flames = []

        # Where every card is: known places first; seen cards no longer in sight are discarded.
        in_play = [c.id for c in deck_for(n)]
        placed = set(hand) | known | set(flames) | {c for h in state.hoards for c in h}
        discard_known = sorted((_seen_cards(events) - placed) & set(in_play), key=lambda c: int(c[1:]))
        placed |= set(discard_known)
        self.pool = [c for c in in_play if c not in placed]
        self.sizes = list(obs["hand_sizes"])
        self.deck_size, self.discard_known = int(obs["deck"]), discard_known
        need = sum(self.sizes[s] for s in range(n) if s != seat) + len(self.slots) + self.deck_size \
            + int(obs["discard"]) - len(discard_known)
        if need != len(self.pool) or len(discard_known) > int(obs["discard"]):
            raise ValueError(f"observation and events disagree: {len(self.pool)} unseen cards "
                             f"for {need} hidden places")

        state.hands = [[] for _ in range(n)]
        state.hands[seat] = hand
        state.flames = list(flames)
        state.spy_used = [False] * n
        for s in _spied_this_round(events):
            state.spy_used[s] = True
        state.spy_used[seat] = bool(obs["spyglass_used"])
        state.spied = [set() for _ in range(n)]
        state.spied[seat] = spied
        state.lucky = [0] * n
        state.final, state.end_reason = None, None
        state.turn = state.order.index(pending_seat)
        if request is not None:
            kind = request["kind"]
        elif state.phase == "play":
            kind = PLAY
        elif flames:
            kind = FLAME
        else:  # a waiting seat cannot tell a declined Spyglass from an unused one: take it as unused
            glass = any(CARD_BY_ID[c].name == SPYGLASS for c in state.hoards[pending_seat])
            kind = SPY if glass and not state.spy_used[pending_seat] and state.spy_targets(pending_seat) else ATTACK
        state._pending = Pending(pending_seat, kind)
        self.template = state

    def sample(self, rng: random.Random) -> DragonFlameState:
        state = clone(self.template)
        pool = list(self.pool)
        rng.shuffle(pool)
        for s, size in enumerate(self.sizes):
            if s != self.seat:
                state.hands[s] = [pool.pop() for _ in range(size)]
        for castle_index, index in self.slots:
            castle = state.castles[castle_index]
            _cid, up, by = castle.cards[index]
            castle.cards[index] = (pool.pop(), up, by)
        state.deck = [pool.pop() for _ in range(self.deck_size)]
        state.discard = self.discard_known + pool
        rng.shuffle(state.discard)
        state.rng = random.Random(rng.getrandbits(63))  # never the match's seed
        state.seed = rng.getrandbits(63)
        return state


def determinize(hello: dict[str, Any], observation: dict[str, Any], events: list[dict[str, Any]],
                rng: random.Random) -> DragonFlameState:
    """A full state consistent with `observation` and `events` (all the seat saw), hidden cards
    sampled with `rng`. Raises ValueError when the observation is of a finished game."""
    state = Sampler(hello, observation, events).sample(rng)
    state.events = [Event.from_json(e) for e in events]  # the history the seat saw, as it saw it
    return state
