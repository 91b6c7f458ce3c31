"""Magic Object cards (advanced rules): the ladder's house set of 24, 3 of each kind."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules.data import DECK, TOKEN_COLOURS, tokens_json
from ladder.games.drachengold.rules.decisions import is_int

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.pieces import Slot
    from ladder.games.drachengold.rules.state import DrachengoldState

KINDS: tuple[str, ...] = tuple(DECK["magic"]["kinds"])
NEEDS_ADVENTURER = {"recall", "banish"}


@dataclass(slots=True)
class TurnEffects:
    might: int = 0
    double_strike: bool = False


def card_id(index: int) -> str:
    return f"m{index}"


def setup(state: DrachengoldState) -> None:
    state.card_kinds = [k for k in KINDS for _ in range(DECK["magic"]["copies"])] if state.advanced else []
    state.magic_deck = list(range(len(state.card_kinds)))
    state.rng.shuffle(state.magic_deck)
    state.magic_discard = []
    state.hands = [[] for _ in range(state.num_players)]
    if state.advanced:
        for seat in range(state.num_players):
            draw_card(state, seat, "setup")


def draw_card(state: DrachengoldState, seat: int, why: str) -> None:
    if not state.magic_deck and state.magic_discard:
        state.magic_deck = state.magic_discard
        state.magic_discard = []
        state.rng.shuffle(state.magic_deck)
        state.emit("magic_reshuffle", {"cards": len(state.magic_deck)})
    if not state.magic_deck:
        state.emit("magic_empty", {"seat": seat})
        return
    card = state.magic_deck.pop()
    state.hands[seat].append(card)
    state.emit("card_drawn", {"seat": seat, "why": why, "hand": len(state.hands[seat])})
    state.emit("card", {"seat": seat, "card": card_id(card), "kind": state.card_kinds[card]}, (seat,))


def hand_json(state: DrachengoldState, seat: int) -> list[dict[str, str]]:
    return [{"id": card_id(c), "kind": state.card_kinds[c]} for c in state.hands[seat]]


def playable(state: DrachengoldState, seat: int) -> bool:
    return any(state.card_kinds[c] != "ward" for c in state.hands[seat])


def _attacking(state: DrachengoldState, seat: int | None = None) -> list[tuple[int, str]]:
    out = []
    for slot in state.table:
        if slot is not None:
            out.extend((s, a) for s, a, _ in slot.attackers if seat is None or s == seat)
    return out


def info(state: DrachengoldState, seat: int) -> dict[str, Any]:
    return {
        "cards": [c for c in hand_json(state, seat) if c["kind"] != "ward"],
        "recall": [a for _, a in _attacking(state, seat)],
        "banish": [{"seat": s, "adventurer": a} for s, a in _attacking(state)],
    }


def _find_card(state: DrachengoldState, seat: int, value: Any) -> int | None:
    for c in state.hands[seat]:
        if card_id(c) == value:
            return c
    return None


def checker(state: DrachengoldState, seat: int):
    def check(d: dict[str, Any]) -> str | None:
        if "card" not in d:  # the schema requires it: "no card" is said as {"card": null}, never by leaving it out
            return 'a magic decision needs "card": one of request.cards\' ids, or null to play none'
        value = d["card"]
        if value is None:
            return None
        card = _find_card(state, seat, value)
        if card is None:
            return f"card {value!r} is not in your hand"
        kind = state.card_kinds[card]
        if kind == "ward":
            return "Ward is not played: it triggers by itself when a thief would steal from you"
        if kind == "recall" and (seat, d.get("adventurer")) not in _attacking(state, seat):
            return f"Recall needs one of your adventurers that is attacking a dragon, not {d.get('adventurer')!r}"
        if kind == "banish":
            target = (d.get("seat"), d.get("adventurer"))
            if not is_int(target[0]) or target not in _attacking(state):
                return f"Banish needs an attacking adventurer as seat and adventurer, not {target!r}"
        return None

    return check


def _remove_attacker(state: DrachengoldState, seat: int, adv: str) -> str:
    for slot in state.table:
        if slot is None:
            continue
        for entry in slot.attackers:
            if entry[0] == seat and entry[1] == adv:
                slot.attackers.remove(entry)
                return slot.dragon["id"]
    raise AssertionError("validated attacker not found")


def play(state: DrachengoldState, seat: int, choice: dict[str, Any], effects: TurnEffects) -> None:
    card = _find_card(state, seat, choice.get("card"))
    if card is None:
        return
    kind = state.card_kinds[card]
    state.hands[seat].remove(card)
    state.magic_discard.append(card)
    public: dict[str, Any] = {"seat": seat, "card": card_id(card), "kind": kind}
    if kind == "recall":
        adv = state.advs[seat][choice["adventurer"]]
        public.update(adventurer=adv.id, dragon=_remove_attacker(state, seat, adv.id))
        adv.move(None, True)
    elif kind == "banish":
        owner = choice["seat"]
        adv = state.advs[owner][choice["adventurer"]]
        public.update(target=owner, adventurer=adv.id, dragon=_remove_attacker(state, owner, adv.id))
        adv.move(None, False)
    elif kind == "might":
        effects.might = DECK["might_bonus"]
    elif kind == "second_wind":
        woken = [a.id for a in state.advs[seat].values() if a.dragon is None and not a.up]
        for a in woken:
            state.advs[seat][a].move(None, True)
        public["adventurers"] = woken
    elif kind == "double_strike":
        effects.double_strike = True
    elif kind == "scry":
        seen = [d["id"] for d in state.pile[: DECK["scry_cards"]]]
        state.emit("scry", {"seat": seat, "dragons": seen}, (seat,))
    elif kind == "windfall":
        tokens = state.draw(DECK["windfall_tokens"])
        state.give(seat, tokens)
        public["count"] = len(tokens)
        state.emit(
            "windfall", {"seat": seat, "tokens": tokens_json(tokens)}, (seat,)
        )
    state.emit("card_played", public)


def wizard_draws(state: DrachengoldState, slot: Slot, shares: dict[int, list[int]]) -> None:
    """Advanced rule: a player whose wizard fought draws a card per red token in their share."""
    if not state.advanced:
        return
    wizards = {s for s, a, _ in slot.attackers if a == "wizard"}
    for seat in sorted(shares):
        if seat in wizards:
            for t in shares[seat]:
                if TOKEN_COLOURS[t] == "red":
                    draw_card(state, seat, "wizard")


def take_ward(state: DrachengoldState, seat: int) -> bool:
    for c in state.hands[seat]:
        if state.card_kinds[c] == "ward":
            state.hands[seat].remove(c)
            state.magic_discard.append(c)
            return True
    return False
