"""One pass over a Drachengold replay: the table as one viewer knew it after every log entry.

`walk(replay, seat, reveal=...)` yields, in order, for a typed replay, a `Moment` for every decision (a fault is
shown in every view) and for every event the viewer saw, together with the table as that event
left it (`Moment.table`, a `Knowledge`, knowledge.py). The public view (seat None) sees the events
addressed to everyone, seat k also those addressed to k, `reveal` every event. The table is one
object updated in place, so a reader copies what it keeps. Both readers of a replay draw from
here: the step list (steps.py, every event: the match is over) and the viewer's frames (frames.py,
one view at a time); only their wording is their own.

Where a private event moved tokens the viewer did not see, the table counts them ("unseen",
"lost") instead of guessing colours; the game_over event shows every hoard again.

A `Pass` takes the entries one at a time (the live view's stream, frames.py). What a theft or a
trade did depends on the event after it (LOOKAHEAD): the pass is told that event, when there is one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.games.drachengold.view.knowledge import ATTACK, Knowledge, colours
from ladder.games.frames import Heading
from ladder.replay.model import Decision, Entry, LoggedEvent, Replay

__all__ = ["LOOKAHEAD", "Moment", "Pass", "walk"]


@dataclass(slots=True)
class Moment:
    entry: Entry
    kind: str  # "decision" or the event's type
    data: dict[str, Any]
    phase: str  # setup, turn, market or end: the part of the game this entry belongs to
    turn: int
    seat: int | None  # whose turn it is (None in the setup, the market and at the end)
    table: Knowledge
    index: int = -1  # the entry's place in the replay's log (the owner's decisions are keyed by it)

    @property
    def is_decision(self) -> bool:
        return self.kind == "decision"


def walk(replay: Replay, seat: int | None = None, *, reveal: bool = True) -> Iterator[Moment]:
    one = Pass(Heading.of(replay), seat, reveal)
    following = _next_events(replay.log)
    for index, (entry, after) in enumerate(zip(replay.log, following, strict=True)):
        moment = one.step(index, entry, after)
        if moment is not None:
            yield moment


class Pass:
    """The table as one viewer knows it, fed one log entry at a time."""

    def __init__(self, heading: Heading, seat: int | None, reveal: bool) -> None:
        self.table = Knowledge(heading, seat, reveal)
        self.phase, self.turn, self.active = "setup", 0, None

    def step(self, index: int, entry: Entry, after: LoggedEvent | None) -> Moment | None:
        """The moment of entry `index` (None: the viewer did not see it); `after`: the event after
        it, seen or not (None: none yet), which only a LOOKAHEAD event's update reads."""
        table = self.table
        if isinstance(entry, Decision):  # its event says what it did
            return Moment(entry, "decision", {}, self.phase, self.turn, self.active, table, index)
        if not table.sees(entry):
            return None
        kind, d = str(entry.type), entry.data or {}
        if kind in ("turn", "turn_lost"):
            self.phase, self.active = "turn", d.get("seat")
            self.turn = int(d.get("turn", self.turn + 1 if kind == "turn" else self.turn))
        elif kind in ("market_open", "game_over"):
            self.phase, self.active = ("market" if kind == "market_open" else "end"), None
        update = UPDATES.get(kind)
        if update is not None:
            update(table, d, after is not None and table.sees(after) and after.type)
        return Moment(entry, kind, d, self.phase, self.turn, self.active, table, index)


def _next_events(log: Sequence[Entry]) -> list[LoggedEvent | None]:
    """For each entry, the event after it (seen or not): a theft or a trade whose details follow
    in an event the viewer sees is counted from those details, else as tokens unseen."""
    out: list[LoggedEvent | None] = []
    nxt = None
    for entry in reversed(log):
        out.append(nxt)
        if isinstance(entry, LoggedEvent):
            nxt = entry
    return out[::-1]


# --- what each event does to the table: update(table, data, type of the next event if seen) ------

Update = Callable[[Knowledge, dict[str, Any], Any], None]


def _setup(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.slots = []
    for x in d.get("dragons", []):
        v.learn(x.get("tokens"))
        v.slots.append(_slot(x))


def _slot(x: dict[str, Any]) -> dict[str, Any]:
    return {"id": x.get("id"), "strength": x.get("strength"), "tokens": colours(x.get("tokens")),
            "hidden": x.get("hidden", 0), "attackers": [], "total": 0, "slain": False}


def _turn(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()
    v.negotiation = v.division = None
    if v.market and v.market.get("closed"):
        v.market = None


def _card_drawn(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    s = d.get("seat")
    if v.seats(s):
        v.hand_size[s] = int(d.get("hand", v.hand_size[s] + 1))


def _card(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    s = d.get("seat")
    if v.seats(s):
        v.cards[s].append({"id": d.get("card"), "kind": d.get("kind")})


def _card_played(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    s, kind = d.get("seat"), d.get("kind")
    if v.seats(s):
        v.hand_size[s] = max(0, v.hand_size[s] - 1)
        v.cards[s] = [c for c in v.cards[s] if c["id"] != d.get("card")]
    if kind == "recall":
        v.remove_attacker(d.get("dragon"), s, d.get("adventurer"))
        v.stand(s, d.get("adventurer"), "home")
    elif kind == "banish":
        v.remove_attacker(d.get("dragon"), d.get("target"), d.get("adventurer"))
        v.stand(d.get("target"), d.get("adventurer"), "down")
    elif kind == "second_wind":
        for a in d.get("adventurers", []):
            v.stand(s, a, "home")
    elif kind == "windfall":
        if not v.windfall_seen and v.seats(s):  # the tokens came in an event this viewer did not see
            v.unseen[s] += int(d.get("count", 0))
        v.windfall_seen = False


def _windfall(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.gain(d.get("seat"), d.get("tokens"))
    v.windfall_seen = True


def _ward(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    s = d.get("seat")
    if v.seats(s):
        v.hand_size[s] = max(0, v.hand_size[s] - 1)
        wards = [c for c in v.cards[s] if c["kind"] == "ward"]
        if wards:
            v.cards[s].remove(wards[0])


def _refresh(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()
    for a in d.get("adventurers", []):
        v.stand(d.get("seat"), a, "home")


def _attack(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    s, adv, slot = d.get("seat"), d.get("adventurer"), v.slot_of(d.get("dragon"))
    if slot is not None:
        slot["attackers"].append([s, adv, ATTACK.get(adv, 0) + int(d.get("bonus", 0))])
        slot["total"] = int(d.get("total", slot["total"]))
    v.stand(s, adv, d.get("dragon"))


def _kill(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    slot = v.slot_of(d.get("dragon"))
    v.learn(d.get("tokens"))
    if slot is not None:
        slot.update(tokens=colours(d.get("tokens")), hidden=0, slain=True)
    v.bag = d.get("bag", v.bag)
    v.slain += 1


def _taken(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.gain(d.get("seat"), d.get("tokens"))
    v.take_from_slot(d.get("dragon"), d.get("tokens"))


def _split(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    for k, tokens in (d.get("shares") or {}).items():
        v.gain(seat_key(k), tokens)
        v.take_from_slot(d.get("dragon"), tokens)


def seat_key(k: Any) -> Any:
    """A seat as a JSON object's key ("2") back as a number."""
    return int(k) if str(k).isdigit() else k


def _split_failed(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.take_from_slot(d.get("dragon"), d.get("tokens"))
    if v.negotiation is not None:
        v.negotiation["outcome"] = {"box": True}


def _negotiation(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.learn(d.get("tokens"))
    v.negotiation = {"dragon": d.get("dragon"), "involved": d.get("involved", []),
                     "tokens": colours(d.get("tokens")), "rounds": d.get("rounds"), "history": [], "outcome": None}


def _proposals(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.negotiation is not None:
        v.negotiation["history"].append({"round": d.get("round"), "proposals": proposals(v, d), "votes": None})


def proposals(v: Knowledge, d: dict[str, Any]) -> list[dict[str, Any]]:
    """A proposals event's proposals with each share as the colours the viewer knows."""
    return [{"id": p.get("id"), "proposer": p.get("proposer"),
             "shares": {str(k): v.id_colours(ids) for k, ids in (p.get("shares") or {}).items()}}
            for p in d.get("proposals", [])]


def _votes(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.negotiation is not None and v.negotiation["history"]:
        v.negotiation["history"][-1]["votes"] = votes(d)


def votes(d: dict[str, Any]) -> dict[str, list[str]]:
    return {str(k): list(ids) for k, ids in (d.get("votes") or {}).items()}


def _agreement(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.negotiation is not None:
        v.negotiation["outcome"] = {"proposal": d.get("proposal"), "round": d.get("round")}


def _divide(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.learn(d.get("tokens"))
    v.division = {"dragon": d.get("dragon"), "divider": d.get("divider"), "order": d.get("order", []),
                  "shares": [], "chosen": {}}


def _division(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.division is not None:
        v.division["shares"] = [v.id_colours(share) for share in d.get("shares", [])]


def _chosen(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.division is not None:
        v.division["chosen"][str(d.get("seat"))] = d.get("share")


def _theft(v: Knowledge, d: dict[str, Any], seen_next: Any) -> None:
    s, victim = d.get("seat"), d.get("victim")
    if seen_next != "stolen" and v.seats(s, victim):  # a token changed hands out of this viewer's sight
        v.lost[victim] += 1
        v.unseen[s] += 1


def _stolen(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.lose(d.get("victim"), d.get("token"))
    v.gain(d.get("seat"), [{"id": d.get("token"), "colour": d.get("colour")}])


def _dragon(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()
    v.learn(d.get("tokens"))
    index = d.get("slot")
    if isinstance(index, int) and 0 <= index < 16:
        while len(v.slots) <= index:
            v.slots.append(None)
        v.slots[index] = _slot(d)
    v.bag = d.get("bag", v.bag)


def _market_open(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()
    v.negotiation = v.division = None  # the kill before the market is settled
    v.market = {"round": 0, "rounds": d.get("rounds"), "offers": [], "trades": [], "closed": False}


def _market_round(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.market is not None:
        v.market.update(round=d.get("round"), offers=[], count=d.get("offers"))


def _offer(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.learn(d.get("give"))
    if v.market is not None:
        v.market["offers"].append({"id": d.get("id"), "from": d.get("from"), "to": d.get("to"),
                                   "give": colours(d.get("give")), "want": d.get("want") or {}})


def _trade(v: Knowledge, d: dict[str, Any], seen_next: Any) -> None:
    a, b = d.get("from"), d.get("to")
    given, paid = int(d.get("given", 0)), int(d.get("paid", 0))
    if seen_next != "trade_done" and v.seats(a, b):  # tokens changed hands out of this viewer's sight
        v.lost[a] += given
        v.unseen[a] += paid
        v.unseen[b] += given
        v.lost[b] += paid
    if v.market is not None:
        v.market["trades"].append({"from": a, "to": b, "given": given, "paid": paid})


def _trade_done(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    a, b = d.get("from"), d.get("to")
    for t in d.get("give", []):
        v.lose(a, t.get("id"))
    for t in d.get("pay", []):
        v.lose(b, t.get("id"))
    v.gain(b, d.get("give"))
    v.gain(a, d.get("pay"))
    if v.market is not None and v.market["trades"]:
        v.market["trades"][-1].update(give=colours(d.get("give")), pay=colours(d.get("pay")))


def _market_close(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    if v.market is not None:
        v.market["closed"] = True


def _game_over(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()
    for k, hoard in enumerate(d.get("hoards", [])[: v.n]):
        v.known[k] = [t for t in hoard if isinstance(t, dict)]
        v.known_version[k] += 1
        v.unseen[k] = v.lost[k] = 0
    if isinstance(d.get("scores"), list):
        v.final = [int(x) for x in d["scores"]]


def _clear_slain(v: Knowledge, d: dict[str, Any], _next: Any) -> None:
    v.clear_slain()


# The events whose update reads the event after them (`seen_next`): the live stream holds them back
# until that event comes (frames.py).
LOOKAHEAD = frozenset({"theft", "trade"})

UPDATES: dict[str, Update] = {
    "setup": _setup, "turn": _turn, "turn_lost": _clear_slain, "double_strike": _clear_slain,
    "card_drawn": _card_drawn, "card": _card, "card_played": _card_played, "windfall": _windfall, "ward": _ward,
    "refresh": _refresh, "attack": _attack, "kill": _kill, "wizard_seizes": _taken, "treasure_taken": _taken,
    "split": _split, "split_failed": _split_failed, "negotiation": _negotiation, "proposals": _proposals,
    "votes": _votes, "agreement": _agreement, "divide": _divide, "division": _division, "chosen": _chosen,
    "theft": _theft, "stolen": _stolen, "dragon": _dragon, "market_open": _market_open,
    "market_round": _market_round, "offer": _offer, "trade": _trade, "trade_done": _trade_done,
    "market_close": _market_close, "game_over": _game_over,
}
