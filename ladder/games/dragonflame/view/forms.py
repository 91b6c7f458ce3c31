"""DragonFlame's four decisions as forms for a person (ladder/games/forms.py says how forms work)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.dragonflame.rules.decisions import ATTACK, FLAME, PLAY, SPY
from ladder.games.forms import Choice, Field, Form, FormError, Values, choices, one, request_of

NONE = "none"


def _card(card: Mapping[str, Any]) -> str:
    fire = f", fire {card['fire']}" if card.get("fire") is not None else ""
    return f"{card.get('name', card.get('id'))} ({card.get('id')}{fire})"


def _castle(observation: Mapping[str, Any], number: Any) -> str:
    castles = observation.get("castles") or []
    if isinstance(number, int) and 1 <= number <= len(castles):
        c = castles[number - 1]
        cards = len(c.get("cards") or [])
        return f"castle {number}: {c.get('colour')} {c.get('number')}, {cards}/{c.get('limit')} cards"
    return f"castle {number}"


def _castles(observation: Mapping[str, Any], numbers: list[Any]) -> tuple[Choice, ...]:
    return choices((n, _castle(observation, n)) for n in numbers)


def form(observation: Mapping[str, Any]) -> Form:
    request = request_of(observation)
    kind = request["kind"]
    if kind == PLAY:
        hand = {c["id"]: c for c in observation.get("hand") or [] if isinstance(c, dict)}
        cards = choices((cid, _card(hand.get(cid, {"id": cid}))) for cid in request.get("cards", []))
        castles = _castles(observation, request.get("castles", []))
        if not castles:
            castles = (Choice(NONE, "no castle has room: discard it"),)
        face = request.get("face", "up")
        return Form(kind, f"Play a card face {face}", (Field("card", "The card", choices=cards),
                                                        Field("castle", "The castle", choices=castles)))
    if kind == SPY:
        castles = _castles(observation, request.get("castles", []))
        if request.get("may_skip"):
            castles = (Choice(NONE, "do not look"), *castles)
        return Form(kind, "Spyglass: look at a castle's face-down cards",
                    (Field("castle", "The castle", choices=castles),))
    if kind == ATTACK:
        return Form(kind, "Attack a castle",
                    (Field("castle", "The castle", choices=_castles(observation, request.get("castles", []))),))
    if kind == FLAME:
        lines = choices((f"{line['side']}:{line['index']}", f"from the {line['side']}, line {line['index']}")
                        for line in request.get("lines", []))
        card = request.get("card") or {}
        return Form(kind, f"Send the flames of {_card(card)}", (Field("line", "The line", choices=lines),),
                    help=f"{request.get('tokens', 0)} fire tokens to place.")
    raise FormError(f"dragonflame has no decision {kind!r}")


def read(observation: Mapping[str, Any], values: Values) -> dict[str, Any]:
    the_form = form(observation)
    kind = the_form.kind
    if kind == FLAME:
        side, index = one(the_form, values, "line").split(":")
        return {"side": side, "index": int(index)}
    castle = one(the_form, values, "castle")
    number = None if castle == NONE else int(castle)
    if kind == PLAY:
        return {"card": one(the_form, values, "card"), "castle": number}
    return {"castle": number}


def fill(observation: Mapping[str, Any], decision: Mapping[str, Any]) -> dict[str, list[str]]:
    kind = request_of(observation)["kind"]
    if kind == FLAME:
        return {"line": [f"{decision['side']}:{decision['index']}"]}
    castle = decision.get("castle")
    values = {"castle": [NONE if castle is None else str(castle)]}
    if kind == PLAY:
        values["card"] = [decision["card"]]
    return values
