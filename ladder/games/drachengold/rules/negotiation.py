"""Negotiation in rounds (the ladder's replacement for the 60-second sand timer).

Each round: every involved player, in this dragon's proposal order, may put up one complete
allocation (replacing its own standing one) or withdraw it; proposals are simultaneous, so they
become public together. Then every involved player says which standing proposals it accepts
(a proposer always accepts its own); votes are simultaneous too. A proposal every involved
player accepts in the same round is agreed; among several, the first in proposal order wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules.data import token_id, token_index_of_id, tokens_json
from ladder.games.drachengold.rules.decisions import seat_value, token_list
from ladder.games.drachengold.rules.flow import Flow, Request

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.pieces import Slot
    from ladder.games.drachengold.rules.state import DrachengoldState


_SEAT_KEYS = {str(s): s for s in range(10)}  # beyond any seat count; seat_value takes two digits


def parse_shares(value: Any, involved: list[int], pool: list[int], n: int,
                 pool_set: frozenset[int] | None = None) -> tuple[dict | None, str | None]:
    """seat -> tokens from {"<seat>": [token ids]}; every pool token goes to exactly one seat.
    `pool_set`: frozenset(pool), when the caller keeps one (a negotiation parses many proposals).

    A well-formed proposal (every proposal is parsed on its validate) is parsed in one pass over
    its shares, each one seat's own decimal string and a list of token ids: no share lists made
    for every involved seat first, no set of the pool. Anything else goes through the loop of
    _parse_shares, which says why (and parses what it accepts the same)."""
    if type(value) is dict:
        shares: dict[int, list[int]] = {}
        seen: set[int] = set()
        given = 0
        for key, tokens in value.items():
            seat = _SEAT_KEYS.get(key)
            if seat is None or seat in shares or seat not in involved or type(tokens) is not list:
                break
            try:
                parsed = list(map(token_index_of_id, tokens))
            except (KeyError, TypeError):
                break
            seen.update(parsed)
            given += len(parsed)
            shares[seat] = parsed
        else:
            if len(seen) == given and seen == (frozenset(pool) if pool_set is None else pool_set):
                if len(shares) == len(involved) and list(shares) == involved:
                    return shares, None  # a share for each involved seat, in their order: the usual proposal
                return {s: shares.get(s, []) for s in involved}, None
    return _parse_shares(value, involved, pool, n)


def _parse_shares(value: Any, involved: list[int], pool: list[int], n: int) -> tuple[dict | None, str | None]:
    """parse_shares for any value: the reason a value is not a proposal's shares, or the shares."""
    if not isinstance(value, dict):
        return None, 'shares must be an object {"<seat>": [token ids], ...}'
    shares: dict[int, list[int]] = {s: [] for s in involved}
    seen: set[int] = set()
    for key, tokens in value.items():
        # A share's key is almost always a seat's own decimal string: one dict lookup instead of
        # seat_value's call (every proposal is parsed on its validate); any other key goes through it.
        # A seat past the players is not involved either way, so the reason below is the same.
        seat = _SEAT_KEYS.get(key) if type(key) is str else None
        if seat is None:
            seat = seat_value(key, n)
        if seat not in shares:
            return None, f"shares: {key!r} is not an involved seat ({involved})"
        # token_list's work for a well-formed share, without its call and its label (every proposal
        # is parsed on its validate): token_list says why a share is not one.
        # token_indices's one C map, inline: its call per share costs about as much as the map.
        try:
            parsed = list(map(token_index_of_id, tokens)) if isinstance(tokens, list) else None
        except (KeyError, TypeError):
            parsed = None
        if parsed is None:
            return None, token_list(tokens, f"share of seat {seat}")[1]
        size = len(seen)
        seen.update(parsed)
        if len(seen) != size + len(parsed):  # a token named twice, in this share or in two
            if len(set(parsed)) != len(parsed):
                return None, token_list(tokens, f"share of seat {seat}")[1]
            return None, "shares give one token to two players"
        shares[seat].extend(parsed)
    shared = set(pool)
    if seen != shared:  # the differences only for the reason: a proposal is checked on every validate
        missing, extra = shared - seen, seen - shared
        if extra:
            return None, f"shares name tokens that are not being shared: {sorted(token_id(t) for t in extra)}"
        return None, f"every token must go to someone; missing {sorted(token_id(t) for t in missing)}"
    return shares, None


def shares_json(shares: dict[int, list[int]]) -> dict[str, list[str]]:
    # token_id per token in C (a map over the tuple's __getitem__), not a token_ids call per share;
    # a loop, not a comprehension, whose function costs more than its two to six shares (every
    # standing proposal is published each round)
    out = {}
    for s, tokens in sorted(shares.items()):
        out[str(s)] = list(map(token_id, sorted(tokens)))
    return out


def proposal_order(state: DrachengoldState, involved: list[int]) -> list[int]:
    """Rotates from dragon to dragon so nobody always proposes first."""
    k = state.kills % len(involved)
    return involved[k:] + involved[:k]


@dataclass(slots=True)
class Progress:
    """How far a negotiation has come. Play starts one at the first round; a determinization
    (forward.py) builds one to join a negotiation under way at the next seat to decide."""

    round: int = 1
    step: str = "propose"  # or "vote"
    position: int = 0  # the next seat to decide, as an index into the proposal order
    standing: dict[int, dict[str, Any]] = field(default_factory=dict)  # proposer -> proposal, shares parsed
    next_id: int = 1  # proposal ids run p1, p2, ... through the whole negotiation
    votes: dict[int, list[str]] = field(default_factory=dict)  # this round's votes so far
    last_votes: dict[str, list[str]] = field(default_factory=dict)  # the previous round's, as published


def negotiate(state: DrachengoldState, slot: Slot, involved: list[int], pool: list[int],
              progress: Progress | None = None) -> Flow:
    rounds = state.options["negotiation_rounds"]
    order = proposal_order(state, involved)
    dragon = slot.dragon["id"]
    p = progress or Progress()
    ctx: dict[str, Any] = {
        "dragon": dragon, "involved": involved, "order": order, "tokens": tokens_json(pool),
        "rounds": rounds, "round": 0, "step": "propose", "standing": _published(p, order),
        "last_votes": p.last_votes, "attack": _attack_by_seat(state, slot),
    }
    state.phase, state.negotiation = "negotiation", ctx
    if progress is None:
        state.emit("negotiation", {"dragon": dragon, "involved": involved, "order": order,
                                   "tokens": ctx["tokens"], "rounds": rounds})
    # One request per step for the whole negotiation, its seat replaced at each turn to decide (and
    # the vote's proposal ids each round), and the rounds' steps played here, not in generators of
    # their own: a request, a generator or a checker made per decision or per round costs more than
    # the step's own work, and every level of generators is resumed again on every decision.
    # `parsed` holds the decision the proposal check last parsed and its shares: apply validates
    # just before the flow gets a decision, so the flow finds its own there.
    parsed: list[Any] = [None, None]
    propose = Request(0, "propose", _propose_checker(state, involved, pool, parsed), {}, default_of=_no_proposal)
    vote_info: dict[str, Any] = {"proposals": []}
    vote = Request(0, "vote", _vote_checker(vote_info), vote_info, default_of=_no_votes)
    while p.round <= rounds:
        ctx["round"], ctx["step"] = p.round, p.step
        if p.step == "propose":
            # Each seat from `p.position` on may put up a proposal (replacing its own) or withdraw it.
            for seat in order[p.position:]:
                propose.seat = seat
                choice = yield propose
                if choice.get("withdraw"):
                    p.standing.pop(seat, None)
                elif choice.get("shares") is not None:
                    shares = parsed[1] if parsed[0] is choice else parse_shares(
                        choice["shares"], involved, pool, state.num_players)[0]
                    p.standing[seat] = {"id": f"p{p.next_id}", "proposer": seat, "round": p.round, "shares": shares}
                    p.next_id += 1
            ctx["standing"], ctx["step"] = _published(p, order), "vote"
            state.emit("proposals", {"dragon": dragon, "round": p.round, "proposals": ctx["standing"]})
            p.step, p.position = "vote", 0
        # Each seat from `p.position` on says which standing proposals it accepts (its own always).
        ids = vote_info["proposals"] = list(map(_id_of, ctx["standing"]))
        for seat in order[p.position:]:
            vote.seat = seat
            choice = yield vote
            accepted = set(choice["accept"])
            if seat in p.standing:
                accepted.add(p.standing[seat]["id"])
            # in the order of the proposals (one accepted, the usual vote, needs no sort)
            p.votes[seat] = sorted(accepted, key=ids.index) if len(accepted) > 1 else list(accepted)
        ctx["last_votes"] = last_votes = {}
        for s, v in p.votes.items():  # (a loop: a comprehension's function costs more than a round's votes)
            last_votes[str(s)] = v
        state.emit("votes", {"dragon": dragon, "round": p.round, "votes": ctx["last_votes"]})
        for seat in order:
            proposal = p.standing.get(seat)
            if proposal is None:
                continue
            # A loop, not all() over a generator (a frame per proposal, every round): has every
            # involved seat accepted it?
            for voter in involved:
                if proposal["id"] not in p.votes[voter]:
                    break
            else:
                state.emit("agreement", {"dragon": dragon, "round": p.round, "proposal": proposal["id"]})
                state.negotiation = None
                return proposal["shares"]
        p.round, p.step, p.position, p.votes = p.round + 1, "propose", 0, {}
    state.negotiation = None
    return None


_id_of = itemgetter("id")  # a proposal's id, mapped in C


def _no_proposal(info: dict[str, Any]) -> dict[str, Any]:
    """The safe proposal decision: none (the seat's standing proposal, if any, stays)."""
    return {}


def _no_votes(info: dict[str, Any]) -> dict[str, Any]:
    """The safe vote: accept nothing but the seat's own proposal (always accepted)."""
    return {"accept": []}


def _published(p: Progress, order: list[int]) -> list[dict[str, Any]]:
    """The standing proposals in proposal order, as the table sees them (a loop, not a
    comprehension: it costs more than its few proposals, every round)."""
    out = []
    for s in order:
        proposal = p.standing.get(s)
        if proposal is not None:
            out.append(_public(proposal))
    return out


def _public(proposal: dict[str, Any]) -> dict[str, Any]:
    return {**proposal, "shares": shares_json(proposal["shares"])}


def _attack_by_seat(state: DrachengoldState, slot: Slot) -> dict[str, int]:
    totals: dict[str, int] = {}
    for s, a, bonus in slot.attackers:
        totals[str(s)] = totals.get(str(s), 0) + state.advs[s][a].attack + bonus
    return totals


def _propose_checker(state: DrachengoldState, involved: list[int], pool: list[int], parsed: list[Any]):
    """`parsed`: where the check leaves [the decision, its shares] for the flow, which then receives
    that decision (apply checks just before): a list the flow holds, not attributes of the function
    (a dict made for each request, and a generic store each)."""

    pool_set = frozenset(pool)  # the negotiation's: each parse compares the shares with it

    def check(d: dict[str, Any]) -> str | None:
        if "withdraw" in d and d["withdraw"] is not True and d["withdraw"] is not False:
            return "withdraw must be true or false"
        if d.get("withdraw") or d.get("shares") is None:
            return None
        shares, reason = parse_shares(d["shares"], involved, pool, state.num_players, pool_set)
        parsed[0], parsed[1] = d, shares
        return reason

    return check


def _vote_checker(info: dict[str, Any]):
    """Checks a vote against the round's standing proposals, info["proposals"] (read at each check:
    one checker for the negotiation)."""

    def check(d: dict[str, Any]) -> str | None:
        accept = d.get("accept")
        if not isinstance(accept, list):
            return 'a vote is {"accept": [proposal ids]}'
        ids = info["proposals"]
        for pid in accept:
            if pid not in ids:
                return f"{pid!r} is not a standing proposal ({', '.join(ids) or 'none'})"
        return None

    return check
