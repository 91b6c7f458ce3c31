"""What one seat may see (../shared/design/drachengold.md, "What each player may see").

Public: dragons and their tokens, every adventurer, hoard sizes, bag and pile counts, the
negotiation's proposals once the round's proposals are in, card counts. Private to the seat:
its own hoard and hand, and the request it must answer. Others' hoard colours, the bag, the pile
order and others' hands never appear.
"""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules import magic
from ladder.games.drachengold.rules.data import tokens_json

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.flow import Request
    from ladder.games.drachengold.rules.state import Adventurer, DrachengoldState


def _fresh(value: Any) -> Any:
    """A deep copy of a JSON value the state keeps (a phase's context, a request's info): what a
    seat is handed must be its own, so an in-process bot cannot change the game or the log through
    it. marshal copies dicts, lists and scalars as they are, faster than a generic Python walk or a
    JSON round trip (callgrind: about 61,000 instructions for a negotiation's context, against
    80,000 for a walk; bench/instructions.py counts them)."""
    return marshal.loads(marshal.dumps(value))


def _negotiation(ctx: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a negotiation's context (negotiation.negotiate), made knowing its shape:
    a shallow copy per container instead of a generic walk (about 28,000 instructions against
    marshal's 61,000, and half the decisions of a game are a negotiation's). A key this does not
    know is deep-copied, so a new one is safe before it is made fast
    (tests/games/drachengold/rules/test_observation.py checks nothing is shared)."""
    out = {}
    for key, value in ctx.items():
        if key in ("involved", "order"):  # seat numbers
            out[key] = list(value)
        elif key == "tokens":
            out[key] = [token.copy() for token in value]  # {"id", "colour"}: strings
        elif key == "standing":
            out[key] = [{**p, "shares": {s: list(ids) for s, ids in p["shares"].items()}} for p in value]
        elif key == "last_votes":  # seat -> proposal ids
            out[key] = {s: list(ids) for s, ids in value.items()}
        elif key == "attack":  # seat -> attack
            out[key] = value.copy()
        elif type(value) is list or type(value) is dict:
            out[key] = _fresh(value)
        else:
            out[key] = value
    return out


def _adventurers(advs: dict[str, Adventurer]) -> list[dict[str, Any]]:
    """One seat's adventurers, {id, attack, role, face, dragon} each: a copy of the entry each keeps,
    changed where it is not face up at home (about half the instructions of building each anew)."""
    out = []
    for a in advs.values():
        entry = a.shown.copy()
        if not a.up:
            entry["face"] = "down"
        if a.dragon is not None:
            entry["dragon"] = a.dragon
        out.append(entry)
    return out


def build_observation(state: DrachengoldState, seat: int, request: Request | None) -> dict[str, Any]:
    obs: dict[str, Any] = {
        "game": "drachengold",
        "seat": seat,
        "players": state.num_players,
        "options": dict(state.options),
        "turn": state.turn,
        "current": state.current,
        "phase": state.phase,
        "dragons": [state.dragon_json(s) if s else None for s in state.table],
        "adventurers": [_adventurers(advs) for advs in state.advs],
        "hoard": tokens_json(sorted(state.hoards[seat])),
        "hoard_sizes": [len(h) for h in state.hoards],
        "hand": magic.hand_json(state, seat),
        "hand_sizes": [len(h) for h in state.hands],
        "bag": len(state.bag),
        "pile": len(state.pile),
        "box": len(state.box),
        "dead": list(state.dead),
        "market": state.market_status,
    }
    if state.negotiation is not None:
        obs["negotiation"] = _negotiation(state.negotiation)
    if state.strategic is not None:
        obs["strategic"] = _fresh(state.strategic)
    if state.market_state is not None:
        obs["market_round"] = dict(state.market_state)
    if state.phase == "over":
        obs["hoards"] = [tokens_json(sorted(h)) for h in state.hoards]
        obs["scores"] = state.scores()
    if request is not None and request.seat == seat:
        obs["request"] = {"kind": request.kind, **_fresh(request.info)}
    return obs
