"""DragonFlame's replay as readable lines and drawings (pure: no Flask, used by the match page).

`sections` gives the setup, then per round a "cards played" section (drawn with the castles and
their face-up and face-down stacks) and an "attacks" section (drawn with the village grid and its
fire, the hoards and the running scores), then the end with the final breakdown. The replay's
decisions name every face-down card, so a finished match's drawing shows them too, marked as
face down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ladder.games.dragonflame.data import CARD_BY_ID, COLOURS, castle_limit
from ladder.games.dragonflame.scoring import hoard_points
from ladder.games.dragonflame.village import Cell, village_glory
from ladder.games.render import Section, compact

MAX_SECTIONS = 500


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


def event_line(entry: dict[str, Any], who: Callable[[Any], str]) -> str:
    """One log entry (an event or a decision) as a sentence."""
    if "kind" in entry:
        fault = entry.get("fault")
        if fault:
            return (f"⚠ {who(entry.get('seat'))}: {fault.get('status')} on {entry.get('kind')} "
                    f"({fault.get('reason') or 'no reason'}); the default decision was played")
        return f"{who(entry.get('seat'))} decides {entry.get('kind')}: {compact(entry.get('decision'))}"
    kind, d = entry.get("type"), entry.get("data") or {}
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


class Table:
    """The table as the public log shows it, for the drawings."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.grid: list[list[dict[str, Any]]] = []
        self.castles: list[dict[str, Any]] = []
        self.banners: list[dict[str, Any]] = []
        self.hoards: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.fire = [15] * players
        self.lucky = [0] * players
        self.pending_card: dict[int, str] = {}  # seat -> card id of its last play decision

    def castle(self, number: Any) -> dict[str, Any] | None:
        return next((c for c in self.castles if c["number"] == number), None)

    def scores(self) -> list[int]:
        villages = [0] * self.players
        for row in self.grid:
            for cell in row:
                for seat, glory in enumerate(village_glory(Cell(cell["name"], cell["spaces"], cell["fire"]),
                                                           self.players)):
                    villages[seat] += glory
        out = []
        for seat in range(self.players):
            points = hoard_points([c["id"] for c in self.hoards[seat]], 1 + self.lucky[seat])
            banner = self.banners[seat]["number"] if seat < len(self.banners) else 0
            out.append(villages[seat] + banner + sum(points.values()))
        return out

    def drawing(self, who: Callable[[Any], str], with_castles: bool) -> dict[str, Any]:
        return {
            "castles": [dict(c, cards=list(c["cards"])) for c in self.castles] if with_castles else [],
            "banners": [{"who": who(s), **b} for s, b in enumerate(self.banners)],
            "grid": [[{**cell, "fire": [COLOURS[s % len(COLOURS)] for s in cell["fire"]],
                       "full": len(cell["fire"]) >= cell["spaces"] > 0} for cell in row] for row in self.grid],
            "hoards": [{"who": who(s), "colour": COLOURS[s % len(COLOURS)], "fire": self.fire[s],
                        "cards": [card_text(c) for c in h], "categories": [c["category"] for c in h]}
                       for s, h in enumerate(self.hoards)],
            "scores": self.scores(),
        }

    def apply(self, kind: str, d: dict[str, Any]) -> None:
        seat = d.get("seat")
        if kind == "setup":
            self.grid = [[{"name": c["name"], "spaces": c["spaces"], "fire": list(c["fire"])} for c in row]
                         for row in d.get("grid", [])]
            self.banners = list(d.get("banners", []))
        elif kind == "round":
            self.castles = [{**c, "limit": castle_limit(c["number"]), "cards": [], "attacker": None}
                            for c in d.get("castles", [])]
            self.banners = list(d.get("banners", []))
        elif kind == "play" and (castle := self.castle(d.get("castle"))) is not None:
            card = d.get("card")
            hidden = CARD_BY_ID.get(self.pending_card.get(seat, ""))
            castle["cards"].append({"face": d.get("face"), "text": card_text(card or (hidden and hidden.as_json())),
                                    "category": (card or (hidden and hidden.as_json()) or {}).get("category", "")})
        elif kind == "attack" and (castle := self.castle((d.get("castle") or {}).get("number"))) is not None:
            castle["attacker"] = seat
            castle["cards"] = []
            self.hoards[seat] += [c for c in d.get("cards", []) if c.get("category") != "dragonflame"]
        elif kind == "second_discarded":
            gone = (d.get("card") or {}).get("id")
            self.hoards[seat] = [c for c in self.hoards[seat] if c.get("id") != gone]
        elif kind == "flame":
            for p in d.get("placed", []):
                self.grid[p["row"]][p["col"]]["fire"].append(seat)
            self.fire[seat] = d.get("fire_left", self.fire[seat])
        elif kind == "castle_discarded" and (castle := self.castle((d.get("castle") or {}).get("number"))):
            castle["cards"] = []
        elif kind == "round_end":
            self.banners = list(d.get("banners", []))
        elif kind == "relic":
            gone = {c.get("id") for c in d.get("discarded", [])}
            self.hoards[seat] = [c for c in self.hoards[seat] if c.get("id") not in gone]
            self.lucky[seat] += d.get("relic") == "Lucky Chest"


def sections(replay: dict[str, Any], names: Sequence[str]) -> list[Section]:
    def who(seat: Any) -> str:
        try:
            return f"{names[int(seat)]} (seat {int(seat)})"
        except (IndexError, TypeError, ValueError):
            return f"seat {seat}"

    table = Table(int(replay.get("players") or len(names)))
    out: list[Section] = []
    current = Section("Setup")
    round_no, attacking = 0, False

    def close(next_title: str, with_castles: bool) -> Section:
        if current.drawing is None:
            current.drawing = table.drawing(who, with_castles)
        out.append(current)
        return Section(next_title)

    for entry in replay.get("log", []):
        if "kind" in entry:  # a decision: remember each play's card for the face-down stacks
            if entry.get("kind") == "play" and isinstance(entry.get("decision"), dict):
                table.pending_card[entry.get("seat")] = str(entry["decision"].get("card"))
            if entry.get("fault"):
                current.add(event_line(entry, who))
            continue
        if entry.get("to") is not None:
            continue  # private events only repeat, for one seat, what the drawing shows
        kind, d = entry.get("type"), entry.get("data") or {}
        if len(out) >= MAX_SECTIONS:
            current.add("… (the rest is in the replay download)")
            break
        if kind == "round":
            round_no, attacking = d.get("round"), False
            current = close(f"Round {round_no}: cards played", with_castles=False)
        elif kind in ("spy", "attack") and not attacking:
            attacking = True
            current = close(f"Round {round_no}: attacks", with_castles=True)
        elif kind == "game_end":
            current = close("End", with_castles=False)
        table.apply(kind, d)
        current.add(event_line(entry, who))
    current.drawing = table.drawing(who, with_castles=False)
    end = next((e for e in reversed(replay.get("log", [])) if e.get("type") == "game_end"), None)
    if end is not None:
        rows = end["data"].get("breakdown", [])
        current.drawing["breakdown"] = [{"who": who(s), **row} for s, row in enumerate(rows)]
    out.append(current)
    return [s for s in out if s.blocks]
