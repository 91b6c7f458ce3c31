"""The rules of DragonFlame: one game in progress (the ladder's edition, docs/rules.md).

A round: every seat is dealt 3 cards (4 with two players); in banner order each seat plays one
card at a time onto a castle (face up or down as its banner's pattern says) until every hand is
empty; then in banner order each seat attacks a castle, loots its cards and resolves each
Dragonflame at once; the castle nobody attacked is discarded; banners change hands. The game ends
when the deck cannot deal another round (with the edition's counts: one card left).

Cards live in exactly one place: the deck, a hand, a castle, a hoard, the discard pile, or the box
(cards removed by the V and II marks). Fire tokens are in a seat's supply or on a village.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ladder.games.base import JSON, Event, IllegalDecision, Pending, State
from ladder.games.dragonflame.rules import end
from ladder.games.dragonflame.rules.data import (
    BLUE,
    CARD_BY_ID,
    CURSE,
    DRAGONFLAME,
    FIRE_PER_PLAYER,
    GREEN,
    PATTERNS,
    PRINCESS,
    RED,
    RING_OF_FIRE,
    SPYGLASS,
    TWO_PLAYER_REMOVED,
    VILLAGES,
    castle_limit,
    deck_for,
)
from ladder.games.dragonflame.rules.decisions import ATTACK, FLAME, PLAY, SPY, shape_error
from ladder.games.dragonflame.rules.observation import observe
from ladder.games.dragonflame.rules.village import Cell, Grid

if TYPE_CHECKING:
    from ladder.games.base import Game


@dataclass(slots=True)
class Castle:
    colour: str
    number: int
    cards: list[tuple[str, bool, int]] = field(default_factory=list)  # (card id, face up, played by)
    attacker: int | None = None
    limit: int = 0  # the fan icon: how many cards it holds

    def __post_init__(self) -> None:
        self.limit = castle_limit(self.number)

    @property
    def room(self) -> bool:
        return len(self.cards) < self.limit

    def label(self) -> dict[str, JSON]:
        return {"colour": self.colour, "number": self.number}


class DragonFlameState(State):
    def __init__(self, game: Game, options: dict[str, JSON], seed: int, num_players: int,
                 *, deck: Sequence[str] | None = None) -> None:
        self.game, self.options, self.seed, self.num_players = game, options, seed, num_players
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        n = num_players
        self.two = n == 2
        self.per_round = 4 if self.two else 3
        cards = deck_for(n)
        in_play = {c.id for c in cards}
        self.box = sorted((c for c in CARD_BY_ID if c not in in_play), key=lambda c: int(c[1:]))
        if deck is None:
            self.deck = [c.id for c in cards]
            self.rng.shuffle(self.deck)
        else:  # tests and tools: the deck in draw order (the last card is drawn first)
            if sorted(deck) != sorted(in_play):
                raise ValueError(f"a deck must hold exactly the {len(in_play)} cards of a {n}-player game")
            self.deck = list(deck)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.hoards: list[list[str]] = [[] for _ in range(n)]
        self.discard: list[str] = []
        self.fire = [FIRE_PER_PLAYER] * n
        self.grid = self._villages()
        if self.two:
            self.castles = [Castle(BLUE, k) for k in (1, 2, 3)]
            greens = [1, 2]
            self.rng.shuffle(greens)
            self.banners: list[tuple[str, int]] = [(GREEN, g) for g in greens]
            self.set_aside: tuple[str, int] | None = None
        else:
            self.castles = [Castle(BLUE, k) for k in range(1, n + 2)]
            reds = list(range(1, n + 2))
            self.rng.shuffle(reds)
            self.banners = [(RED, r) for r in reds[:n]]
            self.set_aside = (RED, reds[n])
        self.round = 0
        self.phase = "play"
        self.order: list[int] = []
        self.turn = 0  # index into order: who plays (play phase) or attacks (attack phase) next
        self.played = [0] * n  # cards played this round, per seat (the banner pattern's position)
        self.spy_used = [False] * n
        self.spied: list[set[str]] = [set() for _ in range(n)]  # face-down cards each seat has seen
        self.taken: list[Castle | None] = [None] * n  # the castle each seat looted this round
        self.flames: list[str] = []  # Dragonflames the current attacker still has to resolve
        self.lucky = [0] * n  # extra Chest sets scoring (Lucky Chest)
        self.end_reason: str | None = None
        self.final: list[dict[str, JSON]] | None = None
        self._pending: Pending | None = None
        self._emit("setup", players=n, grid=self.grid.as_json(), castles=[c.label() for c in self.castles],
                   banners=[self.banner_json(s) for s in range(n)],
                   set_aside=self.set_aside_json(),
                   deck=len(self.deck), removed=len(self.box), fire=list(self.fire))
        self._start_round()

    def _villages(self) -> Grid:
        kinds = list(VILLAGES)
        if self.two:
            for name in (*TWO_PLAYER_REMOVED, "Field"):
                kinds.remove(next(k for k in kinds if k.name == name))
            self.rng.shuffle(kinds)
            return Grid(2, 3, [Cell(k.name, k.spaces) for k in kinds])
        field_ = next(k for k in kinds if k.name == "Field")
        kinds.remove(field_)
        self.rng.shuffle(kinds)
        kinds.insert(4, field_)  # a Field in the centre, the rest shuffled around it
        return Grid(3, 3, [Cell(k.name, k.spaces) for k in kinds[:9]])

    # ---- queries -------------------------------------------------------------------------------

    def pending(self) -> Pending | None:
        return self._pending

    def observation(self, seat: int) -> dict[str, JSON]:
        return observe(self, seat)

    def banner_json(self, seat: int) -> dict[str, JSON]:
        colour, number = self.banners[seat]
        return {"colour": colour, "number": number, "pattern": PATTERNS[colour][number]}

    def set_aside_json(self) -> dict[str, JSON] | None:
        return None if self.set_aside is None else {"colour": self.set_aside[0], "number": self.set_aside[1]}

    def castle(self, number: int) -> Castle | None:
        return next((c for c in self.castles if c.number == number), None)

    def face_up_next(self, seat: int) -> bool:
        colour, number = self.banners[seat]
        return PATTERNS[colour][number][self.played[seat]] == "U"

    def spy_targets(self, seat: int) -> list[int]:
        """Unattacked castles with face-down cards `seat` did not play and has not seen."""
        return [c.number for c in self.castles if c.attacker is None and any(
            not up and by != seat and cid not in self.spied[seat] for cid, up, by in c.cards)]

    def flame_tokens(self, seat: int, card: str) -> int:
        return CARD_BY_ID[card].fire + sum(CARD_BY_ID[c].name == RING_OF_FIRE for c in self.hoards[seat])

    def cards_accounted(self) -> list[str]:
        """Every card of the game, wherever it is (for conservation checks)."""
        out = self.deck + self.box + self.discard + self.flames
        for hand in self.hands:
            out += hand
        for hoard in self.hoards:
            out += hoard
        for c in self.castles:
            out += [cid for cid, _up, _by in c.cards]
        for c in self.taken:
            if c is not None:
                out += [cid for cid, _up, _by in c.cards]
        return out

    # ---- decisions -----------------------------------------------------------------------------

    def validate(self, seat: int, decision: JSON) -> str | None:
        error = self.turn_error(seat, decision)
        if error is not None:
            return error
        kind = self._pending.kind
        error = shape_error(kind, decision)
        if error is not None:
            return error
        if kind == PLAY:
            card = decision["card"]
            if card not in self.hands[seat]:
                return f"card {card!r} is not in your hand"
            number = decision["castle"]
            if number is None:
                if any(c.room for c in self.castles):
                    return "a card is discarded (castle null) only when no castle has room"
                return None
            castle = self.castle(number)
            if castle is None:
                return f"there is no castle {number} (castles: {[c.number for c in self.castles]})"
            if not castle.room:
                return f"castle {number} is full: it holds {castle.limit} cards"
            return None
        if kind == FLAME:
            if not self.grid.is_line(decision["side"], decision["index"]):
                size = self.grid.rows if decision["side"] in ("left", "right") else self.grid.cols
                return f"flame: index must be 0-{size - 1} for side {decision['side']}"
            return None
        number = decision["castle"]
        if kind == SPY:
            # only a castle the request lists: one with face-down cards this seat has not seen
            # (docs/rules.md, What the ladder fixed: a look that can show nothing is no look)
            targets = self.spy_targets(seat)
            if number is None or number in targets:
                return None
            if self.castle(number) is not None and self.castle(number).attacker is None:
                return f"castle {number} has no face-down card you have not seen: look at one of {targets}"
        castle = self.castle(number)
        if castle is None:
            return f"there is no castle {number} (castles: {[c.number for c in self.castles]})"
        if castle.attacker is not None:
            return f"castle {number} was already attacked this round"
        return None

    def _apply(self, seat: int, decision: JSON) -> None:
        kind = self._pending.kind
        if kind == PLAY:
            self._play(seat, decision["card"], decision["castle"])
        elif kind == SPY:
            self._spy(seat, decision["castle"])
        elif kind == ATTACK:
            self._attack(seat, self.castle(decision["castle"]))
        else:
            self._flame(seat, decision["side"], decision["index"])

    def default_decision(self) -> JSON:
        """Play the first card in hand on the lowest-numbered castle with room; no Spyglass; attack
        the lowest-numbered castle left; burn the first row from the left."""
        if self._pending is None:
            raise IllegalDecision("the game is over")
        seat, kind = self._pending.seat, self._pending.kind
        if kind == PLAY:
            roomy = [c.number for c in self.castles if c.room]
            return {"card": self.hands[seat][0], "castle": roomy[0] if roomy else None}
        if kind == SPY:
            return {"castle": None}
        if kind == ATTACK:
            return {"castle": min(c.number for c in self.castles if c.attacker is None)}
        return {"side": "left", "index": 0}

    # ---- the round -----------------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.phase = "play"
        self.order = sorted(range(self.num_players), key=lambda s: self.banners[s][1])
        self.played = [0] * self.num_players
        self.spy_used = [False] * self.num_players
        self.spied = [set() for _ in range(self.num_players)]
        self.taken = [None] * self.num_players
        for seat in self.order:
            self.hands[seat] = [self.deck.pop() for _ in range(self.per_round)]
        self._emit("round", round=self.round, order=list(self.order), castles=[c.label() for c in self.castles],
                   banners=[self.banner_json(s) for s in range(self.num_players)], deck=len(self.deck))
        for seat in range(self.num_players):
            self._emit("hand", seat=seat, cards=[CARD_BY_ID[c].as_json() for c in self.hands[seat]], to=(seat,))
        self.turn = 0
        self._pending = Pending(self.order[0], PLAY)

    def _play(self, seat: int, card: str, number: int | None) -> None:
        up = self.face_up_next(seat)
        self.hands[seat].remove(card)
        self.played[seat] += 1
        if number is None:
            self.discard.append(card)
            self._emit("play", seat=seat, castle=None, face="down")
        else:
            castle = self.castle(number)
            castle.cards.append((card, up, seat))
            if up:
                self._emit("play", seat=seat, castle=number, face="up", card=CARD_BY_ID[card].as_json())
            else:
                # No private event: the player chose the card, and its observation shows it.
                self._emit("play", seat=seat, castle=number, face="down")
        n = self.num_players
        for step in range(1, n + 1):  # the next seat in banner order that still holds cards
            nxt = self.order[(self.turn + step) % n]
            if self.hands[nxt]:
                self.turn = (self.turn + step) % n
                self._pending = Pending(nxt, PLAY)
                return
        self.phase = "attack"
        self.turn = 0
        self._next_attacker()

    def _next_attacker(self) -> None:
        if self.turn >= self.num_players:
            self._end_round()
            return
        seat = self.order[self.turn]
        has_glass = any(CARD_BY_ID[c].name == SPYGLASS for c in self.hoards[seat])
        if has_glass and not self.spy_used[seat] and self.spy_targets(seat):
            self._pending = Pending(seat, SPY)
        else:
            self._pending = Pending(seat, ATTACK)

    def _spy(self, seat: int, number: int | None) -> None:
        self.spy_used[seat] = True
        if number is not None:
            castle = self.castle(number)
            seen = [cid for cid, up, _by in castle.cards if not up]
            self.spied[seat].update(seen)
            self._emit("spy", seat=seat, castle=number)
            self._emit("spied", seat=seat, castle=number, cards=[CARD_BY_ID[c].as_json() for c in seen], to=(seat,))
        self._pending = Pending(seat, ATTACK)

    def _attack(self, seat: int, castle: Castle) -> None:
        castle.attacker = seat
        self.taken[seat] = castle
        looted = [cid for cid, _up, _by in castle.cards]
        castle.cards = []
        self._emit("attack", seat=seat, castle=castle.label(), banner=self.banner_json(seat),
                   cards=[CARD_BY_ID[c].as_json() for c in looted])
        self.flames = []
        for cid in looted:
            card = CARD_BY_ID[cid]
            if card.category == DRAGONFLAME:
                self.flames.append(cid)
            elif card.category in (PRINCESS, CURSE) and any(
                    CARD_BY_ID[h].category == card.category for h in self.hoards[seat]):
                self.discard.append(cid)  # only one Princess and one Curse per hoard
                self._emit("second_discarded", seat=seat, card=card.as_json())
            else:
                self.hoards[seat].append(cid)
        self._next_flame(seat)

    def _next_flame(self, seat: int) -> None:
        """Ask for the next Dragonflame's line, discarding those that cannot burn anything."""
        while self.flames:
            card = self.flames[0]
            if self.fire[seat] > 0 and self.grid.burnable():
                self._pending = Pending(seat, FLAME)
                return
            self.flames.pop(0)
            self.discard.append(card)
            reason = "no_fire" if self.fire[seat] <= 0 else "nothing_to_burn"
            self._emit("flame_fizzle", seat=seat, card=CARD_BY_ID[card].as_json(), reason=reason)
        self.turn += 1
        self._next_attacker()

    def _flame(self, seat: int, side: str, index: int) -> None:
        card = self.flames.pop(0)
        tokens = self.flame_tokens(seat, card)
        placed, wasted = self.grid.burn(seat, side, index, tokens, self.fire[seat])
        self.fire[seat] -= len(placed)
        self.discard.append(card)
        self._emit("flame", seat=seat, card=CARD_BY_ID[card].as_json(), tokens=tokens, side=side, index=index,
                   placed=placed, wasted=wasted, fire_left=self.fire[seat])
        self._next_flame(seat)

    def _end_round(self) -> None:
        left = [c for c in self.castles if c.attacker is None]
        for castle in left:
            self.discard += [cid for cid, _up, _by in castle.cards]
            self._emit("castle_discarded", castle=castle.label(),
                       face_up=[CARD_BY_ID[cid].as_json() for cid, up, _by in castle.cards if up],
                       face_down=sum(not up for _cid, up, _by in castle.cards))
            castle.cards = []
        looted = sorted((self.taken[s].number, s) for s in range(self.num_players))
        if self.two:  # green banners stay with the players: smallest castle looted takes "1"
            self.banners = [(GREEN, 0)] * 2
            for rank, (_number, seat) in enumerate(looted):
                self.banners[seat] = (GREEN, rank + 1)
            self.castles = [Castle(BLUE, k) for k in (1, 2, 3)]
        else:
            returned = [Castle(*self.banners[s]) for s in range(self.num_players)]
            assert self.set_aside is not None and len(left) == 1
            returned.append(Castle(*self.set_aside))
            self.set_aside = (left[0].colour, left[0].number)
            self.castles = sorted(returned, key=lambda c: c.number)
            self.banners = [(self.taken[s].colour, self.taken[s].number) for s in range(self.num_players)]
        self.taken = [None] * self.num_players
        self._emit("round_end", round=self.round, banners=[self.banner_json(s) for s in range(self.num_players)],
                   deck=len(self.deck))
        if len(self.deck) < self.per_round * self.num_players:
            end.finish(self)
        else:
            self._start_round()

    # ---- results -------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return [row["total"] for row in self.breakdown()]

    def breakdown(self) -> list[dict[str, JSON]]:
        return self.final if self.final is not None else end.breakdown(self)

    def _emit(self, type_: str, to: tuple[int, ...] | None = None, **data: JSON) -> None:
        self.events.append(Event(type_, data, to))
