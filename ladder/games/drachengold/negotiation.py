"""Negotiation in rounds (the ladder's replacement for the 60-second sand timer).

Each round: every involved player, in this dragon's proposal order, may put up one complete
allocation (replacing its own standing one) or withdraw it; proposals are simultaneous, so they
become public together. Then every involved player says which standing proposals it accepts
(a proposer always accepts its own); votes are simultaneous too. A proposal every involved
player accepts in the same round is agreed; among several, the first in proposal order wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.data import token_id, tokens_json
from ladder.games.drachengold.decisions import seat_value, token_list
from ladder.games.drachengold.flow import Flow, Request

if TYPE_CHECKING:
    from ladder.games.drachengold.state import DrachengoldState, Slot


def parse_shares(value: Any, involved: list[int], pool: list[int], n: int) -> tuple[dict | None, str | None]:
    """seat -> tokens from {"<seat>": [token ids]}; every pool token goes to exactly one seat."""
    if not isinstance(value, dict):
        return None, 'shares must be an object {"<seat>": [token ids], ...}'
    shares: dict[int, list[int]] = {s: [] for s in involved}
    seen: set[int] = set()
    for key, tokens in value.items():
        seat = seat_value(key, n)
        if seat not in shares:
            return None, f"shares: {key!r} is not an involved seat ({involved})"
        parsed, reason = token_list(tokens, f"share of seat {seat}")
        if reason:
            return None, reason
        if seen.intersection(parsed):
            return None, "shares give one token to two players"
        seen.update(parsed)
        shares[seat].extend(parsed)
    missing, extra = set(pool) - seen, seen - set(pool)
    if extra:
        return None, f"shares name tokens that are not being shared: {sorted(token_id(t) for t in extra)}"
    if missing:
        return None, f"every token must go to someone; missing {sorted(token_id(t) for t in missing)}"
    return shares, None


def shares_json(shares: dict[int, list[int]]) -> dict[str, list[str]]:
    return {str(s): [token_id(t) for t in sorted(tokens)] for s, tokens in sorted(shares.items())}


def proposal_order(state: DrachengoldState, involved: list[int]) -> list[int]:
    """Rotates from dragon to dragon so nobody always proposes first."""
    k = state.kills % len(involved)
    return involved[k:] + involved[:k]


def negotiate(state: DrachengoldState, slot: Slot, involved: list[int], pool: list[int]) -> Flow:
    rounds = state.options["negotiation_rounds"]
    order = proposal_order(state, involved)
    dragon = slot.dragon["id"]
    ctx: dict[str, Any] = {
        "dragon": dragon, "involved": involved, "order": order, "tokens": tokens_json(pool),
        "rounds": rounds, "round": 0, "step": "propose", "standing": [], "last_votes": {},
        "attack": _attack_by_seat(state, slot),
    }
    state.phase, state.negotiation = "negotiation", ctx
    state.emit("negotiation", {"dragon": dragon, "involved": involved, "order": order,
                               "tokens": ctx["tokens"], "rounds": rounds})
    standing: dict[int, dict[str, Any]] = {}
    next_id = 1
    for r in range(1, rounds + 1):
        ctx["round"], ctx["step"] = r, "propose"
        for seat in order:
            check = _propose_checker(state, involved, pool)
            choice = yield Request(seat, "propose", check, {}, {})
            if choice.get("withdraw"):
                standing.pop(seat, None)
            elif choice.get("shares") is not None:
                shares = check.parsed if check.parsed_from is choice else parse_shares(
                    choice["shares"], involved, pool, state.num_players)[0]
                standing[seat] = {"id": f"p{next_id}", "proposer": seat, "round": r, "shares": shares}
                next_id += 1
        public = [_public(standing[s]) for s in order if s in standing]
        ctx["standing"], ctx["step"] = public, "vote"
        state.emit("proposals", {"dragon": dragon, "round": r, "proposals": public})
        ids = [p["id"] for p in public]
        votes: dict[int, list[str]] = {}
        for seat in order:
            choice = yield Request(seat, "vote", _vote_checker(ids), {"proposals": ids}, {"accept": []})
            accepted = set(choice["accept"])
            if seat in standing:
                accepted.add(standing[seat]["id"])
            votes[seat] = sorted(accepted, key=ids.index)
        ctx["last_votes"] = {str(s): v for s, v in votes.items()}
        state.emit("votes", {"dragon": dragon, "round": r, "votes": ctx["last_votes"]})
        for seat in order:
            if seat in standing and all(standing[seat]["id"] in votes[v] for v in involved):
                state.emit("agreement", {"dragon": dragon, "round": r, "proposal": standing[seat]["id"]})
                state.negotiation = None
                return standing[seat]["shares"]
    state.negotiation = None
    return None


def _public(proposal: dict[str, Any]) -> dict[str, Any]:
    return {**proposal, "shares": shares_json(proposal["shares"])}


def _attack_by_seat(state: DrachengoldState, slot: Slot) -> dict[str, int]:
    totals: dict[str, int] = {}
    for s, a, bonus in slot.attackers:
        totals[str(s)] = totals.get(str(s), 0) + state.advs[s][a].attack + bonus
    return totals


def _propose_checker(state: DrachengoldState, involved: list[int], pool: list[int]):
    def check(d: dict[str, Any]) -> str | None:
        if "withdraw" in d and d["withdraw"] is not True and d["withdraw"] is not False:
            return "withdraw must be true or false"
        if d.get("withdraw") or d.get("shares") is None:
            return None
        # Keep what was parsed for the decision the flow then receives (apply checks just before).
        check.parsed, reason = parse_shares(d["shares"], involved, pool, state.num_players)
        check.parsed_from = d
        return reason

    check.parsed, check.parsed_from = None, None
    return check


def _vote_checker(ids: list[str]):
    def check(d: dict[str, Any]) -> str | None:
        accept = d.get("accept")
        if not isinstance(accept, list):
            return 'a vote is {"accept": [proposal ids]}'
        for pid in accept:
            if pid not in ids:
                return f"{pid!r} is not a standing proposal ({', '.join(ids) or 'none'})"
        return None

    return check
