"""Drachengold game state and turn flow.

The flow is one generator: every `yield Request(...)` is a decision the game waits for, and
`apply` sends the (validated) decision back in. Kills, negotiations, thefts and the market are
sub-generators (`yield from`), so the whole game reads top to bottom like the rulebook. A
determinization (forward.py) starts the flow inside a turn from a `flow.Resume`, each phase from
its own progress; normal play never passes one.
"""

from __future__ import annotations

import random
from collections import Counter
from operator import itemgetter
from typing import Any

from ladder.games.base import Event, EventFields, IllegalDecision, Pending, State, competition_ranks
from ladder.games.drachengold.rules import decisions, magic, market, sharing
from ladder.games.drachengold.rules.data import DECK, TOKEN_COLOURS, token_dicts, tokens_json
from ladder.games.drachengold.rules.flow import Flow, Request, Resume
from ladder.games.drachengold.rules.observation import SortedHoards, build_observation
from ladder.games.drachengold.rules.pieces import Adventurer, Slot
from ladder.games.drachengold.rules.scoring import score_hoards

_seat_of = itemgetter(0)  # an attacker's seat: (seat, adventurer id, bonus)


class DrachengoldState(State):
    def __init__(self, game: Any, options: dict[str, Any], seed: int, num_players: int) -> None:
        self.game = game
        self.options = options
        self.seed = seed
        self.num_players = n = num_players
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        self.advanced = options["rules"] != "basic"
        self.turn = 0
        self.current = 0
        self.phase = "turn"
        self.end_reason: str | None = None
        self.kills = 0
        self.negotiation: dict[str, Any] | None = None
        self.strategic: dict[str, Any] | None = None
        self.market_state: dict[str, Any] | None = None
        self.market_status = "closed-pending"
        self.dead: list[str] = []
        self.box: list[int] = []
        self.hoards: list[list[int]] = [[] for _ in range(n)]
        self.sorted_hoards = SortedHoards([None] * n)  # what observations copy of each seat's own hoard
        self.advs = [
            {a["id"]: Adventurer(a["id"], a["attack"], a["role"]) for a in DECK["adventurers"]} for _ in range(n)
        ]
        # Per seat, its adventurers' observation entries in deck order: the very dicts each Adventurer
        # keeps current, so that observation.py copies a seat's with one map in C.
        self.entries = [[a.entry for a in advs.values()] for advs in self.advs]
        self.bag = list(range(len(TOKEN_COLOURS)))
        self.rng.shuffle(self.bag)
        self.pile = [dict(d) for d in DECK["dragons"]]
        self.rng.shuffle(self.pile)
        self.drawn = 0
        self.table: list[Slot | None] = []
        for _ in range(DECK["table_size"]):
            dragon = self.pile.pop(0)
            self.table.append(Slot(dragon, self.draw(dragon["known"])))
        self.emit("setup", {"players": n, "dragons": [self.dragon_json(s) for s in self.table if s]})
        magic.setup(self)
        self._flow = self._play()
        self._request: Request | None = next(self._flow)

    # ---- State interface -------------------------------------------------------------
    def pending(self) -> Pending | None:
        r = self._request
        return None if r is None else Pending(r.seat, r.kind)

    def validate(self, seat: int, decision: Any) -> str | None:
        # The common case inline: turn_error would build a Pending (a frozen dataclass) per call.
        r = self._request
        if r is not None and seat == r.seat and type(decision) is dict:
            return r.check(decision)
        return self.turn_error(seat, decision) or r.check(decision)

    def _apply(self, seat: int, decision: Any) -> None:
        try:
            self._request = self._flow.send(decision)
        except StopIteration:
            self._request = None

    # The play loop validates, then applies what validate accepted, once a decision: straight into
    # the flow, without base's apply_validated calling _apply (a Python call per decision).
    apply_validated = _apply

    def default_decision(self) -> Any:
        r = self._request
        if r is None:
            raise IllegalDecision("the game is over")
        return r.default if r.default_of is None else r.default_of(r.info)

    def observation(self, seat: int) -> dict[str, Any]:
        return build_observation(self, seat, self._request)

    def scores(self) -> list[int]:
        return [b["total"] for b in self.breakdown()]

    def breakdown(self) -> list[dict[str, Any]]:
        hoards = [self.colour_counts(s) for s in range(self.num_players)]
        return score_hoards(hoards, DECK["scoring"][self.options["rules"]], DECK["gems"])

    # ---- helpers used by the phase modules ---------------------------------------------
    def emit(self, type_: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        # Event(type_, data, to) without calling the class (base.EventFields says how and why).
        event = EventFields()
        event.type, event.data, event.to = type_, data, to
        event.__class__ = Event
        self.events.append(event)

    def draw(self, count: int) -> list[int]:
        """Up to `count` tokens from the bag (fewer when it runs short)."""
        count = min(count, len(self.bag))
        drawn = self.bag[len(self.bag) - count :]
        del self.bag[len(self.bag) - count :]
        return drawn

    def colour_counts(self, seat: int) -> dict[str, int]:
        # Counted in C (a hoard ends the game with dozens of tokens); colours in order of first appearance.
        return dict(Counter(map(TOKEN_COLOURS.__getitem__, self.hoards[seat])))

    def dragon_json(self, slot: Slot) -> dict[str, Any]:
        """A fresh {id, strength, known, hidden, tokens, attackers, total}: a copy of the JSON the slot
        keeps while its tokens and attackers stay (shown_dragon)."""
        shown = slot.shown
        if shown is None or shown[0] != slot.tokens or shown[1] != slot.attackers:
            shown = self.shown_dragon(slot)
        out = shown[2].copy()
        out["tokens"] = [t.copy() for t in shown[3]]
        out["attackers"] = [a.copy() for a in shown[4]]
        return out

    def shown_dragon(self, slot: Slot) -> tuple[list[int], list[tuple[int, str, int]], dict[str, Any],
                                                 list[dict[str, str]], list[dict[str, Any]]]:
        """The slot's JSON made anew into slot.shown, for dragon_json and observation.py to copy:
        (tokens, attackers) as they are now, the dragon's dict, its token dicts, its attacker dicts."""
        d, advs = slot.dragon, self.advs
        attackers = [{"seat": s, "adventurer": a, "attack": advs[s][a].attack + b} for s, a, b in slot.attackers]
        total = 0
        for attacker in attackers:  # slot.total, from the attacks just computed
            total += attacker["attack"]
        tokens = token_dicts(slot.tokens)
        shown = slot.shown = (list(slot.tokens), list(slot.attackers), {
            "id": d["id"], "strength": d["strength"], "known": d["known"], "hidden": d["hidden"],
            "tokens": tokens, "attackers": attackers, "total": total}, tokens, attackers)
        return shown

    def slot_of(self, dragon_id: str) -> int | None:
        for i, slot in enumerate(self.table):
            if slot is not None and slot.dragon["id"] == dragon_id:
                return i
        return None

    def available(self, seat: int) -> list[str]:
        return [a.id for a in self.advs[seat].values() if a.up and a.dragon is None]

    def give(self, seat: int, tokens: list[int]) -> None:
        self.hoards[seat].extend(tokens)

    # ---- the flow ---------------------------------------------------------------------
    def _play(self, resume: Resume | None = None) -> Flow:
        """The game from here to its end; `resume` (forward.py only) first finishes the turn under way.
        That turn has waited for a decision, so it was played: no lost-turn count needs restoring.

        A turn without a card to play (every turn under the basic rules) is played here, not in a
        generator of its own: a turn's generator and its attack's cost more to make than the rest of
        the turn, and each level of generators is resumed again on every decision below it (a kill's
        split, its thefts). Its attack request is one for the game, its seat and lists replaced."""
        n = self.num_players
        lost_in_a_row = 0
        info: dict[str, Any] = {"adventurers": [], "dragons": []}
        attack = Request(0, "attack", decisions.attack_checker(info), info, default_of=decisions.attack_default)
        # The dragons' ids on the table, listed again only after a turn that may have changed them:
        # a kill, or a turn not played here (nothing else takes a dragon off or puts one on).
        dragons: list[str] | None = None
        while any(self.table):  # (a Slot is always true)
            seat = self.current
            if resume is not None:
                played = yield from self._resume_turn(seat, resume)
                resume = dragons = None
            elif self.turn >= DECK["turn_cap"]:
                self._end_early("turn_cap")
                break
            else:
                self.turn += 1
                self.phase = "turn"
                # The seat's adventurers at home and face up: a loop here, not available()'s call and
                # comprehension (each costs about as much as the loop, every turn).
                available = []
                for a in self.advs[seat].values():
                    if a.up and a.dragon is None:
                        available.append(a.id)
                if not available:
                    available = self._refresh(seat)
                if available is None:
                    played = False
                elif self.advanced and magic.playable(self, seat):
                    self.emit("turn", {"seat": seat, "turn": self.turn})
                    played = yield from self._magic_turn(seat)
                    dragons = None
                else:
                    self.emit("turn", {"seat": seat, "turn": self.turn})
                    # No card to play (never one under the basic rules), so no effects and no Double
                    # Strike: the attack alone, from the adventurers just listed (nothing has moved since).
                    if dragons is None:
                        dragons = info["dragons"] = [s.dragon["id"] for s in self.table if s]
                    info["adventurers"], attack.seat = available, seat
                    index = self._send(seat, 0, (yield attack), dragons)
                    if index is not None:
                        yield from self._kill(index)
                        dragons = None
                    played = True
            lost_in_a_row = 0 if played else lost_in_a_row + 1
            if lost_in_a_row >= n:
                self._retreat()
                lost_in_a_row = 0
            self.current = (seat + 1) % n
        self._finish()

    def _table_empty(self) -> bool:
        return not any(self.table)  # a Slot is always true

    def _refresh(self, seat: int) -> list[str] | None:
        """A seat with no adventurer at home face up turns those at home face up; the adventurers it
        can send then, or None (the turn lost) if it still has none."""
        flipped = [a.id for a in self.advs[seat].values() if a.dragon is None and not a.up]
        for a in flipped:
            self.advs[seat][a].move(None, True)
        available = None
        if flipped:
            self.emit("refresh", {"seat": seat, "adventurers": flipped})
            available = self.available(seat)  # (only a refresh can have changed it)
        if not available:
            self.emit("turn_lost", {"seat": seat, "turn": self.turn})
            return None
        return available

    def _magic_turn(self, seat: int) -> Flow:
        """A turn with a card to play first (advanced rules)."""
        effects = magic.TurnEffects()
        choice = yield Request(seat, "magic", magic.checker(self, seat), magic.info(self, seat), {"card": None})
        magic.play(self, seat, choice, effects)
        yield from self._attack(seat, effects.might)
        yield from self._double_strike(seat, effects)
        return True

    def _double_strike(self, seat: int, effects: magic.TurnEffects) -> Flow:
        if effects.double_strike and not self._table_empty() and self.available(seat):
            self.emit("double_strike", {"seat": seat})
            yield from self._attack(seat, 0)

    def _resume_turn(self, seat: int, resume: Resume) -> Flow:
        """The rest of the turn a determinization joined: the market, the kill or the attack under
        way, then Double Strike's attack if the card was played and its attack has not come yet."""
        if resume.market is not None:
            yield from market.run_market(self, resume.market)
        elif resume.slot is not None:
            yield from self._kill(resume.slot, resume)
        else:
            yield from self._attack(seat, resume.effects.might if resume.strike == 0 else 0)
        if resume.strike == 0:
            yield from self._double_strike(seat, resume.effects)
        return True

    def _attack(self, seat: int, bonus: int) -> Flow:
        """An attack of a turn with a card (or a determinization's): a request of its own."""
        info = {"adventurers": self.available(seat), "dragons": [s.dragon["id"] for s in self.table if s]}
        choice = yield Request(seat, "attack", decisions.attack_checker(info), info,
                               default_of=decisions.attack_default)
        index = self._send(seat, bonus, choice, info["dragons"])
        if index is not None:
            yield from self._kill(index)

    def _send(self, seat: int, bonus: int, choice: dict[str, Any], dragons: list[str]) -> int | None:
        """Sends the chosen adventurer against the chosen dragon (`dragons`: the ids on the table, as
        the request listed them); the dragon's slot if it dies, else None."""
        # Until the pile or the bag runs out every slot holds a dragon, and then a dragon's place in
        # `dragons` is its slot, found in C; slot_of walks a table with a gap in Python.
        table = self.table
        index = dragons.index(choice["dragon"]) if len(dragons) == len(table) else self.slot_of(choice["dragon"])
        slot = table[index]
        adv = self.advs[seat][choice["adventurer"]]
        adv.send(slot.dragon["id"])  # (it was at home, face up: the request listed it so)
        slot.attackers.append((seat, adv.id, bonus))
        if seat not in slot.first_placed:
            slot.first_placed.append(seat)
        advs, total = self.advs, 0
        for s, a, b in slot.attackers:  # the dragon's total: a loop here, not a method's call each attack
            total += advs[s][a].attack + b
        self.emit(
            "attack",
            {"seat": seat, "adventurer": adv.id, "dragon": adv.dragon, "bonus": bonus, "total": total,
             "strength": slot.dragon["strength"]},
        )
        return index if total >= slot.dragon["strength"] else None

    def _kill(self, index: int, resume: Resume | None = None) -> Flow:
        """A dead dragon; `resume` (forward.py only) joins its split or its thefts under way."""
        slot = self.table[index]
        dragon = slot.dragon
        involved = sorted(set(map(_seat_of, slot.attackers)))  # in C: a comprehension's function costs more
        if resume is None:
            hidden = self.draw(dragon["hidden"])
            slot.tokens.extend(hidden)
            self.emit(
                "kill",
                {"dragon": dragon["id"], "involved": involved, "hidden": tokens_json(hidden),
                 "tokens": tokens_json(slot.tokens), "bag": len(self.bag)},
            )
        if resume is None or resume.theft is None:
            shares = yield from sharing.share_treasure(self, slot, involved, resume)
            magic.wizard_draws(self, slot, shares)
        yield from sharing.thefts(self, slot, involved, resume.theft if resume else None)
        for s, a, _ in slot.attackers:
            self.advs[s][a].move(None, False)
        self.table[index] = None
        self.dead.append(dragon["id"])
        self.kills += 1
        self.phase = "turn"
        if self.bag and self.pile:
            new = self.pile.pop(0)
            self.table[index] = Slot(new, self.draw(new["known"]))
            self.drawn += 1
            self.emit("dragon", {"slot": index, **self.dragon_json(self.table[index]), "bag": len(self.bag)})
            if self.drawn == DECK["market_after"]:
                yield from market.run_market(self)

    def _retreat(self) -> None:
        """Nobody could send an adventurer for a whole round: every adventurer is fighting and no
        dragon dies (3 players' 12 fit under four strong dragons). The printings never end the
        game before its last dragon (docs/rules.md, row 110): the fights are broken off, every
        adventurer goes home face up, the dragons keep their treasure, and play goes on."""
        back = []
        for slot in self.table:
            if slot is None:
                continue
            for s, a, _ in slot.attackers:
                self.advs[s][a].move(None, True)
                back.append({"seat": s, "adventurer": a, "dragon": slot.dragon["id"]})
            slot.attackers, slot.first_placed = [], []
        self.emit("retreat", {"adventurers": back})

    def _end_early(self, reason: str) -> None:
        for slot in self.table:
            if slot is not None:
                self.box.extend(slot.tokens)
                slot.tokens = []
        self.end_reason = reason

    def _finish(self) -> None:
        self.phase = "over"
        self.end_reason = self.end_reason or ("bag_empty" if not self.bag else "pile_empty")
        scores = self.scores()  # once: self.ranks() would score every hoard again
        self.emit(
            "game_over",
            {
                "reason": self.end_reason,
                "hoards": [tokens_json(sorted(h)) for h in self.hoards],
                "scores": scores,
                "ranks": competition_ranks(scores),
            },
        )

