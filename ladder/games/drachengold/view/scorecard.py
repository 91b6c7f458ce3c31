"""Drachengold's scorecard (issue #45): why a bot wins or loses, mostly in the negotiations.

`measure(replay)` reads a finished match's typed replay in one pass over its log (every event,
hidden ones too: the match is over and the scorecard is about the seat's own play) and gives each
seat its tallies of `MEASURES` (ladder/games/scorecard.py says how tallies aggregate). Tokens are
valued ex post, by their marginal effect on each seat's final score (view/expost.py); what each
split gave each seat is view/splits.py's; docs/scorecard.md (Drachengold) has every formula.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ladder.games.drachengold.view import splits
from ladder.games.drachengold.view.expost import Worths
from ladder.games.drachengold.view.negotiations import AttackParts
from ladder.games.scorecard import Measure, Tally
from ladder.replay.model import Decision, Replay

__all__ = ["MEASURES", "Card", "measure"]


MEASURES: tuple[Measure, ...] = (
    # --- the negotiated split ---------------------------------------------------------------
    Measure("splits_joined", "Splits joined", "Negotiations it was involved in, per match.", "total"),
    Measure("deal_rate", "Deal rate", "Negotiations it joined that ended in an agreed split.", "rate", "%"),
    Measure("treasure_lost", "Treasure lost per 100 dragons",
            "Tokens sent to the box lid at the deadline, per 100 negotiations it joined.", "mean"),
    Measure("blame_share", "Share of the blame",
            "Of the blocking rounds of its failed negotiations (a seat with no proposal standing, or refusing "
            "every other standing proposal), the part that were its own.", "rate", "%"),
    Measure("agreed_share", "Share of agreed treasure",
            "Its ex-post utility for its share of an agreed split over its utility for the whole pool.", "mean", "%"),
    Measure("share_vs_equal", "Share over equal",
            "Its share of an agreed split less an equal share (1 / involved players).", "mean", "%"),
    Measure("share_vs_attack", "Share over attack",
            "Its share of an agreed split less its part of the attack that killed the dragon.", "mean", "%"),
    Measure("proposals_made", "Proposals made", "Proposals it put up (each new one counts), per match.", "total"),
    Measure("proposals_agreed", "Proposals agreed", "Of its proposals, those that became the agreed split.",
            "rate", "%"),
    Measure("rounds_to_agreement", "Rounds to agreement",
            "The round in which its agreed negotiations were settled (median).", "median"),
    Measure("pareto_optimal", "Pareto-optimal deals",
            "Agreed splits it joined that no other allocation of the pool improves for one involved player "
            "without hurting another, by ex-post values.", "rate", "%"),
    Measure("nash_efficiency", "Nash efficiency",
            "An agreed split's product of the involved players' ex-post utilities over the largest product "
            "any allocation of the pool reaches.", "mean", "%"),
    Measure("least_satisfied", "Least satisfied share",
            "In an agreed split it joined, the smallest share any involved player got.", "mean", "%"),
    Measure("first_offer_share", "First-offer share",
            "The share its first proposal of a negotiation gave itself.", "mean", "%"),
    Measure("concession", "Concession per round",
            "How much the share its standing proposal gives itself fell per round, first to last round it "
            "had one standing (two rounds or more).", "mean", "%"),
    Measure("vote_refusal", "Votes refused",
            "Of the other players' standing proposals it voted on, the part it refused (how selective it is).",
            "rate", "%"),
    Measure("exploited", "Exploited",
            "Agreed splits it accepted with less than an equal share while another involved player took more "
            "than one.", "rate", "%"),
    Measure("kingmaking", "Kingmaking",
            "Agreed splits it accepted (not its own proposal) that changed the winners, to others than itself, "
            "against its refusal's outcome.", "rate", "%"),
    Measure("refused_proposals", "Refused proposals", "Its proposal answers the rules refused (replaced by none).",
            "rate", "%"),
    Measure("refused_votes", "Refused votes", "Its vote answers the rules refused (replaced by no vote).",
            "rate", "%"),
    Measure("negotiation_strikes", "Negotiation strikes",
            "Strikes the sandbox gave its proposal and vote answers, per match.", "total"),
    # --- the strategic split (divide and choose) ---------------------------------------------
    Measure("divisions_made", "Divisions made", "Splits it divided (the weakest attacker divides), per match.",
            "total"),
    Measure("choices_made", "Choices made", "Shares it chose in others' divisions, per match.", "total"),
    Measure("best_choice", "Best choices",
            "Its choices that took a remaining share worth the most to it, by ex-post values.", "rate", "%"),
    Measure("strategic_share", "Share of divided treasure",
            "Its ex-post utility for the share it got of a divided pool over its utility for the whole pool.",
            "mean", "%"),
    Measure("strategic_vs_equal", "Divided share over equal", "Its share of a division less an equal share.",
            "mean", "%"),
    Measure("strategic_vs_attack", "Divided share over attack",
            "Its share of a division less its part of the attack.", "mean", "%"),
    Measure("strategic_pareto", "Pareto-optimal divisions",
            "Divisions it took part in whose outcome no other allocation of the pool improves for one involved "
            "player without hurting another, by ex-post values.", "rate", "%"),
    Measure("strategic_nash", "Nash efficiency of divisions",
            "A division's product of the involved players' ex-post utilities over the largest product any "
            "allocation of the pool reaches.", "mean", "%"),
    # --- the market, thefts and magic --------------------------------------------------------
    Measure("market_offers", "Market offers", "Offers it posted at the market, per match.", "total"),
    Measure("market_accepted", "Offers accepted", "Of its market offers, those accepted and carried out.",
            "rate", "%"),
    Measure("market_gain", "Market gain",
            "Ex-post worth to it of what it received in its market trades less what it gave, per match.", "total"),
    Measure("thefts", "Thefts", "Tokens its thieves stole, per match.", "total"),
    Measure("theft_gain", "Theft gain", "Ex-post worth to it of the tokens it stole, per match.", "total"),
    Measure("magic_used", "Magic objects used", "Magic Object cards it played, per match (advanced rules).",
            "total"),
)


class Card:
    """One seat's tallies as they are counted: sums and counts, and median samples."""

    __slots__ = ("samples", "sums")

    def __init__(self) -> None:
        self.sums: dict[str, list[float]] = {}
        self.samples: dict[str, list[float]] = {}

    def add(self, name: str, num: float, den: float = 1.0) -> None:
        cell = self.sums.get(name)
        if cell is None:
            self.sums[name] = [num, den]
        else:
            cell[0] += num
            cell[1] += den

    def count(self, name: str, num: float) -> None:
        """A total's count: the match is its denominator, 1, set when the card is opened."""
        self.sums[name][0] += num

    def sample(self, name: str, value: float) -> None:
        self.samples.setdefault(name, []).append(value)

    def tallies(self) -> dict[str, Tally]:
        out: dict[str, Tally] = {k: (v[0], v[1]) for k, v in self.sums.items()}
        out.update({k: tuple(v) for k, v in self.samples.items()})
        return out


def measure(replay: Replay) -> dict[int, dict[str, Tally]]:
    """Seat -> measure name -> its tally in this match (every seat, each with what it had to count);
    {} for a replay without its game_over event (no final holdings to value tokens by)."""
    n = replay.header.players
    options = replay.header.options
    end = next((e.data for e in reversed(replay.log) if not isinstance(e, Decision) and e.type == "game_over"), None)
    if end is None:  # a game cut short has no final holdings: nothing here can be valued
        return {}
    negotiated = options["split"] == "negotiation"
    run = _Pass(n, Worths(end["hoards"], options["rules"], n))
    cards = run.cards
    for card in cards:
        card.add("thefts", 0)
        card.add("theft_gain", 0)
        if negotiated:
            for name in ("splits_joined", "proposals_made", "refused_proposals", "refused_votes"):
                card.add(name, 0, 0 if name.startswith("refused") else 1)
        else:
            card.add("divisions_made", 0)
            card.add("choices_made", 0)
        if options["rules"] != "basic":
            card.add("magic_used", 0)
    handlers = run.handlers
    see = run.attack.see
    for entry in replay.log:
        if type(entry) is Decision:
            if entry.kind == "propose" or entry.kind == "vote":
                cell = cards[entry.seat].sums["refused_proposals" if entry.kind == "propose" else "refused_votes"]
                cell[0] += entry.fault is not None
                cell[1] += 1
            continue
        kind = entry.type
        handler = handlers.get(kind)
        if handler is not None:
            handler(entry.data)
        elif kind == "attack":
            see(kind, entry.data)
    for split in run.splits:
        splits.kingmaking(split, run.worths, run.colours, cards)
    for seat in replay.seats:
        if negotiated and seat.run is not None and 0 <= seat.seat < n:
            cards[seat.seat].add("negotiation_strikes",
                                 sum(1 for st in seat.run.strikes if st.get("kind") in ("propose", "vote")))
    out = {}
    for s, card in enumerate(cards):
        if not negotiated or not card.sums["refused_proposals"][1]:
            card.sums.pop("refused_proposals", None)
        if not negotiated or not card.sums["refused_votes"][1]:
            card.sums.pop("refused_votes", None)
        out[s] = card.tallies()
    return out


class _Pass:
    """The one pass's state: what each event kind does to it (`handlers`, by event type)."""

    def __init__(self, n: int, worths: Worths) -> None:
        self.cards = [Card() for _ in range(n)]
        self.worths = worths
        self.attack = AttackParts()
        self.neg: dict[str, Any] | None = None  # the negotiation under way
        self.division: dict[str, Any] | None = None  # the strategic split under way
        self.offers: dict[str, Mapping[str, Any]] = {}
        self.splits: list[dict[str, Any]] = []  # agreed negotiations, for kingmaking after the pass
        self.colours: dict[str, str] = {}
        self.handlers = {"retreat": self.retreat, "negotiation": self.negotiation, "proposals": self.proposals,
                         "votes": self.votes, "agreement": self.agreement, "split": self.split,
                         "split_failed": self.split_failed, "divide": self.divide, "division": self.division_made,
                         "chosen": self.chosen, "market_open": self.market_open, "offer": self.offer,
                         "trade_done": self.trade_done, "stolen": self.stolen, "card_played": self.card_played}

    def retreat(self, d: Mapping[str, Any]) -> None:
        self.attack.see("retreat", d)

    def negotiation(self, d: Mapping[str, Any]) -> None:
        self.neg = splits.open_split(d, self.attack, self.worths, self.colours)
        for s in self.neg["involved"]:
            self.cards[s].count("splits_joined", 1)

    def proposals(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            splits.proposals(self.neg, d, self.cards)

    def votes(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            splits.votes(self.neg, d, self.cards)

    def agreement(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            self.neg["agreed"] = (d["proposal"], d["round"])

    def split(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            splits.settle(self.neg, True, d, self.cards, self.splits)
            self.neg = None
        elif self.division is not None:
            splits.divided(self.division, self.cards)
            self.division = None

    def split_failed(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            splits.settle(self.neg, False, d, self.cards, self.splits)
            self.neg = None

    def divide(self, d: Mapping[str, Any]) -> None:
        self.division = splits.open_split(d, self.attack, self.worths, self.colours)
        self.division["divider"] = d["divider"]
        self.cards[d["divider"]].count("divisions_made", 1)

    def division_made(self, d: Mapping[str, Any]) -> None:
        if self.division is not None:
            self.division["shares"], self.division["taken"] = d["shares"], {}

    def chosen(self, d: Mapping[str, Any]) -> None:
        if self.division is not None:
            splits.chosen(self.division, d, self.cards)

    def market_open(self, d: Mapping[str, Any]) -> None:
        for card in self.cards:
            card.add("market_offers", 0)
            card.add("market_gain", 0)

    def offer(self, d: Mapping[str, Any]) -> None:
        self.offers[d["id"]] = d
        self.cards[d["from"]].count("market_offers", 1)
        self.cards[d["from"]].add("market_accepted", 0, 1)

    def trade_done(self, d: Mapping[str, Any]) -> None:
        splits.traded(d, self.offers, self.worths, self.cards)

    def stolen(self, d: Mapping[str, Any]) -> None:
        card = self.cards[d["seat"]]
        card.count("thefts", 1)
        card.count("theft_gain", self.worths.of({"id": d["token"], "colour": d["colour"]}, d["seat"]))

    def card_played(self, d: Mapping[str, Any]) -> None:
        self.attack.see("card_played", d)
        self.cards[d["seat"]].count("magic_used", 1)


