"""The market: M rounds of private offers between players, opened after the 7th drawn dragon.

An offer gives named tokens from the proposer's hoard and wants colour counts back (the proposer
cannot see the other hoard). The addressee accepts by naming the tokens it pays with. Accepted
offers run in a fixed order (round, proposer's seat, offer number); one whose tokens have moved
meanwhile is skipped and both parties are told. The table only learns that a round passed, that
two players traded and how many tokens changed hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.rules.data import COLOURS, TOKEN_COLOURS, token_id, tokens_json
from ladder.games.drachengold.rules.decisions import is_int, token_list
from ladder.games.drachengold.rules.flow import Flow, Request

if TYPE_CHECKING:
    from ladder.games.drachengold.rules.state import DrachengoldState

MAX_OFFERS = 3


@dataclass(slots=True)
class Progress:
    """How far the market has come. Play starts one at the first round; a determinization
    (forward.py) builds one to join the market under way at the next seat to decide."""

    round: int = 1
    step: str = "offer"  # or "answer"
    seat: int = 0  # the next seat to decide (in seat order)
    offers: list[dict[str, Any]] = field(default_factory=list)  # this round's, in seat and offer order
    accepted: list[tuple[dict[str, Any], list[int]]] = field(default_factory=list)  # (offer, tokens paid)


def run_market(state: DrachengoldState, progress: Progress | None = None) -> Flow:
    rounds = state.options["market_rounds"]
    ctx: dict[str, Any] = {"round": 0, "rounds": rounds, "step": "offer"}
    state.phase, state.market_state, state.market_status = "market", ctx, "open"
    if progress is None:
        state.emit("market_open", {"rounds": rounds})
    p = progress or Progress()
    while p.round <= rounds:
        ctx["round"], ctx["step"] = p.round, p.step
        if p.step == "offer":
            yield from _offers(state, p)
            # Only the parties see an offer (the edition), so the table is not told how many there
            # were; it learns only that none were made, as the market then closes.
            state.emit("market_round", {"round": p.round})
            if not p.offers:
                break
            for o in p.offers:
                state.emit("offer", _offer_json(o), (o["from"], o["to"]))
            ctx["step"], p.step, p.seat = "answer", "answer", 0
        yield from _answers(state, p)
        p.accepted.sort(key=lambda item: p.offers.index(item[0]))
        for offer, pay in p.accepted:
            _execute(state, offer, pay)
        p.round, p.step, p.seat, p.offers, p.accepted = p.round + 1, "offer", 0, [], []
    state.emit("market_close", {})
    state.market_state, state.market_status = None, "closed"


def _offers(state: DrachengoldState, p: Progress) -> Flow:
    """Each seat from `p.seat` on posts up to MAX_OFFERS offers."""
    for seat in range(p.seat, state.num_players):
        choice = yield Request(seat, "market_offer", _offer_checker(state, seat), {"max_offers": MAX_OFFERS},
                               {"offers": []})
        for k, o in enumerate(choice["offers"]):
            p.offers.append({"id": f"o{p.round}.{seat}.{k}", "from": seat, "to": o["to"],
                             "give": list(o.get("give", [])),
                             "want": {c: o["want"][c] for c in sorted(o.get("want") or {}) if o["want"][c]}})


def _answers(state: DrachengoldState, p: Progress) -> Flow:
    """Each seat from `p.seat` on with an offer addressed to it accepts any of them."""
    for seat in range(p.seat, state.num_players):
        mine = [o for o in p.offers if o["to"] == seat]
        if not mine:
            continue
        info = {"offers": [_offer_json(o) for o in mine]}
        choice = yield Request(seat, "market_answer", _answer_checker(state, seat, mine), info, {"accept": []})
        by_id = {o["id"]: o for o in mine}
        for a in choice["accept"]:
            p.accepted.append((by_id[a["offer"]], token_list(a.get("pay", []), "pay")[0]))


def _offer_json(o: dict[str, Any]) -> dict[str, Any]:
    give = [int(t[1:]) for t in o["give"]]
    return {"id": o["id"], "from": o["from"], "to": o["to"], "give": tokens_json(give), "want": o["want"]}


def _execute(state: DrachengoldState, offer: dict[str, Any], pay: list[int]) -> None:
    a, b = offer["from"], offer["to"]
    give = [int(t[1:]) for t in offer["give"]]
    parties = (a, b)
    if not set(give) <= set(state.hoards[a]) or not set(pay) <= set(state.hoards[b]):
        state.emit("trade_skipped", {"offer": offer["id"], "from": a, "to": b}, parties)
        return
    for t in give:
        state.hoards[a].remove(t)
        state.hoards[b].append(t)
    for t in pay:
        state.hoards[b].remove(t)
        state.hoards[a].append(t)
    state.emit("trade", {"from": a, "to": b, "given": len(give), "paid": len(pay)})
    state.emit("trade_done", {"offer": offer["id"], "from": a, "to": b, "give": tokens_json(give),
                              "pay": tokens_json(pay)}, parties)


def _offer_checker(state: DrachengoldState, seat: int):
    own = set(state.hoards[seat])
    n = state.num_players

    def check(d: dict[str, Any]) -> str | None:
        offers = d.get("offers")
        if not isinstance(offers, list) or len(offers) > MAX_OFFERS:
            return f'offers must be a list of at most {MAX_OFFERS} offers {{"to", "give", "want"}}'
        for o in offers:
            if not isinstance(o, dict):
                return "each offer must be an object"
            to = o.get("to")
            if not is_int(to) or not 0 <= to < n or to == seat:
                return f"offer to {to!r}: must be another player's seat"
            give, reason = token_list(o.get("give", []), "give")
            if reason:
                return reason
            if not set(give) <= own:
                return f"give: {sorted(token_id(t) for t in set(give) - own)} are not in your hoard"
            want = o.get("want") or {}
            if not isinstance(want, dict):
                return 'want must be an object {"<colour>": count}'
            for colour, count in want.items():
                if colour not in COLOURS or not is_int(count) or not 0 <= count <= len(TOKEN_COLOURS):
                    return f"want: {colour!r}: {count!r} is not a colour with a count"
            if not give and not any(want.values()):
                return "an offer must give or want something"
        return None

    return check


def _answer_checker(state: DrachengoldState, seat: int, mine: list[dict[str, Any]]):
    own = set(state.hoards[seat])
    by_id = {o["id"]: o for o in mine}

    def check(d: dict[str, Any]) -> str | None:
        accept = d.get("accept")
        if not isinstance(accept, list):
            return 'an answer is {"accept": [{"offer": id, "pay": [token ids]}]}'
        used: set[int] = set()
        for a in accept:
            if not isinstance(a, dict) or not isinstance(a.get("offer"), str) or a["offer"] not in by_id:
                return f"{a!r} does not accept an offer addressed to you"
            pay, reason = token_list(a.get("pay", []), "pay")
            if reason:
                return reason
            if not set(pay) <= own or used.intersection(pay):
                return f"pay for {a['offer']}: tokens must be yours and used once"
            used.update(pay)
            paid: dict[str, int] = {}
            for t in pay:
                paid[TOKEN_COLOURS[t]] = paid.get(TOKEN_COLOURS[t], 0) + 1
            if paid != by_id[a["offer"]]["want"]:
                return f"pay for {a['offer']} must be exactly {by_id[a['offer']]['want']}, not {paid}"
        if len({a["offer"] for a in accept}) != len(accept):
            return "an offer is accepted twice"
        return None

    return check
