"""Drachengold at a person's table (ladder/web/play.py): the seat's observation as a viewer frame.

`frame(observation)` is the replay viewer's frame (frames.py says its shape) made from what the
seat sees now, so the page draws the table with the viewer's own script, and marks the dragons and
adventurers the request lets the person pick. `event_line(event, who)` says an event the seat was
told in a plain sentence, the private ones (an offer, a trade, a new card) included. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ladder.games.drachengold.view.knowledge import count_text
from ladder.games.drachengold.view.steps import event_line as public_line

__all__ = ["event_line", "frame", "picks", "targets"]

Who = Callable[[Any], str]


def _counts(tokens: Any) -> dict[str, int]:
    return dict(Counter(t.get("colour", "?") for t in tokens or [] if isinstance(t, dict)))


def _slot(d: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": d.get("id"), "strength": d.get("strength", 0), "tokens": _counts(d.get("tokens")),
            "hidden": d.get("hidden", 0), "total": d.get("total", 0), "slain": False,
            "attackers": [[a.get("seat"), a.get("adventurer"), a.get("attack")] for a in d.get("attackers") or []]}


def _where(a: Mapping[str, Any]) -> str:
    if a.get("dragon"):
        return str(a["dragon"])
    return "down" if a.get("face") == "down" else "home"


def picks(observation: Mapping[str, Any]) -> dict[str, list[Any]]:
    """What the request lets the person pick on the board: dragons, own adventurers, seats."""
    request = observation.get("request") or {}
    kind = request.get("kind")
    if kind == "attack":
        return {"dragons": list(request.get("dragons", [])), "adventurers": list(request.get("adventurers", []))}
    if kind == "theft_victim":
        return {"seats": list(request.get("candidates", []))}
    return {}


def targets(observation: Mapping[str, Any]) -> dict[str, Any]:
    """For the page (ladder/web/static/play.js): which drawn elements a click picks, the form field each
    fills and with what value (board value -> field value), and a hint saying so."""
    me, pick = observation.get("seat"), picks(observation)
    out = []
    if "dragons" in pick:
        out.append({"field": "dragon", "select": ".dragon[data-dragon]", "attr": "data-dragon",
                    "values": {d: d for d in pick["dragons"]}})
        out.append({"field": "adventurer", "select": f'.seat-panel[data-seat="{me}"] .adv[data-adventurer]',
                    "attr": "data-adventurer", "values": {a: a for a in pick["adventurers"]}})
        return {"hint": "Click a dragon to attack it, and one of your adventurers to send.", "targets": out}
    if "seats" in pick:
        out.append({"field": "victim", "select": ".seat-panel[data-seat]", "attr": "data-seat",
                    "values": {str(s): str(s) for s in pick["seats"]}})
        return {"hint": "Click the player your thief robs.", "targets": out}
    return {"hint": "", "targets": []}


def frame(observation: Mapping[str, Any]) -> dict[str, Any]:
    me = int(observation.get("seat", -1))
    players = int(observation.get("players", 0))
    sizes = list(observation.get("hoard_sizes") or [0] * players)
    mine = _counts(observation.get("hoard"))
    hoards = [{"size": sizes[s], "colours": mine if s == me else {}, "unseen": 0 if s == me else sizes[s], "lost": 0}
              for s in range(players)]
    advanced = (observation.get("options") or {}).get("rules", "basic") != "basic"
    hand_sizes = list(observation.get("hand_sizes") or [0] * players)
    hands = [{"size": hand_sizes[s], "cards": [c.get("kind", "?") for c in observation.get("hand") or []]
              if s == me else []} for s in range(players)] if advanced else None
    pick = picks(observation)
    marks = {"seats": {str(me): "you"}, "dragons": {str(d): "attack?" for d in pick.get("dragons", [])}}
    for s in pick.get("seats", []):
        marks["seats"][str(s)] = "rob?"
    board = {
        "slots": [_slot(d) if isinstance(d, dict) else None for d in observation.get("dragons") or []],
        "adventurers": [{a.get("id"): _where(a) for a in seat} for seat in observation.get("adventurers") or []],
        "hoards": hoards, "hands": hands,
        "negotiation": _negotiation(observation.get("negotiation")),
        "division": _division(observation.get("strategic")),
        "market": _market(observation),
        "bag": observation.get("bag"), "slain": len(observation.get("dead") or []),
        "marks": marks,
    }
    current = observation.get("current")
    return {"title": f"Turn {observation.get('turn', '?')}", "seat": current if isinstance(current, int) else None,
            "lines": [], "scores": sizes, "board": board}


def _negotiation(n: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not n:
        return None
    by_id = {t.get("id"): t for t in n.get("tokens") or []}
    proposals = [{"id": p.get("id"), "proposer": p.get("proposer"),
                  "shares": {str(s): _counts(by_id.get(i, {"colour": "?"}) for i in ids)
                             for s, ids in (p.get("shares") or {}).items()}}
                 for p in n.get("standing") or []]
    return {"dragon": n.get("dragon"), "involved": list(n.get("involved") or []), "tokens": _counts(n.get("tokens")),
            "rounds": n.get("rounds"),
            "history": [{"round": n.get("round"), "proposals": proposals, "votes": None}] if proposals else [],
            "outcome": None}


def _division(d: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not d:
        return None
    by_id = {t.get("id"): t for t in d.get("tokens") or []}
    shares = [_counts(by_id.get(i, {"colour": "?"}) for i in share) for share in d.get("shares") or []]
    if not shares:
        shares = [_counts(d.get("tokens"))]  # not divided yet: the whole treasure
    return {"dragon": d.get("dragon"), "divider": d.get("divider"), "shares": shares,
            "chosen": {str(k): v for k, v in (d.get("taken") or {}).items()}}


def _market(observation: Mapping[str, Any]) -> dict[str, Any] | None:
    r = observation.get("market_round")
    if not isinstance(r, dict):
        return None
    offers = [{"from": o.get("from"), "to": o.get("to"), "give": _counts(o.get("give")), "want": o.get("want") or {}}
              for o in (observation.get("request") or {}).get("offers") or []]
    return {"round": r.get("round"), "rounds": r.get("rounds"), "offers": offers, "trades": [],
            "closed": observation.get("market") == "closed"}


def event_line(event: Mapping[str, Any], who: Who) -> str:
    """One event the seat was told, as a sentence (the public ones as the match page says them)."""
    kind, d = event.get("type"), event.get("data") or {}
    if kind == "offer":
        want = count_text(d.get("want") or {}) or "nothing"
        return (f"{who(d.get('from'))} offers {who(d.get('to'))} {count_text(_counts(d.get('give'))) or 'nothing'} "
                f"for {want} (offer {d.get('id')})")
    if kind == "trade_done":
        return (f"Offer {d.get('offer')} accepted: {who(d.get('from'))} gave {count_text(_counts(d.get('give')))}, "
                f"{who(d.get('to'))} paid {count_text(_counts(d.get('pay'))) or 'nothing'}")
    if kind == "trade_skipped":
        return f"Offer {d.get('offer')} is void: its tokens have moved"
    if kind == "card":
        return f"{who(d.get('seat'))} gets a magic object: {str(d.get('kind', '?')).replace('_', ' ')}"
    if kind == "scry":
        return f"{who(d.get('seat'))} sees the next dragons: {', '.join(map(str, d.get('dragons', [])))}"
    return public_line(dict(event), who)
