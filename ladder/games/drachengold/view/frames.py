"""Drachengold as replay-viewer frames: the table as one viewer knew it after every event.

`frames(replay, seat, reveal=False)` is pure. It replays the log's events and keeps, for the
viewer, only what the viewer saw: the public view (seat None) uses events addressed to everyone;
seat k also uses the events addressed to k (its hand, its thefts, its trades); `reveal=True`
uses every event (the match is over, nothing needs hiding). Where a private event moved tokens
the viewer did not see, the viewer's hoards say so ("+2 unseen", "-1 unseen") instead of
guessing colours; the game_over event makes every hoard public again.

A frame: {title, turn, seat, lines, scores, board} with board
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
The viewer's state lives in view_knowledge.Knowledge; this module decides what it is fed.
Scores are tokens in each hoard (points need colours a private event may have hidden), points
when `reveal` is on; the last frame's lines give the final points in every view.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ladder.games.drachengold.view.knowledge import ATTACK, Knowledge
from ladder.games.drachengold.view.knowledge import colours as _colours
from ladder.games.drachengold.view.knowledge import count_text as _count_text


def score_label(seat: int | None = None, reveal: bool = False) -> str:
    return "points" if reveal else "tokens in hoard"


def frames(replay: dict[str, Any], seat: int | None = None, *, reveal: bool = False) -> list[dict[str, Any]]:
    v = Knowledge(replay, seat, reveal)
    who = v.who
    out: list[dict[str, Any]] = []
    title, turn, active = "Setup", 0, None
    pending: list[str] = []
    log = [e for e in replay.get("log", []) if isinstance(e, dict)]
    events = [e for e in log if "decision" not in e]
    next_event = {id(e): events[i + 1] if i + 1 < len(events) else None for i, e in enumerate(events)}

    def sees_next(entry: dict[str, Any], kind: str) -> bool:
        nxt = next_event.get(id(entry))
        return nxt is not None and nxt.get("type") == kind and v.sees(nxt)

    for entry in log:
        if "decision" in entry:
            fault = entry.get("fault")
            if fault:
                pending.append(f"⚠ {who(entry.get('seat'))}: {fault.get('status')} on {entry.get('kind')}; "
                               "the default decision was played")
            continue
        if not v.sees(entry):
            continue
        kind, d = entry.get("type"), entry.get("data") or {}
        s = d.get("seat")
        lines: list[str] = []
        if kind == "setup":
            v.slots = []
            for x in d.get("dragons", []):
                v.learn(x.get("tokens"))
                v.slots.append({"id": x.get("id"), "strength": x.get("strength"), "tokens": _colours(x.get("tokens")),
                                "hidden": x.get("hidden", 0), "attackers": [], "total": 0, "slain": False})
            lines.append("Dragons on the table: " + ", ".join(
                f"{x.get('id')} (strength {x.get('strength')})" for x in d.get("dragons", [])))
        elif kind == "turn":
            v.clear_slain()
            v.negotiation = v.division = None
            if v.market and v.market.get("closed"):
                v.market = None
            turn, active = int(d.get("turn", turn + 1)), s
            title = f"Turn {turn}: {who(s)}"
            continue  # opens a turn; its first event makes the frame
        elif kind == "card_drawn":
            if isinstance(s, int) and 0 <= s < v.n:
                v.hand_size[s] = int(d.get("hand", v.hand_size[s] + 1))
            lines.append(f"{who(s)} draws a magic object" + (" (wizard)" if d.get("why") == "wizard" else ""))
        elif kind == "card":
            if isinstance(s, int) and 0 <= s < v.n:
                v.cards[s].append({"id": d.get("card"), "kind": d.get("kind")})
            lines.append(f"{who(s)}'s new card: {d.get('kind')}")
        elif kind == "card_played":
            card_kind = d.get("kind")
            if isinstance(s, int) and 0 <= s < v.n:
                v.hand_size[s] = max(0, v.hand_size[s] - 1)
                v.cards[s] = [c for c in v.cards[s] if c["id"] != d.get("card")]
            line = f"{who(s)} plays {card_kind}"
            if card_kind == "recall":
                v.remove_attacker(d.get("dragon"), s, d.get("adventurer"))
                if isinstance(s, int) and 0 <= s < v.n:
                    v.advs[s][d.get("adventurer")] = "home"
                line += f": the {d.get('adventurer')} comes back from {d.get('dragon')}"
            elif card_kind == "banish":
                target = d.get("target")
                v.remove_attacker(d.get("dragon"), target, d.get("adventurer"))
                if isinstance(target, int) and 0 <= target < v.n:
                    v.advs[target][d.get("adventurer")] = "down"
                line += f": {who(target)}'s {d.get('adventurer')} leaves {d.get('dragon')} face down"
            elif card_kind == "second_wind":
                for a in d.get("adventurers", []):
                    if isinstance(s, int) and 0 <= s < v.n:
                        v.advs[s][a] = "home"
                line += ": " + (", ".join(map(str, d.get("adventurers", []))) or "nobody") + " stand up again"
            elif card_kind == "windfall":
                if not v.windfall_seen and isinstance(s, int) and 0 <= s < v.n:
                    v.unseen[s] += int(d.get("count", 0))
                v.windfall_seen = False
                line += f": {d.get('count', 0)} tokens from the bag"
            lines.append(line)
        elif kind == "windfall":
            v.gain(s, d.get("tokens"))
            v.windfall_seen = True
            lines.append(f"{who(s)}'s windfall: {_count_text(_colours(d.get('tokens')))}")
        elif kind == "scry":
            lines.append(f"{who(s)} sees the next dragons: {', '.join(map(str, d.get('dragons', [])))}")
        elif kind == "ward":
            if isinstance(s, int) and 0 <= s < v.n:
                v.hand_size[s] = max(0, v.hand_size[s] - 1)
                wards = [c for c in v.cards[s] if c["kind"] == "ward"]
                if wards:
                    v.cards[s].remove(wards[0])
            lines.append(f"{who(s)} wards off {who(d.get('thief'))}'s thief")
        elif kind == "refresh":
            v.clear_slain()
            for a in d.get("adventurers", []):
                if isinstance(s, int) and 0 <= s < v.n:
                    v.advs[s][a] = "home"
            lines.append(f"{who(s)} takes back {', '.join(map(str, d.get('adventurers', [])))}")
        elif kind == "attack":
            slot = v.slot_of(d.get("dragon"))
            adv = d.get("adventurer")
            if slot is not None:
                slot["attackers"].append([s, adv, ATTACK.get(adv, 0) + int(d.get("bonus", 0))])
                slot["total"] = int(d.get("total", slot["total"]))
            if isinstance(s, int) and 0 <= s < v.n:
                v.advs[s][adv] = d.get("dragon")
            bonus = f" +{d.get('bonus')}" if d.get("bonus") else ""
            lines.append(f"{who(s)} sends the {adv}{bonus} against {d.get('dragon')}: "
                         f"{d.get('total')} of {d.get('strength')}")
        elif kind == "double_strike":
            v.clear_slain()
            lines.append(f"{who(s)} strikes twice")
        elif kind == "kill":
            slot = v.slot_of(d.get("dragon"))
            v.learn(d.get("tokens"))
            if slot is not None:
                slot.update(tokens=_colours(d.get("tokens")), hidden=0, slain=True)
            v.bag = d.get("bag", v.bag)
            v.slain += 1
            lines.append(f"{d.get('dragon')} is slain by {', '.join(who(x) for x in d.get('involved', []))}; "
                         f"its hidden treasure: {_count_text(_colours(d.get('hidden')))}")
        elif kind in ("wizard_seizes", "treasure_taken"):
            v.gain(s, d.get("tokens"))
            v.take_from_slot(d.get("dragon"), d.get("tokens"))
            verb = "'s wizard seizes" if kind == "wizard_seizes" else f" takes {d.get('dragon')}'s treasure alone:"
            lines.append(f"{who(s)}{verb} {_count_text(_colours(d.get('tokens')))}")
        elif kind == "split":
            parts = []
            for k, tokens in (d.get("shares") or {}).items():
                seat_k = int(k) if str(k).isdigit() else k
                v.gain(seat_k, tokens)
                v.take_from_slot(d.get("dragon"), tokens)
                parts.append(f"{who(seat_k)} {_count_text(_colours(tokens))}")
            lines.append(f"{d.get('dragon')}'s treasure is shared: " + "; ".join(parts))
        elif kind == "split_failed":
            v.take_from_slot(d.get("dragon"), d.get("tokens"))
            if v.negotiation is not None:
                v.negotiation["outcome"] = {"box": True}
            lines.append(f"No agreement over {d.get('dragon')}: {_count_text(_colours(d.get('tokens')))} "
                         "goes into the box lid")
        elif kind == "negotiation":
            v.learn(d.get("tokens"))
            v.negotiation = {"dragon": d.get("dragon"), "involved": d.get("involved", []),
                             "tokens": _colours(d.get("tokens")), "rounds": d.get("rounds"), "history": [],
                             "outcome": None}
            lines.append(f"Negotiation over {d.get('dragon')} between "
                         f"{', '.join(who(x) for x in d.get('involved', []))} ({d.get('rounds')} rounds at most)")
        elif kind == "proposals":
            props = []
            for p in d.get("proposals", []):
                shares = {str(k): dict(sorted(Counter(v.colour_of.get(t, "?") for t in ids).items()))
                          for k, ids in (p.get("shares") or {}).items()}
                props.append({"id": p.get("id"), "proposer": p.get("proposer"), "shares": shares})
                lines.append(f"round {d.get('round')}: {who(p.get('proposer'))} proposes {p.get('id')}: " + "; ".join(
                    f"{who(int(k))} {_count_text(c)}" for k, c in shares.items() if k.isdigit()))
            if v.negotiation is not None:
                v.negotiation["history"].append({"round": d.get("round"), "proposals": props, "votes": None})
        elif kind == "votes":
            votes = {str(k): list(ids) for k, ids in (d.get("votes") or {}).items()}
            if v.negotiation is not None and v.negotiation["history"]:
                v.negotiation["history"][-1]["votes"] = votes
            lines.append(f"round {d.get('round')} votes: " + "; ".join(
                f"{who(int(k))} accepts {', '.join(ids) or 'nothing'}" for k, ids in votes.items() if k.isdigit()))
        elif kind == "agreement":
            if v.negotiation is not None:
                v.negotiation["outcome"] = {"proposal": d.get("proposal"), "round": d.get("round")}
            lines.append(f"Agreement on {d.get('proposal')} in round {d.get('round')}")
        elif kind == "divide":
            v.learn(d.get("tokens"))
            v.division = {"dragon": d.get("dragon"), "divider": d.get("divider"), "order": d.get("order", []),
                          "shares": [], "chosen": {}}
            lines.append(f"{who(d.get('divider'))} divides {d.get('dragon')}'s treasure")
        elif kind == "division":
            shares = [dict(sorted(Counter(v.colour_of.get(t, "?") for t in share).items()))
                      for share in d.get("shares", [])]
            if v.division is not None:
                v.division["shares"] = shares
            lines.append("Shares: " + "; ".join(f"#{i}: {_count_text(c)}" for i, c in enumerate(shares)))
        elif kind == "chosen":
            if v.division is not None:
                v.division["chosen"][str(s)] = d.get("share")
            lines.append(f"{who(s)} chooses share #{d.get('share')}")
        elif kind == "theft":
            victim = d.get("victim")
            if not sees_next(entry, "stolen") and v.seats(s, victim):
                v.lost[victim] += 1
                v.unseen[s] += 1
            lines.append(f"{who(s)}'s thief robs {who(victim)}"
                         + (" (the wizard helps choose)" if d.get("chosen") else ""))
        elif kind == "stolen":
            v.lose(d.get("victim"), d.get("token"))
            v.gain(s, [{"id": d.get("token"), "colour": d.get("colour")}])
            lines.append(f"{who(s)} steals a {d.get('colour')} token from {who(d.get('victim'))}")
        elif kind == "theft_skipped":
            lines.append(f"{who(s)}'s thief has nobody to rob")
        elif kind == "dragon":
            v.clear_slain()
            v.learn(d.get("tokens"))
            index = d.get("slot")
            slot = {"id": d.get("id"), "strength": d.get("strength"), "tokens": _colours(d.get("tokens")),
                    "hidden": d.get("hidden", 0), "attackers": [], "total": 0, "slain": False}
            if isinstance(index, int) and 0 <= index < 16:
                while len(v.slots) <= index:
                    v.slots.append(None)
                v.slots[index] = slot
            v.bag = d.get("bag", v.bag)
            lines.append(f"A new dragon {d.get('id')} (strength {d.get('strength')}, {d.get('hidden', 0)} hidden)")
        elif kind == "turn_lost":
            v.clear_slain()
            title, turn, active = f"Turn {d.get('turn')}: {who(s)}", int(d.get("turn", turn)), s
            lines.append(f"{who(s)} has no adventurer left standing and loses the turn")
        elif kind == "market_open":
            v.clear_slain()
            v.negotiation = v.division = None  # the kill before the market is settled
            title, active = "Market", None
            v.market = {"round": 0, "rounds": d.get("rounds"), "offers": [], "trades": [], "closed": False}
            lines.append(f"The market opens for {d.get('rounds')} rounds")
        elif kind == "market_round":
            if v.market is not None:
                v.market.update(round=d.get("round"), offers=[], count=d.get("offers"))
            lines.append(f"Market round {d.get('round')}: {d.get('offers')} offers")
        elif kind == "offer":
            v.learn(d.get("give"))
            if v.market is not None:
                v.market["offers"].append({"id": d.get("id"), "from": d.get("from"), "to": d.get("to"),
                                           "give": _colours(d.get("give")), "want": d.get("want") or {}})
            lines.append(f"{who(d.get('from'))} offers {who(d.get('to'))} {_count_text(_colours(d.get('give')))} "
                         f"for {_count_text(d.get('want') or {})}")
        elif kind == "trade":
            a, b = d.get("from"), d.get("to")
            given, paid = int(d.get("given", 0)), int(d.get("paid", 0))
            if not sees_next(entry, "trade_done") and v.seats(a, b):
                v.lost[a] += given
                v.unseen[a] += paid
                v.unseen[b] += given
                v.lost[b] += paid
            if v.market is not None:
                v.market["trades"].append({"from": a, "to": b, "given": given, "paid": paid})
            lines.append(f"{who(a)} gives {who(b)} {given} tokens for {paid}")
        elif kind == "trade_done":
            a, b = d.get("from"), d.get("to")
            for t in d.get("give", []):
                v.lose(a, t.get("id"))
            for t in d.get("pay", []):
                v.lose(b, t.get("id"))
            v.gain(b, d.get("give"))
            v.gain(a, d.get("pay"))
            if v.market is not None and v.market["trades"]:
                v.market["trades"][-1].update(give=_colours(d.get("give")), pay=_colours(d.get("pay")))
            lines.append(f"{who(a)} gave {_count_text(_colours(d.get('give')))}, "
                         f"{who(b)} paid {_count_text(_colours(d.get('pay')))}")
        elif kind == "trade_skipped":
            lines.append(f"Offer {d.get('offer')} is skipped: its tokens have moved")
        elif kind == "market_close":
            if v.market is not None:
                v.market["closed"] = True
            lines.append("The market closes")
        elif kind == "game_over":
            v.clear_slain()
            title, active = "End", None
            for k, hoard in enumerate(d.get("hoards", [])[: v.n]):
                v.known[k] = [t for t in hoard if isinstance(t, dict)]
                v.known_version[k] += 1
                v.unseen[k] = v.lost[k] = 0
            if isinstance(d.get("scores"), list):
                v.final = [int(x) for x in d["scores"]]
            lines.append(f"The game is over ({d.get('reason')}). Every hoard is shown. Scores: "
                         + ", ".join(f"{who(i)} {x}" for i, x in enumerate(d.get("scores", []))))
        else:
            lines.append(f"{kind}: {d}")
        board = v.board()
        board["marks"] = _marks(kind, d)
        out.append({"title": title, "turn": turn, "seat": active, "lines": pending + lines,
                    "scores": v.scores(), "board": board})
        pending = []
    return out


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
