"""DragonFlame's log entries as sentences: the wording both readers of a replay use (the step list,
steps.py, and the viewer frames, frames.py) and the CLI demo prints (`event_line`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ladder.games.render import Who, compact, decision_line
from ladder.replay.model import Decision, Entry


def card_text(card: dict[str, Any] | None) -> str:
    if not card:
        return "a hidden card"
    if card.get("fire"):
        return f"Dragonflame ({card['fire']} fire)"
    if card.get("value"):
        return f"{card['name']} ({card['value']})"
    return str(card.get("name", "?"))


def _castle(c: dict[str, Any] | None) -> str:
    return f"{c.get('colour')} castle {c.get('number')}" if isinstance(c, dict) else "no castle"


def _banner(b: dict[str, Any] | None) -> str:
    return f"{b.get('colour')} banner {b.get('number')} ({b.get('pattern')})" if isinstance(b, dict) else "?"


def _gives_back(b: dict[str, Any] | None) -> str:
    """Attackers return their banner to the middle; green banners (two players) stay out."""
    if isinstance(b, dict) and b.get("colour") == "green":
        return f"holds its {_banner(b)}"
    return f"returns its {_banner(b)}"


def event_line(entry: dict[str, Any], who: Who) -> str:
    """One log entry as the play loop writes it (an event or a decision) as a sentence."""
    if "kind" in entry:
        return decision_line(entry, who)
    return event_text(entry.get("type"), entry.get("data") or {}, who)


def entry_line(entry: Entry, who: Who) -> str:
    """One entry of a typed log as a sentence (the views')."""
    if isinstance(entry, Decision):
        return decision_line(entry, who)
    return event_text(entry.type, entry.data or {}, who)


def event_text(kind: Any, d: dict[str, Any], who: Who) -> str:
    """An event of type `kind` with data `d` as a sentence."""
    seat = who(d.get("seat"))
    cards = lambda key: ", ".join(card_text(c) for c in d.get(key, [])) or "nothing"  # noqa: E731
    lines: dict[str, Callable[[], str]] = {
        "setup": lambda: f"{d.get('players')} dragons, {d.get('deck')} cards in the deck "
                         f"({d.get('removed')} left in the box); villages: "
                         + ", ".join(c["name"] for row in d.get("grid", []) for c in row),
        "round": lambda: f"Round {d.get('round')}: turn order " + ", ".join(who(s) for s in d.get("order", []))
                         + f"; {d.get('deck')} cards left in the deck",
        "hand": lambda: f"{seat} is dealt {cards('cards')}",
        "play": lambda: (f"{seat} plays {card_text(d.get('card'))} face up on castle {d.get('castle')}"
                         if d.get("face") == "up" else
                         f"{seat} plays a card face down on castle {d.get('castle')}" if d.get("castle") is not None
                         else f"{seat} discards a card face down: no castle has room"),
        "spy": lambda: f"{seat} uses a Spyglass on castle {d.get('castle')}",
        "spied": lambda: f"{seat} sees {cards('cards')}",
        "attack": lambda: f"{seat} {_gives_back(d.get('banner'))} and loots the {_castle(d.get('castle'))}: "
                          + cards("cards"),
        "second_discarded": lambda: f"{seat} may keep only one: a second {card_text(d.get('card'))} is discarded",
        "flame": lambda: f"{seat} breathes {d.get('tokens')} fire from the {d.get('side')} along "
                         f"{'row' if d.get('side') in ('left', 'right') else 'column'} {int(d.get('index', 0)) + 1}: "
                         + (", ".join(f"{p['village']} space {p['space']}" for p in d.get("placed", []))
                            or "nothing burns")
                         + f" ({d.get('fire_left')} fire left)",
        "flame_fizzle": lambda: f"{seat}'s {card_text(d.get('card'))} is discarded: "
                                + ("no fire tokens left" if d.get("reason") == "no_fire" else "nothing left to burn"),
        "castle_discarded": lambda: f"Nobody attacked the {_castle(d.get('castle'))}: {cards('face_up')} and "
                                    f"{d.get('face_down', 0)} face-down cards are discarded",
        "round_end": lambda: "New banners: " + ", ".join(
            f"{who(s)} {_banner(b)}" for s, b in enumerate(d.get("banners", []))),
        "relic": lambda: f"{seat}'s {d.get('relic')} at the end: "
                         + (f"discards {cards('discarded')}" if d.get("discarded") else
                            "a second Chest set scores" if d.get("relic") == "Lucky Chest" else "nothing to do"),
        "game_end": lambda: "The deck is down to one card. Scores: " + ", ".join(
            f"{who(s)} {score}" for s, score in enumerate(d.get("scores", []))),
    }
    make = lines.get(kind)
    return make() if make else f"{kind}: {compact(d)}"
