"""How Drachengold reads (ladder/games/render.py): events as sentences, and the replay as steps.

The log is cut into sections (the setup, then one per turn, the market, the end), drawn from the
one pass over the replay (timeline.py), which sees every event (the match is over) and knows each
token's colour once the log has shown it (a proposal names tokens by id only). The negotiation
(proposals, votes, agreement) and the strategic split are collected as a transcript under their
turn. Drachengold draws no picture: its sections carry lines only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ladder.games.drachengold.view.timeline import walk
from ladder.games.render import MAX_SECTIONS, Section, Who, compact, decision_line, fault_line, seat_namer
from ladder.replay.model import Replay


def event_line(entry: dict[str, Any], who: Who) -> str:
    """One log entry as a sentence: the CLI demo's line, the same words as the match page."""
    if "kind" in entry:
        return decision_line(entry, who)
    kind, data = entry.get("type", "?"), entry.get("data", {})
    colours = _colour_map(data, {})
    if kind == "turn":
        return f"Turn {data.get('turn')}: {who(data.get('seat'))}"
    if kind in TRANSCRIPT_EVENTS:
        return "; ".join(_transcript_line(kind, data, who, colours))
    return _line(kind, data, who, colours) or f"{kind}: {compact(data)}"


def _tokens(tokens: Iterable[Any], colours: dict[str, str]) -> str:
    # a token named by id alone, whose colour this log has not shown, is counted as a "token"
    counts = Counter(colours.get(t, "") if isinstance(t, str) else t.get("colour", "") for t in tokens)
    if not counts:
        return "nothing"
    return ", ".join(f"{n} {colour or ('token' if n == 1 else 'tokens')}"
                     for colour, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _colour_map(value: Any, out: dict[str, str]) -> dict[str, str]:
    """Every token id in `value` with its colour: one entry's own, for `event_line` (the steps take the pass's)."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str) and isinstance(value.get("colour"), str):
            out[value["id"]] = value["colour"]
        for v in value.values():
            _colour_map(v, out)
    elif isinstance(value, list):
        for v in value:
            _colour_map(v, out)
    return out


def _shares(shares: dict[str, Any], who: Who, colours: dict[str, str]) -> str:
    return "; ".join(f"{who(seat)} gets {_tokens(tokens, colours)}" for seat, tokens in shares.items())


def _line(kind: str, d: dict[str, Any], who: Who, colours: dict[str, str]) -> str | None:
    """One event as a sentence; None for events that only open a section or are noise."""
    if kind in QUIET:
        return None
    make = LINES.get(kind)
    return make(d, who, colours) if make else f"{kind}: {compact(d)}"


# turn opens a section; the rest repeat a public line privately
QUIET = ("turn", "offer", "trade_done", "trade_skipped", "card", "scry")

# Each event as the step list says it: make(data, who, token colours) (written once, not per event).
LINES: dict[str, Callable[[dict[str, Any], Who, dict[str, str]], str]] = {
    "setup": lambda d, who, c: "Dragons on the table: " + "; ".join(
        f"{x['id']} (strength {x['strength']}, {_tokens(x.get('tokens', []), c)}, {x.get('hidden', 0)} hidden)"
        for x in d.get("dragons", [])),
    "attack": lambda d, who, c: f"{who(d.get('seat'))} sends the {d.get('adventurer')} against {d.get('dragon')} "
                                f"(attack {d.get('total')} of strength {d.get('strength')})",
    "kill": lambda d, who, c: f"{d.get('dragon')} is slain by " + ", ".join(who(s) for s in d.get("involved", []))
                              + f": its hoard is {_tokens(d.get('tokens', []), c)}",
    "wizard_seizes": lambda d, who, c: f"{who(d.get('seat'))}'s wizard seizes {_tokens(d.get('tokens', []), c)}",
    "treasure_taken": lambda d, who, c: f"{who(d.get('seat'))} takes {d.get('dragon')}'s hoard alone: "
                                        f"{_tokens(d.get('tokens', []), c)}",
    "split": lambda d, who, c: f"{d.get('dragon')} is shared: {_shares(d.get('shares', {}), who, c)}",
    "split_failed": lambda d, who, c: f"No agreement over {d.get('dragon')}: {_tokens(d.get('tokens', []), c)} "
                                      "goes back",
    "dragon": lambda d, who, c: f"A new dragon {d.get('id')} appears (strength {d.get('strength')}, "
                                f"{_tokens(d.get('tokens', []), c)}, {d.get('hidden', 0)} hidden)",
    "theft": lambda d, who, c: f"{who(d.get('seat'))}'s thief robs {who(d.get('victim'))}",
    "stolen": lambda d, who, c: f"{who(d.get('seat'))} steals a {d.get('colour')} token from {who(d.get('victim'))}",
    "theft_skipped": lambda d, who, c: f"{who(d.get('seat'))}'s thief has nobody to rob",
    "ward": lambda d, who, c: f"{who(d.get('seat'))} wards off {who(d.get('thief'))}'s thief",
    "refresh": lambda d, who, c: f"{who(d.get('seat'))} takes back {', '.join(map(str, d.get('adventurers', [])))}",
    "turn_lost": lambda d, who, c: f"{who(d.get('seat'))} loses the turn",
    "retreat": lambda d, who, c: f"Nobody can attack: {len(d.get('adventurers', []))} adventurers break off "
                                 "their fights and go home; the dragons keep their treasure",
    "double_strike": lambda d, who, c: f"{who(d.get('seat'))} strikes twice",
    "card_drawn": lambda d, who, c: f"{who(d.get('seat'))} draws a magic object",
    "card_played": lambda d, who, c: f"{who(d.get('seat'))} plays a magic object: {compact(d)}",
    "market_open": lambda d, who, c: f"The market opens for {d.get('rounds')} rounds",
    "market_round": lambda d, who, c: f"Market round {d.get('round')}",
    "trade": lambda d, who, c: f"{who(d.get('from'))} trades {d.get('given')} tokens to {who(d.get('to'))} "
                               f"for {d.get('paid')}",
    "market_close": lambda d, who, c: "The market closes",
    "game_over": lambda d, who, c: "The game is over",
}


def _transcript_line(kind: str, d: dict[str, Any], who: Who, colours: dict[str, str]) -> list[str]:
    if kind == "negotiation":
        return [f"Negotiation over {d.get('dragon')} between " + ", ".join(who(s) for s in d.get("involved", []))
                + f" ({d.get('rounds')} rounds) for {_tokens(d.get('tokens', []), colours)}"]
    if kind == "proposals":
        return [f"round {d.get('round')}: {who(p.get('proposer'))} proposes {p.get('id')}: "
                f"{_shares(p.get('shares', {}), who, colours)}" for p in d.get("proposals", [])]
    if kind == "votes":
        votes = d.get("votes", {})
        return [f"round {d.get('round')} votes: " + "; ".join(
            f"{who(seat)} accepts {', '.join(ids) or 'nothing'}" for seat, ids in votes.items())]
    if kind == "agreement":
        return [f"→ agreement on {d.get('proposal')} in round {d.get('round')}"]
    if kind == "divide":
        return [f"{who(d.get('divider'))} divides {d.get('dragon')}'s hoard of {_tokens(d.get('tokens', []), colours)}"]
    if kind == "division":
        offered = enumerate(d.get("shares", []))
        return ["shares offered: " + "; ".join(f"#{i}: {_tokens(s, colours)}" for i, s in offered)]
    if kind == "chosen":
        return [f"{who(d.get('seat'))} chooses share #{d.get('share')}"]
    return []


TRANSCRIPT_EVENTS = {"negotiation", "proposals", "votes", "agreement", "divide", "division", "chosen"}


def sections(replay: Replay, names: Sequence[str]) -> list[Section]:
    who = seat_namer(names)
    out = [Section("Setup")]
    for moment in walk(replay):
        if moment.is_decision:
            line = fault_line(moment.entry, who)
            if line:
                out[-1].add(line)
            continue
        kind, data, colours = moment.kind, moment.data, moment.table.colour_of
        if kind in OPENS:
            if kind == "turn" and len(out) >= MAX_SECTIONS:
                out[-1].add("… (the rest is in the replay download)")
                break
            out.append(Section(f"Turn {data.get('turn')}: {who(data.get('seat'))}" if kind == "turn" else OPENS[kind]))
        if kind in TRANSCRIPT_EVENTS:
            label = "Division" if kind in ("divide", "division", "chosen") else "Negotiation"
            for line in _transcript_line(kind, data, who, colours):
                out[-1].add(line, talk=True, label=label)
            continue
        line = _line(kind, data, who, colours)
        if line:
            out[-1].add(line)
    return [s for s in out if s.shown]


OPENS = {"turn": "", "market_open": "Market", "game_over": "End"}  # events that open a section


TOKEN_COLOURS = ("silver", "gold", "red", "black")


def score_cells(breakdown: dict[str, Any]) -> list[tuple[str, str]]:
    """Points per token colour with the tokens held, the majorities won, sets and the curse.

    The engine keeps the token counts apart ("counts") and the curse as a flag; a reader wants the
    points and why beside each other, and the curse only when it struck.
    """
    counts = breakdown.get("counts") or {}
    cells = [(colour.capitalize(), f"{breakdown.get(colour, 0)} ({counts.get(colour, 0)} tokens)")
             for colour in TOKEN_COLOURS]
    majorities = breakdown.get("majorities") or {}
    cells.append(("Majorities", ", ".join(f"{c} +{p}" for c, p in majorities.items()) or "—"))
    cells.append(("Sets", str(breakdown.get("sets", 0))))
    cells.append(("Curse", "cursed: no majorities or sets" if breakdown.get("cursed") else "—"))
    return cells
