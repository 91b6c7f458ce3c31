"""What one seat may see of a DragonFlame game.

Public: the village grid and its fire, every castle's face-up cards, every hoard (looted cards are
revealed), banners, fire supplies, the sizes of hands, deck and discard pile. Private: a seat's
own hand, and the face-down castle cards it played or saw with a Spyglass; every other face-down
card shows as {"face": "down", "by": seat}, without its id. The deck's order is never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ladder.games.base import JSON
from ladder.games.dragonflame.rules.data import CARD_BY_ID
from ladder.games.dragonflame.rules.decisions import FLAME, PLAY, SPY

if TYPE_CHECKING:
    from ladder.games.dragonflame.rules.state import DragonFlameState


def observe(state: DragonFlameState, seat: int) -> dict[str, JSON]:
    castles = []
    for castle in state.castles:
        cards = []
        for cid, up, by in castle.cards:
            entry: dict[str, JSON] = {"face": "up" if up else "down", "by": by}
            if up or by == seat or cid in state.spied[seat]:
                entry["card"] = CARD_BY_ID[cid].as_json()
            cards.append(entry)
        castles.append({**castle.label(), "limit": castle.limit, "cards": cards, "attacker": castle.attacker})
    pending = state.pending()
    obs: dict[str, JSON] = {
        "game": "dragonflame",
        "seat": seat,
        "players": state.num_players,
        "round": state.round,
        "phase": state.phase,
        "order": list(state.order),
        "current": None if pending is None else pending.seat,
        "banners": [state.banner_json(s) for s in range(state.num_players)],
        "castles": castles,
        "set_aside": state.set_aside_json(),
        "hand": [CARD_BY_ID[c].as_json() for c in state.hands[seat]],
        "hand_sizes": [len(h) for h in state.hands],
        "played": list(state.played),
        "hoards": [[CARD_BY_ID[c].as_json() for c in h] for h in state.hoards],
        "looted": [None if c is None else c.number for c in state.taken],
        "grid": state.grid.as_json(),
        "fire": list(state.fire),
        "deck": len(state.deck),
        "discard": len(state.discard),
        "spyglass_used": state.spy_used[seat],
        "over": pending is None,
    }
    if pending is None:
        obs["scores"] = state.scores()
        obs["breakdown"] = state.breakdown()
    elif pending.seat == seat:
        obs["request"] = request(state)
    return obs


def request(state: DragonFlameState) -> dict[str, JSON]:
    pending = state.pending()
    seat, kind = pending.seat, pending.kind
    if kind == PLAY:
        return {"kind": PLAY, "face": "up" if state.face_up_next(seat) else "down",
                "cards": list(state.hands[seat]), "castles": [c.number for c in state.castles if c.room]}
    if kind == SPY:
        return {"kind": SPY, "castles": state.spy_targets(seat), "may_skip": True}
    if kind == FLAME:
        card = state.flames[0]
        return {"kind": FLAME, "card": CARD_BY_ID[card].as_json(), "tokens": state.flame_tokens(seat, card),
                "more_flames": len(state.flames) - 1,
                "lines": [{"side": side, "index": index} for side, index in state.grid.lines()]}
    return {"kind": pending.kind, "castles": [c.number for c in state.castles if c.attacker is None]}
