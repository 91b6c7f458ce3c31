"""What one seat may see (../shared/design/drachengold.md, "What each player may see").

Public: dragons and their tokens, every adventurer, hoard sizes, bag and pile counts, the
negotiation's proposals once the round's proposals are in, card counts. Private to the seat:
its own hoard and hand, and the request it must answer. Others' hoard colours, the bag, the pile
order and others' hands never appear.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules import magic
from ladder.games.drachengold.rules.data import tokens_json

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.flow import Request
    from ladder.games.drachengold.rules.state import DrachengoldState


def _fresh(value: Any) -> Any:
    """A deep copy of a JSON value the state keeps (a phase's context, a request's info): what a
    seat is handed must be its own, so an in-process bot cannot change the game or the log through
    it. Each dict or list is copied in C and only its containers are walked: these values are
    small (a request's info, the strategic split's), where this costs about two thirds of a
    marshal round trip, which pays for its buffer and its table of references on every call."""
    out = value.copy()
    if type(value) is dict:
        for key, item in value.items():
            if type(item) is dict or type(item) is list:
                out[key] = _fresh(item)
    else:
        for index, item in enumerate(value):
            if type(item) is dict or type(item) is list:
                out[index] = _fresh(item)
    return out


def _negotiation(ctx: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a negotiation's context (negotiation.negotiate), made knowing its shape:
    a shallow copy per container instead of a generic walk (half the decisions of a game are a
    negotiation's). A key this does not know is deep-copied, so a new one is safe before it is
    made fast (tests/games/drachengold/rules/test_observation.py checks nothing is shared)."""
    out = ctx.copy()
    for key, value in ctx.items():
        if key in ("involved", "order"):  # seat numbers
            out[key] = value.copy()
        elif key == "tokens":  # {"id", "colour"}: strings
            out[key] = [token.copy() for token in value]
        elif key == "standing":
            out[key] = [{**p, "shares": {s: ids.copy() for s, ids in p["shares"].items()}} for p in value]
        elif key == "last_votes":  # seat -> proposal ids
            out[key] = {s: ids.copy() for s, ids in value.items()}
        elif key == "attack":  # seat -> attack
            out[key] = value.copy()
        elif type(value) is list or type(value) is dict:
            out[key] = _fresh(value)
    return out


def _adventurers(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One seat's adventurers, {id, attack, role, face, dragon} each: copies of the entries each
    keeps current (state.Adventurer, listed per seat in state.entries), instead of a copy changed
    where it is not face up at home; copied by one map in C, not a comprehension's attribute loads."""
    return list(map(dict.copy, entries))


def build_observation(state: DrachengoldState, seat: int, request: Request | None) -> dict[str, Any]:
    obs: dict[str, Any] = {
        "game": "drachengold",
        "seat": seat,
        "players": state.num_players,
        "options": state.options.copy(),
        "turn": state.turn,
        "current": state.current,
        "phase": state.phase,
        "dragons": [state.dragon_json(s) if s else None for s in state.table],
        "adventurers": [_adventurers(entries) for entries in state.entries],
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
