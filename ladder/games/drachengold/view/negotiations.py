"""Drachengold's negotiation facts for the collusion report (ladder/ranking/collusion.py): from a replay's
public events, each seat's opening proposal of a negotiation (its offer to each other involved
seat) and each seat's votes on the other seats' proposals before the last two rounds (when a
player may rightly accept anything rather than see the treasure lost), as shares of the
treasure's worth, with each seat's fair share (its part of the attack that killed the dragon,
from the attack events). One offer per proposer and negotiation: a bot re-proposing each round is one
choice, not eight. The Game names this part (`negotiations`)."""

from __future__ import annotations

from typing import Any

from ladder.games.drachengold.view.knowledge import ATTACK
from ladder.ranking.collusion import Offer, Vote

# A token's rough worth (its face value; gems at their share of a majority bonus): what "a share
# of the treasure" means here. The same table as the greedy house bot's, which players can read.
WORTH = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}


def acts(replay: dict[str, Any]) -> tuple[list[Offer], list[Vote]]:
    """(offers, votes) of one replay's negotiations, by seat."""
    offers: list[Offer] = []
    votes: list[Vote] = []
    worth: dict[str, float] = {}
    involved: list[int] = []
    total = 0.0
    seen: set[str] = set()
    proposed: set[int] = set()
    rounds = 1
    standing: list[dict[str, Any]] = []
    attack = AttackParts()
    fair: dict[int, float] = {}
    for entry in replay.get("log", ()):
        kind = entry.get("type")
        data = entry.get("data") or {}
        attack.see(kind, data)
        if kind == "negotiation":
            fair = attack.parts(data["dragon"], data["involved"])
            worth = {t["id"]: WORTH.get(t["colour"], 1) for t in data["tokens"]}
            involved, total, seen, standing = list(data["involved"]), sum(worth.values()) or 1.0, set(), []
            rounds, proposed = int(data.get("rounds", 1)), set()
        elif kind == "proposals" and involved:
            standing = data["proposals"]
            for p in standing:
                if p["id"] in seen or p["proposer"] in proposed:
                    continue  # a standing proposal is published again each round; the opening one counts
                seen.add(p["id"])
                proposed.add(p["proposer"])
                for seat in involved:
                    if seat != p["proposer"]:
                        offers.append(Offer(p["proposer"], seat, _share(p, seat, worth, total), fair[seat]))
        elif kind == "votes" and involved and data.get("round", 1) <= rounds - 2:
            for voter, accepted in data["votes"].items():
                for p in standing:
                    if p["proposer"] != int(voter):
                        votes.append(Vote(int(voter), p["proposer"], _share(p, int(voter), worth, total),
                                          fair[int(voter)], p["id"] in accepted))
    return offers, votes


class AttackParts:
    """Each dragon's attackers, followed through the public events as the engine keeps them (an
    attack adds one at its adventurer's value plus its bonus, Recall and Banish take one off, a
    retreat takes every one off), and at a dead dragon's split each involved seat's part of the
    attack: what the collusion report calls a fair share and the scorecard an attack share
    (view/scorecard.py)."""

    __slots__ = ("attackers",)

    def __init__(self) -> None:
        self.attackers: dict[str, list[tuple[int, str, float]]] = {}  # dragon -> (seat, adventurer, attack)

    def see(self, kind: Any, data: Any) -> None:
        """Feed every event, in log order (only attacks, cards played and retreats change anything)."""
        if kind == "attack":
            attack = ATTACK.get(data["adventurer"], 0) + float(data.get("bonus") or 0)
            self.attackers.setdefault(data["dragon"], []).append((data["seat"], data["adventurer"], attack))
        elif kind == "card_played" and data.get("kind") in ("recall", "banish"):
            seat = data["seat"] if data["kind"] == "recall" else data["target"]
            on = self.attackers.get(data["dragon"], [])
            for entry in on:
                if entry[0] == seat and entry[1] == data["adventurer"]:
                    on.remove(entry)
                    break
        elif kind == "retreat":
            self.attackers.clear()  # every adventurer on every dragon goes home

    def parts(self, dragon: str, involved: list[int]) -> dict[int, float]:
        """Seat -> its part of the attack on the dead `dragon` (even parts when none was counted);
        called once per dead dragon, at its split (the dragon's record is dropped)."""
        put: dict[int, float] = {}
        for seat, _, attack in self.attackers.pop(dragon, ()):
            put[seat] = put.get(seat, 0.0) + attack
        mass = sum(put.get(s, 0.0) for s in involved)
        return {s: (put.get(s, 0.0) / mass if mass > 0 else 1 / len(involved)) for s in involved}


def _share(proposal: dict[str, Any], seat: int, worth: dict[str, float], total: float) -> float:
    return sum(worth.get(t, 0) for t in proposal["shares"].get(str(seat), ())) / total
