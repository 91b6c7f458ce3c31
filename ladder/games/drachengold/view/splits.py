"""What Drachengold's splits gave each seat, for the scorecard (view/scorecard.py runs the pass
and calls these on the split's events; the formulas: docs/scorecard.md (Drachengold)).

A split under way is a dict: its pool ("tokens"), its involved seats in seat order, each pool
token's ex-post worth to each of them ("value"), each one's utility for the whole pool ("whole")
and its part of the attack ("parts"); a negotiation adds its rounds (standing proposals and votes)
and the agreement, a division its shares and who took which. A share of the pool is a seat's
utility for its tokens over its utility for the whole pool, None when the pool is worth nothing to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ladder.games.drachengold.view.expost import Worths, efficiency
from ladder.games.drachengold.view.negotiations import AttackParts

if TYPE_CHECKING:
    from ladder.games.drachengold.view.scorecard import Card


def open_split(d: Mapping[str, Any], attack: AttackParts, worths: Worths, colours: dict[str, str]) -> dict[str, Any]:
    """A split's pool, its involved seats (in seat order), each pool token's worth to each of them,
    and per seat its utility for the whole pool and its part of the attack."""
    involved = sorted(d.get("involved") or [d["divider"], *d["order"]])
    tokens = d["tokens"]
    value: dict[str, dict[int, int]] = {}
    for t in tokens:
        colours[t["id"]] = t["colour"]
        value[t["id"]] = {s: worths.of(t, s) for s in involved}
    whole = {s: sum(v[s] for v in value.values()) for s in involved}
    return {"involved": involved, "tokens": tokens, "value": value, "parts": attack.parts(d["dragon"], involved),
            "whole": whole, "rounds": [], "proposals": {}, "agreed": None}


def _share(split: Mapping[str, Any], seat: int, ids: Sequence[str]) -> float | None:
    """Seat's share of the pool in a share of these token ids (None when the pool is worth nothing to it)."""
    whole = split["whole"][seat]
    if whole <= 0:
        return None
    value = split["value"]
    return sum(value[t][seat] for t in ids) / whole


def proposals(neg: dict[str, Any], d: Mapping[str, Any], cards: list[Card]) -> None:
    standing = d["proposals"]
    known = neg["proposals"]
    for p in standing:
        if p["id"] not in known:
            known[p["id"]] = p
            cards[p["proposer"]].count("proposals_made", 1)
            cards[p["proposer"]].add("proposals_agreed", 0, 1)
    neg["rounds"].append({"round": d["round"], "standing": standing, "votes": {}})


def votes(neg: dict[str, Any], d: Mapping[str, Any], cards: list[Card]) -> None:
    current = neg["rounds"][-1]
    current["votes"] = votes = {int(k): set(v) for k, v in d["votes"].items()}
    standing = current["standing"]
    for voter, accepted in votes.items():
        others = refused = 0
        for p in standing:
            if p["proposer"] != voter:
                others += 1
                refused += p["id"] not in accepted
        if others:
            cards[voter].add("vote_refusal", refused, others)


def settle(neg: dict[str, Any], agreed: bool, d: Mapping[str, Any], cards: list[Card],
            splits: list[dict[str, Any]]) -> None:
    involved, k = neg["involved"], len(neg["involved"])
    for s in involved:
        cards[s].add("deal_rate", 1 if agreed else 0, 1)
        cards[s].add("treasure_lost", 0 if agreed else 100 * len(d["tokens"]), 1)
        _offer_shares(neg, s, cards[s])
    if not agreed:
        blame = dict.fromkeys(involved, 0)
        for r in neg["rounds"]:
            mine = {p["proposer"] for p in r["standing"]}
            for s in involved:
                others = [p["id"] for p in r["standing"] if p["proposer"] != s]
                if s not in mine or (others and not r["votes"].get(s, set()).intersection(others)):
                    blame[s] += 1
        marks = sum(blame.values())
        if marks:
            for s in involved:
                cards[s].add("blame_share", blame[s], marks)
        return
    pid, rnd = neg["agreed"]
    proposal = neg["proposals"][pid]
    cards[proposal["proposer"]].add("proposals_agreed", 1, 0)
    shares = {s: proposal["shares"].get(str(s), []) for s in involved}
    got = {s: _share(neg, s, shares[s]) for s in involved}
    for s in involved:
        cards[s].sample("rounds_to_agreement", rnd)
        if got[s] is not None:
            cards[s].add("agreed_share", got[s])
            cards[s].add("share_vs_equal", got[s] - 1 / k)
            cards[s].add("share_vs_attack", got[s] - neg["parts"][s])
            exploited = got[s] < 1 / k and any(g is not None and g > 1 / k for o, g in got.items() if o != s)
            cards[s].add("exploited", 1 if exploited else 0, 1)
    known = [g for g in got.values() if g is not None]
    if len(known) == k:
        for s in involved:
            cards[s].add("least_satisfied", min(known))
    _optimality(neg, shares, cards, "pareto_optimal", "nash_efficiency")
    last = neg["rounds"][-1]
    splits.append({"involved": involved, "proposal": proposal, "standing": last["standing"],
                   "votes": last["votes"]})


def _optimality(split: Mapping[str, Any], shares: Mapping[int, Sequence[str]], cards: list[Card],
                pareto_name: str, nash_name: str) -> None:
    """The Pareto and Nash tallies of the allocation `shares` (seat -> token ids) of the split's pool."""
    involved, value = split["involved"], split["value"]
    values = [tuple(value[t["id"]][s] for s in involved) for t in split["tokens"]]
    utilities = [sum(value[t][s] for t in shares[s]) for s in involved]
    found = efficiency(values, len(involved), utilities)
    if found is not None:
        pareto, nash = found
        for s in involved:
            cards[s].add(pareto_name, 1 if pareto else 0, 1)
            if nash is not None:
                cards[s].add(nash_name, nash)


def _offer_shares(neg: dict[str, Any], seat: int, card: Card) -> None:
    """First-offer share and concession: the share its standing proposal gave itself, round by round."""
    own = []
    for r in neg["rounds"]:
        for p in r["standing"]:
            if p["proposer"] == seat:
                own.append((r["round"], _share(neg, seat, p["shares"].get(str(seat), []))))
                break
    if not own or own[0][1] is None:
        return
    card.add("first_offer_share", own[0][1])
    if len(own) >= 2:
        card.add("concession", (own[0][1] - own[-1][1]) / (own[-1][0] - own[0][0]))


def kingmaking(split: Mapping[str, Any], worths: Worths, colours: Mapping[str, str], cards: list[Card]) -> None:
    """Each accepting seat but the proposer: its refusal would have left the next proposal of that
    round every involved seat accepted, or none (the box lid); the split's tokens still held at the
    end by the seat it gave them to are moved as under that outcome and the final hoards re-scored."""
    proposal = split["proposal"]
    given = {t: int(s) for s, ids in proposal["shares"].items() for t in ids}
    held = {t: s for t, s in given.items() if worths.holder.get(t) == s}
    actual = worths.actual_winners()
    standing = split["standing"]
    after = standing[[p["id"] for p in standing].index(proposal["id"]) + 1:]
    alternative = next((p for p in after if all(p["id"] in split["votes"].get(o, ()) for o in split["involved"])),
                       None)
    moves: dict[str, int | None] = dict.fromkeys(held)
    if alternative is not None:
        to = {t: int(o) for o, ids in alternative["shares"].items() for t in ids}
        moves = {t: to[t] for t in held}
    changed = worths.winners(moves, colours) != actual
    for s in split["involved"]:
        if s != proposal["proposer"]:
            cards[s].add("kingmaking", 1 if changed and s not in actual else 0, 1)


def chosen(division: dict[str, Any], d: Mapping[str, Any], cards: list[Card]) -> None:
    seat, taken = d["seat"], division["taken"]
    remaining = [i for i in range(len(division["shares"])) if i not in taken.values()]
    value = division["value"]
    worth = {i: sum(value[t][seat] for t in division["shares"][i]) for i in remaining}
    cards[seat].count("choices_made", 1)
    cards[seat].add("best_choice", 1 if worth[d["share"]] >= max(worth.values()) else 0, 1)
    taken[seat] = d["share"]


def divided(division: dict[str, Any], cards: list[Card]) -> None:
    involved, taken, k = division["involved"], division["taken"], len(division["involved"])
    left = [i for i in range(len(division["shares"])) if i not in taken.values()]
    taken[division["divider"]] = left[0]
    for s in involved:
        got = _share(division, s, division["shares"][taken[s]])
        if got is not None:
            cards[s].add("strategic_share", got)
            cards[s].add("strategic_vs_equal", got - 1 / k)
            cards[s].add("strategic_vs_attack", got - division["parts"][s])
    _optimality(division, {s: division["shares"][taken[s]] for s in involved}, cards,
                "strategic_pareto", "strategic_nash")


def traded(d: Mapping[str, Any], offers: Mapping[str, Any], worths: Worths, cards: list[Card]) -> None:
    a, b = d["from"], d["to"]
    if d["offer"] in offers:
        cards[a].add("market_accepted", 1, 0)
    cards[a].count("market_gain", worths.utility(a, d["pay"]) - worths.utility(a, d["give"]))
    cards[b].count("market_gain", worths.utility(b, d["give"]) - worths.utility(b, d["pay"]))
