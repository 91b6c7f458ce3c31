"""Drachengold as replay-viewer frames: the table as one viewer knew it after every event.

`frames(replay, seat, reveal=False)` is pure (`stream` draws the same an entry at a time): one
frame per event the viewer saw (a turn's opening
event makes none), drawn from the one pass over the replay (timeline.py), which keeps only what
the viewer saw: the public view (seat None) the events addressed to everyone; seat k also those
addressed to k (its hand, its thefts, its trades); `reveal=True` every event (the match is over,
nothing needs hiding). Where a private event moved tokens the viewer did not see, the viewer's
hoards say so ("+2 unseen", "-1 unseen") instead of guessing colours; the game_over event makes
every hoard public again. Fault lines wait for the next frame.

A frame: {title, turn, seat, lines, scores, entry, board}; entry: the index in the replay's log of
the event it shows (the owner's decisions follow the steps by it); board:
  slots: per table slot null or {id, strength, tokens: {colour: n}, hidden, attackers:
         [[seat, adventurer, attack]], total, slain}
  adventurers: per seat {adventurer: "home" | "down" | dragon id}
  hoards: per seat {size, colours: {colour: n}, unseen, lost}
  hands: per seat {size, cards: [kind, ...]} (advanced rules only; cards = the kinds known)
  negotiation: null or {dragon, involved, tokens, rounds, history: [{round, proposals:
         [{id, proposer, shares: {seat: {colour: n}}}], votes: {seat: [id]}}], outcome}
  division: null or {dragon, divider, shares: [{colour: n}], chosen: {seat: index}}
  market: null or {round, rounds, offers: [...], trades: [...], closed}
  bag, slain (dragons slain so far)
  marks: {seats: {seat: word}, dragons: {id: word}}, where this step happened
The table is timeline.py's (a knowledge.Knowledge); this module says each step in words and marks
where it happened.
Scores are tokens in each hoard (points need colours a private event may have hidden), points
when `reveal` is on; the last frame's lines give the final points in every view.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ladder.games.drachengold.view.knowledge import Knowledge, colours, count_text
from ladder.games.drachengold.view.timeline import LOOKAHEAD, Moment, Pass, proposals, seat_key, votes
from ladder.games.frames import FrameStream, Heading, drawn
from ladder.replay.model import Decision, Entry, LoggedEvent, Replay

__all__ = ["frames", "score_label", "stream"]


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return "points" if reveal else "tokens in hoard"


def frames(replay: Replay, seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    return drawn(stream(Heading.of(replay), seat, reveal=reveal), replay.log)


def stream(heading: Heading, seat: int | None = None, *, reveal: bool = False) -> FrameStream:
    return Frames(heading, seat, reveal)


class Frames(FrameStream):
    """One viewer's frames fed one entry at a time. A theft or a trade the viewer saw is held back,
    with the decisions after it, until the next event says what it did (timeline.LOOKAHEAD); until
    then the open end draws it as the log's last event."""

    def __init__(self, heading: Heading, seat: int | None, reveal: bool) -> None:
        super().__init__()
        self.one = Pass(heading, seat, reveal)
        self.pending: list[str] = []  # fault lines wait for the next frame
        self.held: list[tuple[int, Entry]] = []

    def push(self, index: int, entry: Entry) -> None:
        if isinstance(entry, LoggedEvent):
            held, self.held = self.held, []
            for i, waiting in held:
                self._take(i, waiting, entry)
            if entry.type in LOOKAHEAD and self.one.table.sees(entry):
                self.held.append((index, entry))
                return
        elif self.held:
            self.held.append((index, entry))
            return
        self._take(index, entry, None)

    def _take(self, index: int, entry: Entry, after: LoggedEvent | None) -> None:
        moment = self.one.step(index, entry, after)
        if moment is None:
            return
        if moment.is_decision:
            if moment.entry.fault is not None:
                self.pending.append(_fault_line(moment.entry, moment.table.who))
        elif moment.kind != "turn":  # a turn opens; its first event makes the frame
            self.settled.append(_frame(moment, [*self.pending, *_lines(moment)]))
            self.pending = []

    def open_end(self) -> tuple[int, list[dict[str, Any]]]:
        if not self.held:
            return len(self.settled), []
        probe = copy.copy(self)  # the held entries drawn as the log's last on a copy of the table
        probe.one, probe.pending, probe.settled, probe.held = copy.deepcopy(self.one), list(self.pending), [], []
        for index, entry in self.held:
            probe._take(index, entry, None)
        return len(self.settled), probe.settled


def _fault_line(entry: Decision, who: Callable[[Any], str]) -> str:
    return f"⚠ {who(entry.seat)}: {entry.fault.status} on {entry.kind}; the default decision was played"


def _frame(moment: Moment, lines: list[str]) -> dict[str, Any]:
    table = moment.table
    board = table.board()
    board["marks"] = _marks(moment.kind, moment.data)
    return {"title": _title(moment), "turn": moment.turn, "seat": moment.seat, "lines": lines,
            "scores": table.scores(), "entry": moment.index, "board": board}


def _title(moment: Moment) -> str:
    if moment.phase == "turn":
        return f"Turn {moment.turn}: {moment.table.who(moment.seat)}"
    return {"setup": "Setup", "market": "Market"}.get(moment.phase, "End")


def _lines(moment: Moment) -> list[str]:
    d, v = moment.data, moment.table
    if moment.kind == "proposals":  # one line per proposal
        return [f"round {d.get('round')}: {v.who(p['proposer'])} proposes {p['id']}: "
                + "; ".join(f"{v.who(int(k))} {count_text(c)}" for k, c in p["shares"].items() if k.isdigit())
                for p in proposals(v, d)]
    line = LINES.get(moment.kind)
    return [line(d, v) if line is not None else f"{moment.kind}: {d}"]


def _tokens(tokens: Any) -> str:
    return count_text(colours(tokens))


def _joined(values: Any) -> str:
    return ", ".join(map(str, values))


def _card_played(d: dict[str, Any], v: Knowledge) -> str:
    kind, adv, dragon = d.get("kind"), d.get("adventurer"), d.get("dragon")
    line = f"{v.who(d.get('seat'))} plays {kind}"
    if kind == "recall":
        line += f": the {adv} comes back from {dragon}"
    elif kind == "banish":
        line += f": {v.who(d.get('target'))}'s {adv} leaves {dragon} face down"
    elif kind == "second_wind":
        line += ": " + (_joined(d.get("adventurers", [])) or "nobody") + " stand up again"
    elif kind == "windfall":
        line += f": {d.get('count', 0)} tokens from the bag"
    return line


def _attack(d: dict[str, Any], v: Knowledge) -> str:
    bonus = f" +{d.get('bonus')}" if d.get("bonus") else ""
    return (f"{v.who(d.get('seat'))} sends the {d.get('adventurer')}{bonus} against {d.get('dragon')}: "
            f"{d.get('total')} of {d.get('strength')}")


def _split(d: dict[str, Any], v: Knowledge) -> str:
    parts = [f"{v.who(seat_key(k))} {_tokens(tokens)}" for k, tokens in (d.get("shares") or {}).items()]
    return f"{d.get('dragon')}'s treasure is shared: " + "; ".join(parts)


def _votes(d: dict[str, Any], v: Knowledge) -> str:
    return f"round {d.get('round')} votes: " + "; ".join(
        f"{v.who(int(k))} accepts {', '.join(ids) or 'nothing'}" for k, ids in votes(d).items() if k.isdigit())


def _game_over(d: dict[str, Any], v: Knowledge) -> str:
    return (f"The game is over ({d.get('reason')}). Every hoard is shown. Scores: "
            + ", ".join(f"{v.who(i)} {x}" for i, x in enumerate(d.get("scores", []))))


Line = Callable[[dict[str, Any], Knowledge], str]

# Each event the viewer saw, as the frame's line (proposals: one line each, in _lines).
LINES: dict[str, Line] = {
    "setup": lambda d, v: "Dragons on the table: " + ", ".join(
        f"{x.get('id')} (strength {x.get('strength')})" for x in d.get("dragons", [])),
    "card_drawn": lambda d, v: f"{v.who(d.get('seat'))} draws a magic object"
                               + (" (wizard)" if d.get("why") == "wizard" else ""),
    "card": lambda d, v: f"{v.who(d.get('seat'))}'s new card: {d.get('kind')}",
    "card_played": _card_played,
    "windfall": lambda d, v: f"{v.who(d.get('seat'))}'s windfall: {_tokens(d.get('tokens'))}",
    "scry": lambda d, v: f"{v.who(d.get('seat'))} sees the next dragons: {_joined(d.get('dragons', []))}",
    "ward": lambda d, v: f"{v.who(d.get('seat'))} wards off {v.who(d.get('thief'))}'s thief",
    "refresh": lambda d, v: f"{v.who(d.get('seat'))} takes back {_joined(d.get('adventurers', []))}",
    "attack": _attack,
    "double_strike": lambda d, v: f"{v.who(d.get('seat'))} strikes twice",
    "kill": lambda d, v: f"{d.get('dragon')} is slain by {', '.join(v.who(x) for x in d.get('involved', []))}; "
                         f"its hidden treasure: {_tokens(d.get('hidden'))}",
    "wizard_seizes": lambda d, v: f"{v.who(d.get('seat'))}'s wizard seizes {_tokens(d.get('tokens'))}",
    "treasure_taken": lambda d, v: f"{v.who(d.get('seat'))} takes {d.get('dragon')}'s treasure alone: "
                                   f"{_tokens(d.get('tokens'))}",
    "split": _split,
    "split_failed": lambda d, v: f"No agreement over {d.get('dragon')}: {_tokens(d.get('tokens'))} "
                                 "goes into the box lid",
    "negotiation": lambda d, v: f"Negotiation over {d.get('dragon')} between "
                                f"{', '.join(v.who(x) for x in d.get('involved', []))} "
                                f"({d.get('rounds')} rounds at most)",
    "votes": _votes,
    "agreement": lambda d, v: f"Agreement on {d.get('proposal')} in round {d.get('round')}",
    "divide": lambda d, v: f"{v.who(d.get('divider'))} divides {d.get('dragon')}'s treasure",
    "division": lambda d, v: "Shares: " + "; ".join(
        f"#{i}: {count_text(v.id_colours(share))}" for i, share in enumerate(d.get("shares", []))),
    "chosen": lambda d, v: f"{v.who(d.get('seat'))} chooses share #{d.get('share')}",
    "theft": lambda d, v: f"{v.who(d.get('seat'))}'s thief robs {v.who(d.get('victim'))}"
                          + (" (the wizard helps choose)" if d.get("chosen") else ""),
    "stolen": lambda d, v: f"{v.who(d.get('seat'))} steals a {d.get('colour')} token from {v.who(d.get('victim'))}",
    "theft_skipped": lambda d, v: f"{v.who(d.get('seat'))}'s thief has nobody to rob",
    "dragon": lambda d, v: f"A new dragon {d.get('id')} (strength {d.get('strength')}, {d.get('hidden', 0)} hidden)",
    "turn_lost": lambda d, v: f"{v.who(d.get('seat'))} has no adventurer left standing and loses the turn",
    "market_open": lambda d, v: f"The market opens for {d.get('rounds')} rounds",
    "market_round": lambda d, v: f"Market round {d.get('round')}: {d.get('offers')} offers",
    "offer": lambda d, v: f"{v.who(d.get('from'))} offers {v.who(d.get('to'))} {_tokens(d.get('give'))} "
                          f"for {count_text(d.get('want') or {})}",
    "trade": lambda d, v: f"{v.who(d.get('from'))} gives {v.who(d.get('to'))} {int(d.get('given', 0))} tokens "
                          f"for {int(d.get('paid', 0))}",
    "trade_done": lambda d, v: f"{v.who(d.get('from'))} gave {_tokens(d.get('give'))}, "
                               f"{v.who(d.get('to'))} paid {_tokens(d.get('pay'))}",
    "trade_skipped": lambda d, v: f"Offer {d.get('offer')} is skipped: its tokens have moved",
    "market_close": lambda d, v: "The market closes",
    "game_over": _game_over,
}


def _marks(kind: Any, d: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Where this step happened, for the drawing: a word on the seats and dragons it touched."""
    seats: dict[str, str] = {}
    dragons: dict[str, str] = {}
    s = d.get("seat")
    if kind == "attack":
        seats[str(s)] = f"sends the {d.get('adventurer')}"
        dragons[str(d.get("dragon"))] = f"{d.get('adventurer')} attacks"
    elif kind == "kill":
        dragons[str(d.get("dragon"))] = "slain!"
    elif kind == "dragon":
        dragons[str(d.get("id"))] = "new"
    elif kind == "theft":
        seats[str(s)], seats[str(d.get("victim"))] = "thief strikes", "robbed"
    elif kind == "stolen":
        seats[str(s)], seats[str(d.get("victim"))] = f"steals {d.get('colour')}", f"loses {d.get('colour')}"
    elif kind == "ward":
        seats[str(s)], seats[str(d.get("thief"))] = "ward!", "warded off"
    elif kind == "card_played":
        seats[str(s)] = f"plays {d.get('kind')}"
        if d.get("dragon"):
            dragons[str(d.get("dragon"))] = str(d.get("kind"))
        if d.get("target") is not None:
            seats.setdefault(str(d.get("target")), str(d.get("kind")))
    elif kind in ("card_drawn", "card"):
        seats[str(s)] = f"draws {d.get('kind')}" if kind == "card" else "draws a card"
    elif kind in ("windfall", "wizard_seizes", "turn_lost", "double_strike", "refresh"):
        seats[str(s)] = kind.replace("_", " ")
    elif kind in ("treasure_taken", "split"):
        shares = d.get("shares") or {str(s): d.get("tokens", [])}
        for k, tokens in shares.items():
            seats[str(k)] = f"+{len(tokens or [])} tokens"
    elif kind in ("trade", "trade_done"):
        seats[str(d.get("from"))] = seats[str(d.get("to"))] = "trades"
    return {"seats": seats, "dragons": dragons}
