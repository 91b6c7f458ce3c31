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
    from ladder.games.drachengold.rules.state import DrachengoldState


def _fresh(value: Any) -> Any:
    """A deep copy of a JSON value the state keeps (a phase's context, a request's info): what a
    seat is handed must be its own, so an in-process bot cannot change the game or the log through
    it. marshal copies dicts, lists and scalars as they are, about 3 times faster than a Python
    walk and 5 times faster than a JSON round trip (measured: 9 against 26 µs per decision)."""
    return marshal.loads(marshal.dumps(value))


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
        "adventurers": [
            [{"id": a.id, "attack": a.attack, "role": a.role, "face": "up" if a.up else "down", "dragon": a.dragon}
             for a in advs.values()]
            for advs in state.advs
        ],
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
        obs["negotiation"] = _fresh(state.negotiation)
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
