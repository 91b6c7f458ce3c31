"""What a DragonFlame position is worth to each seat, for bots (the house bots share it).

Pure estimates built on the rules' scoring, over a state as one seat knows it
(`forward.Sampler(...).template`: hidden cards are empty ids there): what a hoard scores now with
its end-of-game Relics, each seat's village glory in prospect, what cards add to a hoard, and the
forecast of an attack round. No I/O; a bot in the sandbox imports it with the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ladder.games.dragonflame.rules.data import (
    CARD_BY_ID,
    CURSE,
    CURSE_BREAKER,
    DRAGONFLAME,
    GLORY,
    KNIGHT,
    KNIGHTS_BANE,
    LUCKY_CHEST,
    PRINCESS,
    RING_OF_FIRE,
)
from ladder.games.dragonflame.rules.forward import Sampler, clone
from ladder.games.dragonflame.rules.scoring import hoard_points

if TYPE_CHECKING:
    from ladder.games.dragonflame.rules.state import DragonFlameState

FIRE_VALUE = 1.5  # one fire token placed, in Glory Points
RING_VALUE = 2.0  # a Ring of Fire: one more token on each Dragonflame still to come
PRINCESS_MORE = 2.0  # the treasure names a Princess will still count
DUMPED = 1.5  # a face-down card of another seat is worse than the average unseen card: Knights get dumped


def hoard_now(cards: list[str]) -> int:
    """What a hoard scores if the game ended now, its end-of-game Relics resolved as end.py does
    (Knight's Bane: two Knights each, Curse Breaker: the Curse, Lucky Chest: one more Chest set)."""
    names = [CARD_BY_ID[c].name for c in cards]
    banes = names.count(KNIGHTS_BANE)
    if banes:
        knights = [c for c in cards if CARD_BY_ID[c].category == KNIGHT][: 2 * banes]
        cards = [c for c in cards if c not in knights]
    if CURSE_BREAKER in names:
        cards = [c for c in cards if CARD_BY_ID[c].category != CURSE]
    return sum(hoard_points(cards, 1 + names.count(LUCKY_CHEST)).values())


def village_outlook(state: DragonFlameState, seat: int) -> float:
    """A seat's village glory if the game ended now, villages not yet destroyed counting by the
    square of how full they are (a full one pays in full, an empty one nothing)."""
    value = 0.0
    for cell in state.grid.cells:
        fire = cell.fire
        if not cell.spaces or seat not in fire:
            continue
        burners = sorted(set(fire), key=lambda s: (-fire.count(s), fire.index(s)))
        rank, awards = burners.index(seat), GLORY[cell.spaces]
        if rank < len(awards):
            value += awards[rank] * (len(fire) / cell.spaces) ** 2
    return value


def card_worth(hoard: list[str], cards: list[str], fire_left: int) -> float:
    """How much `cards` add to the end score of a seat holding `hoard` (rough for the future)."""
    value = float(hoard_now(hoard + cards) - hoard_now(hoard))
    tokens = sum(CARD_BY_ID[c].fire for c in cards if CARD_BY_ID[c].category == DRAGONFLAME)
    rings = sum(CARD_BY_ID[c].name == RING_OF_FIRE for c in hoard + cards)
    flames = sum(CARD_BY_ID[c].category == DRAGONFLAME for c in cards)
    value += FIRE_VALUE * min(fire_left, tokens + rings * flames)
    value += RING_VALUE * sum(CARD_BY_ID[c].name == RING_OF_FIRE for c in cards)
    if not any(CARD_BY_ID[c].category == PRINCESS for c in hoard):
        value += PRINCESS_MORE * min(1, sum(CARD_BY_ID[c].category == PRINCESS for c in cards))
    return value


class Outlook:
    """One seat's view of the position at a decision: the state as it knows it (hidden cards have
    empty ids), the cards it has not seen, and what an unseen card is worth to each seat."""

    def __init__(self, sampler: Sampler) -> None:
        self.seat, self.state, self.pool = sampler.seat, sampler.template, sampler.pool
        players = self.state.num_players
        self.last = sampler.deck_size < self.state.per_round * players  # the banner looted now scores
        self.unknown = []
        for s in range(players):
            hoard, fire = self.state.hoards[s], self.state.fire[s]
            worths = [card_worth(hoard, [c], fire) for c in self.pool]
            self.unknown.append((sum(worths) / len(worths) if worths else 0.0) - DUMPED)

    def castle_worth(self, seat: int, number: int, known: list[str], hidden: int) -> float:
        value = card_worth(self.state.hoards[seat], known, self.state.fire[seat]) + hidden * self.unknown[seat]
        return value + (number if self.last else 0)

    def seen_by(self, seat: int, castle, extra: tuple[str, bool] | None = None) -> tuple[list[str], int]:
        """The cards of a castle `seat` can see and how many it cannot (with our card about to go on)."""
        cards = list(castle.cards)
        if extra is not None:
            cards.append((extra[0], extra[1], self.seat))
        known = [cid for cid, up, by in cards if cid and (up or by == seat or (
            seat == self.seat and cid in self.state.spied[seat]))]
        return known, len(cards) - len(known)

    def attack_worth(self, number: int) -> float:
        """A castle to attack now, to us."""
        return self.castle_worth(self.seat, number, *self.seen_by(self.seat, self.state.castle(number)))

    def forecast(self, card: str, target: int, up: bool) -> float:
        """Our haul in the attack round if `card` goes onto castle `target`: in banner order every
        other seat takes the castle worth most to it from what it can see, we the best for us."""
        left = {c.number: c for c in self.state.castles if c.attacker is None}
        for seat in self.state.order:
            if not left:
                break

            def worth(n: int, seat: int = seat) -> float:
                return self.castle_worth(seat, n, *self.seen_by(seat, left[n], (card, up) if n == target else None))

            best = max(left, key=worth)
            if seat == self.seat:
                return worth(best)
            del left[best]
        return 0.0

    def flame_gain(self, side: str, index: int, tokens: int) -> float:
        """What a Dragonflame along this line adds to our village prospect, less half the best
        other seat's gain."""
        players = self.state.num_players
        state = clone(self.state)  # the fire alone, on a copy: the round's turn is not ours to move
        before = [village_outlook(state, s) for s in range(players)]
        state.grid.burn(self.seat, side, index, tokens, state.fire[self.seat])
        after = [village_outlook(state, s) - before[s] for s in range(players)]
        return after[self.seat] - 0.5 * max(v for s, v in enumerate(after) if s != self.seat)

    def ranked(self, kind: str, request: dict[str, Any]) -> list[tuple[float, dict[str, Any]]]:
        """Every listed decision of `kind` with its worth to us, best first (Spyglass aside)."""
        if kind == "attack":
            scored = [(self.attack_worth(n), {"castle": n}) for n in request["castles"]]
        elif kind == "flame":
            scored = [(self.flame_gain(line["side"], line["index"], request["tokens"]), dict(line))
                      for line in request["lines"]]
        elif not request["castles"]:  # nothing has room: the card worth least to us is discarded
            hoard, fire = self.state.hoards[self.seat], self.state.fire[self.seat]
            scored = [(-card_worth(hoard, [c], fire), {"card": c, "castle": None}) for c in request["cards"]]
        else:
            up = request["face"] == "up"
            scored = [(self.forecast(c, n, up), {"card": c, "castle": n})
                      for c in request["cards"] for n in request["castles"]]
        return sorted(scored, key=lambda pair: -pair[0])  # stable: ties keep the request's order


def spy(observation: dict[str, Any]) -> dict[str, Any]:
    """The Spyglass: the castle with the most face-down cards we have not seen (looking is free)."""
    unseen = {c["number"]: sum("card" not in e for e in c["cards"]) for c in observation["castles"]}
    targets = observation["request"]["castles"]
    return {"castle": max(targets, key=lambda n: unseen.get(n, 0)) if targets else None}
