"""The strategic variant: the weakest fighter divides, the strongest chooses first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules.data import token_id, tokens_json
from ladder.games.drachengold.rules.decisions import is_int, token_list
from ladder.games.drachengold.rules.flow import Flow, Request

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.pieces import Slot
    from ladder.games.drachengold.rules.state import DrachengoldState


def strength_order(state: DrachengoldState, slot: Slot, involved: list[int]) -> list[int]:
    """Strongest first: by total attack; on equal totals, whoever first placed an adventurer on this
    dragon, even if that adventurer was recalled since and the seat placed again later."""
    total = dict.fromkeys(involved, 0)
    for s, a, bonus in slot.attackers:
        total[s] += state.advs[s][a].attack + bonus
    return sorted(involved, key=lambda s: (-total[s], slot.first_placed.index(s)))


@dataclass(slots=True)
class Progress:
    """A division under way, all of it public: the shares once divided (None while the divider
    has not divided) and the share each chooser took so far. A determinization (forward.py) builds
    one to join it; play starts without."""

    shares: list[list[int]] | None = None
    taken: dict[int, int] = field(default_factory=dict)  # chooser -> index of the share it took


def divide_and_choose(state: DrachengoldState, slot: Slot, involved: list[int], pool: list[int],
                      progress: Progress | None = None) -> Flow:
    order = strength_order(state, slot, involved)
    divider, choosers = order[-1], order[:-1]
    k = len(involved)
    dragon = slot.dragon["id"]
    p = progress or Progress()
    ctx: dict[str, Any] = {"dragon": dragon, "divider": divider, "choosers": choosers,
                           "tokens": tokens_json(pool), "shares": _shares_json(p.shares),
                           "taken": {str(s): i for s, i in p.taken.items()}}
    state.phase, state.strategic = "strategic", ctx
    if progress is None:
        state.emit("divide", {"dragon": dragon, "divider": divider, "order": choosers, "tokens": ctx["tokens"]})
    if p.shares is None:
        choice = yield Request(divider, "divide", _divide_checker(pool, k), {"shares": k}, _default_division(pool, k))
        p.shares = [token_list(share, "share")[0] for share in choice["shares"]]
        ctx["shares"] = _shares_json(p.shares)
        state.emit("division", {"dragon": dragon, "divider": divider, "shares": ctx["shares"]})
    remaining = [i for i in range(k) if i not in p.taken.values()]
    result: dict[int, list[int]] = {seat: p.shares[i] for seat, i in p.taken.items()}
    for seat in choosers[len(p.taken):]:
        choice = yield Request(seat, "choose", _choose_checker(remaining), {"remaining": list(remaining)},
                               {"share": remaining[0]})
        index = choice["share"]
        remaining.remove(index)
        result[seat] = p.shares[index]
        ctx["taken"][str(seat)] = index
        state.emit("chosen", {"dragon": dragon, "seat": seat, "share": index})
    result[divider] = p.shares[remaining[0]]
    ctx["taken"][str(divider)] = remaining[0]
    state.strategic = None
    return result


def _shares_json(shares: list[list[int]] | None) -> list[list[str]] | None:
    return None if shares is None else [[token_id(t) for t in share] for share in shares]


def _default_division(pool: list[int], k: int) -> dict[str, Any]:
    """Deal the tokens round-robin in id order."""
    ordered = sorted(pool)
    return {"shares": [[token_id(t) for t in ordered[i::k]] for i in range(k)]}


def _divide_checker(pool: list[int], k: int):
    def check(d: dict[str, Any]) -> str | None:
        shares = d.get("shares")
        if not isinstance(shares, list) or len(shares) != k:
            return f"shares must be a list of exactly {k} lists of token ids"
        seen: list[int] = []
        for share in shares:
            parsed, reason = token_list(share, "share")
            if reason:
                return reason
            if not parsed and len(pool) >= k:
                return "every share needs at least one token when there are enough tokens"
            seen.extend(parsed)
        if sorted(seen) != sorted(pool):
            return "the shares must hold every token being shared exactly once"
        return None

    return check


def _choose_checker(remaining: list[int]):
    def check(d: dict[str, Any]) -> str | None:
        share = d.get("share")
        if not is_int(share) or share not in remaining:
            return f"share must be one of the remaining shares {remaining}, not {share!r}"
        return None

    return check
