"""DragonFlame as replay-viewer frames: the table as one viewer knew it after every event.

`frames(replay, seat, reveal=False)` is pure. It feeds the replay's log to the match page's table
(render.Table, so the page's drawings and the viewer's frames cannot disagree) and keeps, for the
viewer, only what the viewer saw:
- public (seat None): events addressed to everyone; face-down castle cards stay "a hidden card"
  until a dragon loots them, and no hand is shown (only its size, which the table sees);
- seat k: also the events addressed to k (its hand, what its Spyglass saw) and its own play
  decisions, so its own face-down cards show (marked face down);
- reveal: every event and decision (the match is over): every face-down card and every hand.

A frame: {title, round, seat, lines, scores, table} where table is render's drawing
  castles: [{colour, number, limit, attacker, cards: [{face, text, category}]}]
  banners, grid (cells with fire colours), hoards, scores (as the match page draws them)
plus hands: per seat {size, cards: [{text, category}] or null when the viewer did not see it},
deck (cards left), and mark: {castle: number or null, cells: [[row, col]]}, where this step happened.
`hand` and `spied` events (one seat's private news) join the frame before them, so every view steps
through the same public moments.
"""

from __future__ import annotations

import copy
from typing import Any

from ladder.games.dragonflame.render import Table, card_text, event_line

SCORE_LABEL = "glory"
PRIVATE_NEWS = ("hand", "spied")  # added to the previous frame instead of making one


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return SCORE_LABEL


def _card(card: dict[str, Any] | None) -> dict[str, str]:
    return {"text": card_text(card), "category": str((card or {}).get("category", ""))}


def frames(replay: dict[str, Any], seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    names = [str(s.get("bot", f"seat {i}")) for i, s in enumerate(replay.get("seats", []))]
    players = int(replay.get("players") or len(names))

    def who(s: Any) -> str:
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    def sees_seat(s: Any) -> bool:
        return reveal or (seat is not None and s == seat)

    table = Table(players)
    per_round = 4 if players == 2 else 3
    hand_size = [0] * players
    hands: list[list[dict[str, Any]] | None] = [None] * players  # card json per seat, when seen
    out: list[dict[str, Any]] = []
    pending: list[str] = []
    title, round_no, attacking, deck = "Setup", 0, False, None

    def emit(lines: list[str], active: Any, mark: dict[str, Any]) -> None:
        drawing = table.drawing(who, with_castles=True)
        frame = {
            "title": title, "round": round_no, "seat": active if isinstance(active, int) else None,
            "lines": pending + lines, "scores": list(drawing["scores"]),
            "table": {**drawing, "deck": deck, "mark": mark,
                      "hands": [{"size": hand_size[s], "cards": None if hands[s] is None
                                 else [_card(c) for c in hands[s]]} for s in range(players)]},
        }
        pending.clear()
        out.append(copy.deepcopy(frame))  # the table's lists change in place as the log goes on

    for entry in replay.get("log", []):
        if not isinstance(entry, dict):
            continue
        if "decision" in entry:
            s, decision = entry.get("seat"), entry.get("decision")
            # A play decision names the card, face down too: only its player (or everyone, once
            # revealed) may know it, so only then does the table learn it.
            if entry.get("kind") == "play" and isinstance(decision, dict) and sees_seat(s):
                table.pending_card[s] = str(decision.get("card"))
            if entry.get("fault"):
                pending.append(event_line(entry, who))
            continue
        to = entry.get("to")
        if to is not None and not (reveal or (seat is not None and seat in to)):
            continue
        kind, d = entry.get("type"), entry.get("data") or {}
        s = d.get("seat")
        mark: dict[str, Any] = {"castle": None, "cells": []}
        if kind == "round":
            round_no, attacking, title = d.get("round"), False, f"Round {d.get('round')}: cards played"
            hand_size = [per_round] * players
            hands = [[] if sees_seat(k) else None for k in range(players)]
        elif kind in ("spy", "attack") and not attacking:
            attacking, title = True, f"Round {round_no}: attacks"
        elif kind == "game_end":
            title = "End"
        if "deck" in d and kind in ("setup", "round", "round_end"):
            deck = d["deck"]
        if kind == "hand" and isinstance(s, int) and 0 <= s < players:
            hands[s] = list(d.get("cards", []))
        elif kind == "play" and isinstance(s, int) and 0 <= s < players:
            hand_size[s] = max(0, hand_size[s] - 1)
            played = (d.get("card") or {}).get("id") or table.pending_card.get(s)
            if hands[s] is not None:
                gone = next((i for i, c in enumerate(hands[s]) if c.get("id") == played), None)
                if gone is not None:
                    hands[s].pop(gone)
            mark["castle"] = d.get("castle")
        elif kind in ("spy", "attack", "castle_discarded"):
            castle = d.get("castle")
            mark["castle"] = castle.get("number") if isinstance(castle, dict) else castle
        elif kind == "flame":
            mark["cells"] = [[p.get("row"), p.get("col")] for p in d.get("placed", [])]
        table.apply(kind, d)
        if kind == "play" and d.get("face") != "up" and (castle := table.castle(d.get("castle"))):
            castle["cards"][-1]["by"] = s  # whose card it is: public, and the page draws it
        if kind == "spied" and (castle := table.castle(d.get("castle"))) is not None:
            # The Spyglass showed the castle's face-down cards in stack order.
            seen = iter(d.get("cards", []))
            for placed in castle["cards"]:
                if placed.get("face") == "down" and (card := next(seen, None)) is not None:
                    placed.update(text=card_text(card), category=card.get("category", ""), spied=True)
        line = event_line(entry, who)
        if kind in PRIVATE_NEWS and out:
            drawing = table.drawing(who, with_castles=True)
            out[-1]["lines"].append(line)
            out[-1]["table"]["castles"] = copy.deepcopy(drawing["castles"])
            out[-1]["table"]["hands"] = [{"size": hand_size[k], "cards": None if hands[k] is None
                                          else [_card(c) for c in hands[k]]} for k in range(players)]
            continue
        if kind == "game_end" and isinstance(d.get("scores"), list):
            emit([line], None, mark)
            out[-1]["scores"] = [int(x) for x in d["scores"]]  # the game's own count, relics included
            out[-1]["table"]["breakdown"] = [{"who": who(k), **row} for k, row in enumerate(d.get("breakdown", []))]
            continue
        emit([line], s, mark)
    if pending and out:
        out[-1]["lines"] += pending
    return out

