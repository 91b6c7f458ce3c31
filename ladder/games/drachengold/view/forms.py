"""Drachengold's ten decisions as forms for a person (ladder/games/forms.py says how forms work).

Every choice offered comes from the request or the seat's own observation: the tokens being
split, the standing proposals, the seat's own hoard and hand. A split gives each token to a seat
with one select per token; a market offer is up to `max_offers` boxes of who, what you give and
how many of each colour you want.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.drachengold.rules.data import COLOURS
from ladder.games.forms import (
    CHECKBOXES,
    NUMBER,
    SELECT,
    Choice,
    Field,
    Form,
    FormError,
    Values,
    choices,
    one,
    request_of,
    seat_label,
    some,
    whole,
)

NONE, KEEP, WITHDRAW, SPLIT = "none", "keep", "withdraw", "split"
MAX_WANT = 9  # per colour; the rules allow up to the whole bag, which no table ever trades


def _token(t: Mapping[str, Any]) -> str:
    return f"{t['colour']} ({t['id']})"


def _tokens(tokens: list[Mapping[str, Any]]) -> str:
    return ", ".join(_token(t) for t in tokens) or "nothing"


def _colours(tokens_by_id: Mapping[str, Mapping[str, Any]], ids: list[str]) -> str:
    return ", ".join(tokens_by_id[i]["colour"] if i in tokens_by_id else i for i in ids) or "nothing"


def _me(observation: Mapping[str, Any]) -> int:
    return int(observation.get("seat", -1))


def _hoard(observation: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [t for t in observation.get("hoard") or [] if isinstance(t, dict)]


# --- the forms ---------------------------------------------------------------------------------


def form(observation: Mapping[str, Any]) -> Form:
    request = request_of(observation)
    kind = request["kind"]
    build = _FORMS.get(kind)
    if build is None:
        raise FormError(f"drachengold has no decision {kind!r}")
    return build(observation, request)


def _magic(observation, request) -> Form:
    cards = (Choice(NONE, "play no card"), *choices((c["id"], f"{c['kind'].replace('_', ' ')} ({c['id']})")
                                                    for c in request.get("cards", [])))
    targets = [(NONE, "no target")]
    targets += [(f"recall:{a}", f"Recall: your {a}") for a in request.get("recall", [])]
    targets += [(f"banish:{b['seat']}:{b['adventurer']}", f"Banish: {seat_label(b['seat'], _me(observation))}'s "
                 f"{b['adventurer']}") for b in request.get("banish", [])]
    return Form("magic", "Play a magic card?", (
        Field("card", "The card", choices=cards),
        Field("target", "The target (Recall and Banish only)", SELECT, choices(targets), default=NONE),
    ))


def _attack(observation, request) -> Form:
    return Form("attack", "Send an adventurer against a dragon", (
        Field("adventurer", "The adventurer", choices=choices((a, a) for a in request.get("adventurers", []))),
        Field("dragon", "The dragon", choices=choices((d, d) for d in request.get("dragons", []))),
    ))


def _propose(observation, request) -> Form:
    negotiation = observation.get("negotiation") or {}
    me = _me(observation)
    seats = choices((s, seat_label(s, me)) for s in negotiation.get("involved", []))
    standing = next((p for p in negotiation.get("standing", []) if p.get("proposer") == me), None)
    actions = [(SPLIT, "propose this split")]
    actions += [(KEEP, "keep my standing proposal"), (WITHDRAW, "withdraw my standing proposal")] if standing else \
        [(KEEP, "propose nothing this round")]
    # The safe default: keep what stands; with nothing standing, a split by attack (never all to me).
    start = _owners(standing) if standing else _by_attack(negotiation)
    fields = [Field("action", "What you do", choices=choices(actions), default=KEEP if standing else SPLIT)]
    fields += [Field(f"token:{t['id']}", _token(t), choices=seats, default=str(start.get(t["id"], me)),
                     group="The split: who gets each token")
               for t in negotiation.get("tokens", [])]
    return Form("propose", f"Propose how to split {negotiation.get('dragon', 'the')} hoard "
                f"(round {negotiation.get('round', '?')} of {negotiation.get('rounds', '?')})",
                tuple(fields), notes=_standing(observation))


def _owners(proposal: Mapping[str, Any]) -> dict[str, int]:
    return {tid: int(seat) for seat, ids in (proposal.get("shares") or {}).items() for tid in ids}


def _by_attack(negotiation: Mapping[str, Any]) -> dict[str, int]:
    """Each token to the involved seat furthest below its share by attack (ties: proposal order)."""
    involved = [int(s) for s in negotiation.get("order") or negotiation.get("involved", [])]
    attack = {s: max(0, int((negotiation.get("attack") or {}).get(str(s), 0))) for s in involved}
    total = sum(attack.values()) or 1
    tokens = negotiation.get("tokens", [])
    got = dict.fromkeys(involved, 0)
    out = {}
    for n, t in enumerate(tokens, 1):
        if not involved:
            break
        seat = max(involved, key=lambda s: (n * attack[s] / total - got[s], -involved.index(s)))
        got[seat] += 1
        out[t["id"]] = seat
    return out


def _split_text(observation, p: Mapping[str, Any]) -> str:
    by_id = {t["id"]: t for t in (observation.get("negotiation") or {}).get("tokens", [])}
    me = _me(observation)
    return "; ".join(f"{seat_label(int(s), me)}: {_colours(by_id, ids)}" for s, ids in sorted(
        p.get("shares", {}).items(), key=lambda kv: int(kv[0])))


def _same(p: Mapping[str, Any]) -> tuple:
    return tuple(sorted((str(s), tuple(sorted(ids))) for s, ids in (p.get("shares") or {}).items() if ids))


def _standing(observation) -> tuple[str, ...]:
    me = _me(observation)
    notes, first = [], {}
    for p in (observation.get("negotiation") or {}).get("standing", []):
        key = _same(p)
        twin = f" (the same split as {first[key]})" if key in first else ""
        first.setdefault(key, p["id"])
        notes.append(f"{p['id']} by {seat_label(p['proposer'], me)}: {_split_text(observation, p)}{twin}")
    return tuple(notes)


def _vote(observation, request) -> Form:
    notes = {n.split(" ", 1)[0]: n for n in _standing(observation)}
    asked = list(request.get("proposals", []))
    proposals = choices((pid, notes.get(pid, pid)) for pid in asked)
    order = ", then ".join(asked)
    return Form("vote", "Which proposals do you accept?",
                (Field("accept", "The proposals you accept", CHECKBOXES, proposals),),
                help="A proposal every involved player accepts is agreed; your own counts as accepted. "
                     + (f"If several are agreed, the first in proposal order wins: {order}." if len(asked) > 1 else ""))


def _theft_victim(observation, request) -> Form:
    sizes = request.get("hoard_sizes") or {}
    victims = choices((s, f"{seat_label(s, _me(observation))} ({sizes.get(str(s), '?')} tokens)")
                      for s in request.get("candidates", []))
    return Form("theft_victim", "Your thief steals: from whom?", (Field("victim", "The victim", choices=victims),))


def _theft_pick(observation, request) -> Form:
    tokens = choices((t["id"], _token(t)) for t in request.get("hoard", []))
    return Form("theft_pick", f"Steal one token from {seat_label(request.get('victim'), _me(observation))}",
                (Field("token", "The token", choices=tokens),))


def _market_offer(observation, request) -> Form:
    me = _me(observation)
    players = int(observation.get("players", 0))
    others = choices([(NONE, "no offer"), *((s, seat_label(s, me)) for s in range(players) if s != me)])
    hoard = choices((t["id"], _token(t)) for t in _hoard(observation))
    fields = []
    for i in range(int(request.get("max_offers", 0))):
        group = f"Offer {i + 1}"
        fields.append(Field(f"offer{i}:to", "To", SELECT, others, default=NONE, group=group))
        fields.append(Field(f"offer{i}:give", "You give", CHECKBOXES, hoard, group=group))
        # the colours asked back: small number boxes in a row, the first one saying what the row is
        fields += [Field(f"offer{i}:want:{c}", f"You want back: {c}" if c == COLOURS[0] else c, NUMBER,
                         maximum=MAX_WANT, default="0", group=group) for c in COLOURS]
    return Form("market_offer", "The market: your offers", tuple(fields),
                help="An offer gives tokens of yours and asks colours back; leave \"To\" on \"no offer\" to skip.")


def _market_answer(observation, request) -> Form:
    me = _me(observation)
    hoard = choices((t["id"], _token(t)) for t in _hoard(observation))
    fields = []
    for o in request.get("offers", []):
        want = ", ".join(f"{n} {c}" for c, n in o.get("want", {}).items()) or "nothing"
        group = f"{o['id']} from {seat_label(o['from'], me)}: gives {_tokens(o.get('give', []))}, wants {want}"
        fields.append(Field(f"accept:{o['id']}", "Accept", CHECKBOXES, (Choice("yes", "accept this offer"),),
                            group=group))
        fields.append(Field(f"pay:{o['id']}", "Pay with", CHECKBOXES, hoard, group=group))
    return Form("market_answer", "The market: offers made to you", tuple(fields),
                help="Pay an accepted offer with exactly the colours it wants.")


def _divide(observation, request) -> Form:
    strategic = observation.get("strategic") or {}
    count = int(request.get("shares", 0))
    shares = choices((i, f"share {i + 1}") for i in range(count))
    # dealt round the shares to start with: a division with no empty share, as the rules want
    fields = tuple(Field(f"token:{t['id']}", _token(t), SELECT, shares, default=str(i % max(count, 1)),
                         group="Which share each token goes to")
                   for i, t in enumerate(strategic.get("tokens", [])))
    return Form("divide", f"Divide {strategic.get('dragon', 'the')} hoard into {count} shares", fields,
                help="The others choose first; you keep the share left.")


def _choose(observation, request) -> Form:
    strategic = observation.get("strategic") or {}
    by_id = {t["id"]: t for t in strategic.get("tokens", [])}
    all_shares = strategic.get("shares") or []
    remaining = choices((i, f"share {i + 1}: {_colours(by_id, all_shares[i]) if i < len(all_shares) else '?'}")
                        for i in request.get("remaining", []))
    return Form("choose", "Choose a share", (Field("share", "The share", choices=remaining),))


_FORMS = {"magic": _magic, "attack": _attack, "propose": _propose, "vote": _vote, "theft_victim": _theft_victim,
          "theft_pick": _theft_pick, "market_offer": _market_offer, "market_answer": _market_answer,
          "divide": _divide, "choose": _choose}


# --- reading a submitted form -----------------------------------------------------------------


def read(observation: Mapping[str, Any], values: Values) -> dict[str, Any]:
    f = form(observation)
    kind = f.kind
    if kind == "magic":
        card = one(f, values, "card")
        if card == NONE:
            return {"card": None}
        target = one(f, values, "target")
        decision: dict[str, Any] = {"card": card}
        if target.startswith("recall:"):
            decision["adventurer"] = target.split(":", 1)[1]
        elif target.startswith("banish:"):
            _, seat, adventurer = target.split(":", 2)
            decision.update(seat=int(seat), adventurer=adventurer)
        return decision
    if kind == "attack":
        return {"adventurer": one(f, values, "adventurer"), "dragon": one(f, values, "dragon")}
    if kind == "propose":
        action = one(f, values, "action")
        if action == KEEP:
            return {}
        if action == WITHDRAW:
            return {"withdraw": True}
        shares: dict[str, list[str]] = {}
        for spec in f.fields[1:]:
            shares.setdefault(one(f, values, spec.name), []).append(spec.name.split(":", 1)[1])
        return {"shares": shares}
    if kind == "vote":
        return {"accept": some(f, values, "accept")}
    if kind == "theft_victim":
        return {"victim": int(one(f, values, "victim"))}
    if kind == "theft_pick":
        return {"token": one(f, values, "token")}
    if kind == "market_offer":
        return {"offers": _read_offers(f, values, observation)}
    if kind == "market_answer":
        return {"accept": _read_answers(f, values)}
    if kind == "divide":
        count = int(request_of(observation).get("shares", 0))
        parts: list[list[str]] = [[] for _ in range(count)]
        for spec in f.fields:
            parts[int(one(f, values, spec.name))].append(spec.name.split(":", 1)[1])
        return {"shares": parts}
    return {"share": int(one(f, values, "share"))}  # choose


def _read_offers(f: Form, values: Values, observation) -> list[dict[str, Any]]:
    offers, given = [], set()
    for i in range(int(request_of(observation).get("max_offers", 0))):
        to = one(f, values, f"offer{i}:to")
        give = some(f, values, f"offer{i}:give")
        want = {c: n for c in COLOURS if (n := whole(f, values, f"offer{i}:want:{c}"))}
        if to == NONE:
            if give or want:
                raise FormError(f"offer {i + 1}: choose whom it is to, or clear it")
            continue
        if not give and not want:
            raise FormError(f"offer {i + 1}: give or want something")
        if given.intersection(give):
            raise FormError(f"offer {i + 1}: a token is already given in another offer")
        given.update(give)
        offers.append({"to": int(to), "give": give, "want": want})
    return offers


def _read_answers(f: Form, values: Values) -> list[dict[str, Any]]:
    accepted, used = [], set()
    for spec in f.fields:
        if not spec.name.startswith("accept:"):
            continue
        offer = spec.name.split(":", 1)[1]
        pay = some(f, values, f"pay:{offer}")
        if not some(f, values, spec.name):
            if pay:
                raise FormError(f"{offer}: tick \"accept\" to pay for it")
            continue
        if used.intersection(pay):
            raise FormError(f"{offer}: a token already pays for another offer")
        used.update(pay)
        accepted.append({"offer": offer, "pay": pay})
    return accepted


# --- the values a decision is made from (tests) --------------------------------------------


def fill(observation: Mapping[str, Any], decision: Mapping[str, Any]) -> dict[str, list[str]]:
    f = form(observation)
    kind = f.kind
    if kind == "magic":
        if decision.get("card") is None:
            return {"card": [NONE], "target": [NONE]}
        if "seat" in decision:
            target = f"banish:{decision['seat']}:{decision['adventurer']}"
        elif "adventurer" in decision:
            target = f"recall:{decision['adventurer']}"
        else:
            target = NONE
        return {"card": [decision["card"]], "target": [target]}
    if kind == "attack":
        return {"adventurer": [decision["adventurer"]], "dragon": [decision["dragon"]]}
    if kind == "propose":
        if decision.get("withdraw"):
            return {"action": [WITHDRAW]}
        if decision.get("shares") is None:
            return {"action": [KEEP]}
        values = {"action": [SPLIT]}
        for seat, ids in decision["shares"].items():
            for tid in ids:
                values[f"token:{tid}"] = [str(seat)]
        return values
    if kind == "vote":
        return {"accept": list(decision["accept"])}
    if kind == "theft_victim":
        return {"victim": [str(decision["victim"])]}
    if kind == "theft_pick":
        return {"token": [decision["token"]]}
    if kind == "market_offer":
        values: dict[str, list[str]] = {}
        for i in range(int(request_of(observation).get("max_offers", 0))):
            o = decision["offers"][i] if i < len(decision["offers"]) else None
            values[f"offer{i}:to"] = [NONE if o is None else str(o["to"])]
            values[f"offer{i}:give"] = [] if o is None else list(o.get("give", []))
            for c in COLOURS:
                values[f"offer{i}:want:{c}"] = [str((o or {}).get("want", {}).get(c, 0))]
        return values
    if kind == "market_answer":
        values = {}
        for a in decision["accept"]:
            values[f"accept:{a['offer']}"] = ["yes"]
            values[f"pay:{a['offer']}"] = list(a.get("pay", []))
        return values
    if kind == "divide":
        return {f"token:{tid}": [str(i)] for i, share in enumerate(decision["shares"]) for tid in share}
    return {"share": [str(decision["share"])]}
