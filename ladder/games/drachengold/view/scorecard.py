"""Drachengold's scorecard (issue #45): why a bot wins or loses, mostly in the negotiations.

`measure(replay)` reads a finished match's typed replay in one pass over its log (every event,
hidden ones too: the match is over and the scorecard is about the seat's own play) and gives each
seat its tallies of `MEASURES` (ladder/games/scorecard.py says how tallies aggregate);
docs/scorecard-drachengold.md has every formula.

Ex-post values. The game_over event reveals every final hoard (the replay's end state, not a
re-simulation). A token's worth to a seat is its marginal effect on that seat's final score, by
the rules' own scoring (rules/scoring.py, majorities, sets and the curse included): the seat's
score with the token added to its final hoard, less its score without it, with the token taken
out of whichever hoard holds it at the end (or out of the box) in both. Tokens of one colour held
by the same seat at the end are worth the same, so values are computed per (colour, final holder)
and kept for the match. A seat's utility for a share is the sum of its tokens' worths, and its
share of a pool is that utility over its utility for the whole pool (counted only when positive).

Pareto and Nash: every allocation of a split's pool among its involved seats is searched at once
by one dynamic programme over the pool's tokens whose states are the first k-1 seats' utilities,
keeping the largest utility the last seat can have with them (`_frontier`): exact, since for each
prefix that largest last utility dominates every other; a split whose programme would pass
MAX_STATES states is left out of those two measures (in the house bots' seeded games: none of 421 splits
at 3 and 4 players, 4 of 504 at 5 and 6; docs/scorecard-drachengold.md, "Cost").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from math import prod
from statistics import median
from typing import Any

from ladder.games.base import competition_ranks
from ladder.games.drachengold.rules.data import DECK
from ladder.games.drachengold.rules.scoring import score_hoards
from ladder.games.drachengold.view.negotiations import AttackParts
from ladder.games.scorecard import Measure, Tally
from ladder.replay.model import Decision, Replay

__all__ = ["MAX_STATES", "MEASURES", "measure"]

MAX_STATES = 4_000  # the frontier programme's cap for one split: a few ms of Python (docs, "Cost")

_N = "negotiation"
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


def _frontier(values: Sequence[Sequence[int]], k: int) -> list[tuple[tuple[int, ...], int]] | None:
    """Every allocation of tokens with per-seat `values` among k seats that no other one beats by
    giving a token to a seat valuing it more (`_worth_giving`), as (the first k-1 seats' utilities,
    the largest utility the last seat has with them) pairs. None past MAX_STATES.

    The first k-1 utilities are kept as one integer, each seat's utility (less the least it can
    have) a digit of its own radix: giving a token to a seat adds its value times the seat's radix,
    an integer addition where a tuple would be rebuilt (the programme's whole cost)."""
    last = k - 1
    low = [sum(min(0, v[i]) for v in values) for i in range(last)]
    radix, r = [], 1
    for i in range(last):
        radix.append(r)
        r *= sum(abs(v[i]) for v in values) + 1
    states: dict[int, int] = {sum(-lo * rad for lo, rad in zip(low, radix, strict=True)): 0}
    for v in values:
        seats = _worth_giving(v)
        steps = [v[i] * radix[i] for i in seats if i < last]
        mine = v[last] if last in seats else None
        nxt: dict[int, int] = {}
        get = nxt.get
        for key, u in states.items():
            if mine is not None:
                w = u + mine
                if get(key, w - 1) < w:
                    nxt[key] = w
            for step in steps:
                moved = key + step
                if get(moved, u - 1) < u:
                    nxt[moved] = u
        if len(nxt) > MAX_STATES:
            return None
        states = nxt
    sizes = [radix[i + 1] // radix[i] if i + 1 < last else r // radix[i] for i in range(last)]
    return [(tuple(key // radix[i] % sizes[i] + low[i] for i in range(last)), u) for key, u in states.items()]


def _worth_giving(v: Sequence[int]) -> list[int]:
    """The seats a token may go to in an allocation no other allocation beats: giving it to a seat
    that values it less than nothing, or at nothing while another values it, is dominated by giving
    it to that other seat instead (one seat better off, nobody worse), so neither the Pareto check
    nor the largest Nash product needs those allocations. Every seat when all value it below zero."""
    best = max(v)
    if best > 0:
        return [i for i, x in enumerate(v) if x > 0]
    return [i for i, x in enumerate(v) if x == best] if best == 0 else list(range(len(v)))


def _efficiency(values: Sequence[Sequence[int]], k: int, got: Sequence[int]) -> tuple[bool, float | None] | None:
    """(Pareto-optimal?, Nash product over the largest one, None when that largest is 0) of the
    utilities `got`, among every allocation of the tokens; None when the programme is too big."""
    # The seat whose utilities spread widest is the last, the one the states do not enumerate.
    spread = [sum(abs(v[i]) for v in values) for i in range(k)]
    order = sorted(range(k), key=spread.__getitem__)
    values = [tuple(v[i] for i in order) for v in values]
    got = [got[i] for i in order]
    states = _frontier(values, k)
    if states is None:
        return None
    total = sum(got)
    head, tail = got[:-1], got[-1]
    dominated = False
    best = 0
    for key, u in states:
        if not dominated and u >= tail and sum(key) + u > total and all(a >= b for a, b in zip(key, head, strict=True)):
            dominated = True
        if u > 0 and min(key, default=1) > 0:
            p = prod(key) * u
            if p > best:
                best = p
    mine = prod(max(0, x) for x in got)
    return not dominated, (mine / best if best > 0 else None)


class _Worths:
    """Ex-post worths from the final hoards: of(token, seat) (see the module's doc).

    Each worth is two scorings of the final hoards; scorings are the cost here (tens of
    microseconds each), so each is made once per match and only when asked for: the hoards without
    one token of a colour where it ended, and with it given to one seat, per (colour, holder, seat).
    A colour outside the gems and the black diamond scores its face value alone (no majority, set
    or curse reads it: rules/scoring.py), so its worth is the same whatever the holdings: scored
    once per rule set, from empty hoards with and without the token."""

    def __init__(self, hoards: Sequence[Sequence[Mapping[str, str]]], rules: str, n: int) -> None:
        self.n, self.rules = n, rules
        self.scoring, self.gems = DECK["scoring"][rules], DECK["gems"]
        self.counts: list[dict[str, int]] = [{} for _ in range(n)]
        self.holder: dict[str, int] = {}
        for s, hoard in enumerate(hoards[:n]):
            for t in hoard:
                self.holder[t["id"]] = s
                self.counts[s][t["colour"]] = self.counts[s].get(t["colour"], 0) + 1
        self.final: list[int] | None = None
        self.first: set[int] | None = None
        self.without: dict[tuple[str, int], list[int]] = {}
        self.cache: dict[tuple[str, int | None, int], int] = {}

    def of(self, token: Mapping[str, str], seat: int) -> int:
        colour = token["colour"]
        if colour not in self.gems and colour != "black":
            return _face(self.rules, colour, self.n)
        key = (colour, self.holder.get(token["id"]), seat)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self._compute(*key)
        return got

    def _totals(self, counts: Sequence[Mapping[str, int]]) -> list[int]:
        return [b["total"] for b in score_hoards(counts, self.scoring, self.gems)]

    def _compute(self, colour: str, holder: int | None, seat: int) -> int:
        if self.final is None:
            self.final = self._totals(self.counts)
        if holder is None:  # in the box lid at the end: the final hoards are the ones without it
            without = self.final
        else:
            without = self.without.get((colour, holder))
            if without is None:
                counts = list(self.counts)
                counts[holder] = {**counts[holder], colour: counts[holder][colour] - 1}
                without = self.without[(colour, holder)] = self._totals(counts)
        if seat == holder:  # its holder's hoards with it are the final ones
            return self.final[seat] - without[seat]
        counts = list(self.counts)
        if holder is not None:
            counts[holder] = {**counts[holder], colour: counts[holder][colour] - 1}
        counts[seat] = {**counts[seat], colour: counts[seat].get(colour, 0) + 1}
        return self._totals(counts)[seat] - without[seat]

    def utility(self, seat: int, tokens: Sequence[Mapping[str, str]]) -> int:
        of = self.of
        return sum(of(t, seat) for t in tokens)

    def actual_winners(self) -> set[int]:
        if self.first is None:
            self.first = self.winners({}, {})
        return self.first

    def winners(self, moves: Mapping[str, int | None], colours: Mapping[str, str]) -> set[int]:
        """The seats ranked first by the final hoards with each token of `moves` given to its seat
        there (None: the box lid)."""
        counts = [dict(c) for c in self.counts]
        for tid, to in moves.items():
            was = self.holder.get(tid)
            if was is not None:
                counts[was][colours[tid]] -= 1
            if to is not None:
                counts[to][colours[tid]] = counts[to].get(colours[tid], 0) + 1
        ranks = competition_ranks(self._totals(counts))
        return {s for s, r in enumerate(ranks) if r == 1}


@cache
def _face(rules: str, colour: str, n: int) -> int:
    """A colour's worth where no holding changes it: one token of it scored alone."""
    empty: list[dict[str, int]] = [{} for _ in range(n)]
    alone = [{colour: 1}, *empty[1:]]
    scoring, gems = DECK["scoring"][rules], DECK["gems"]
    return score_hoards(alone, scoring, gems)[0]["total"] - score_hoards(empty, scoring, gems)[0]["total"]


class _Card:
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
    n = replay.header.players
    options = replay.header.options
    end = next((e.data for e in reversed(replay.log) if not isinstance(e, Decision) and e.type == "game_over"), None)
    if end is None:  # a game cut short has no final holdings: nothing here can be valued
        return {}
    negotiated = options["split"] == "negotiation"
    run = _Pass(n, _Worths(end["hoards"], options["rules"], n))
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
        _kingmaking(split, run.worths, run.colours, cards)
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

    def __init__(self, n: int, worths: _Worths) -> None:
        self.cards = [_Card() for _ in range(n)]
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
        self.neg = _open(d, self.attack, self.worths, self.colours)
        for s in self.neg["involved"]:
            self.cards[s].count("splits_joined", 1)

    def proposals(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            _proposals(self.neg, d, self.cards)

    def votes(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            _votes(self.neg, d, self.cards)

    def agreement(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            self.neg["agreed"] = (d["proposal"], d["round"])

    def split(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            _settle(self.neg, True, d, self.cards, self.splits)
            self.neg = None
        elif self.division is not None:
            _divided(self.division, self.cards)
            self.division = None

    def split_failed(self, d: Mapping[str, Any]) -> None:
        if self.neg is not None:
            _settle(self.neg, False, d, self.cards, self.splits)
            self.neg = None

    def divide(self, d: Mapping[str, Any]) -> None:
        self.division = _open(d, self.attack, self.worths, self.colours)
        self.division["divider"] = d["divider"]
        self.cards[d["divider"]].count("divisions_made", 1)

    def division_made(self, d: Mapping[str, Any]) -> None:
        if self.division is not None:
            self.division["shares"], self.division["taken"] = d["shares"], {}

    def chosen(self, d: Mapping[str, Any]) -> None:
        if self.division is not None:
            _chosen(self.division, d, self.cards)

    def market_open(self, d: Mapping[str, Any]) -> None:
        for card in self.cards:
            card.add("market_offers", 0)
            card.add("market_gain", 0)

    def offer(self, d: Mapping[str, Any]) -> None:
        self.offers[d["id"]] = d
        self.cards[d["from"]].count("market_offers", 1)
        self.cards[d["from"]].add("market_accepted", 0, 1)

    def trade_done(self, d: Mapping[str, Any]) -> None:
        _traded(d, self.offers, self.worths, self.cards)

    def stolen(self, d: Mapping[str, Any]) -> None:
        card = self.cards[d["seat"]]
        card.count("thefts", 1)
        card.count("theft_gain", self.worths.of({"id": d["token"], "colour": d["colour"]}, d["seat"]))

    def card_played(self, d: Mapping[str, Any]) -> None:
        self.attack.see("card_played", d)
        self.cards[d["seat"]].count("magic_used", 1)


def _open(d: Mapping[str, Any], attack: AttackParts, worths: _Worths, colours: dict[str, str]) -> dict[str, Any]:
    """A split's pool, its involved seats (in seat order), each pool token's worth to each of them,
    and per seat its utility for the whole pool and its part of the attack."""
    involved = sorted(d.get("involved") or [d["divider"], *d["order"]])
    tokens = d["tokens"]
    value: dict[str, dict[int, int]] = {}
    for t in tokens:
        colours[t["id"]] = t["colour"]
        value[t["id"]] = {s: worths.of(t, s) for s in involved}
    whole = {s: sum(v[s] for v in value.values()) for s in involved}
    return {"involved": involved, "tokens": tokens, "value": value, "parts": attack.parts(d["dragon"], involved),
            "whole": whole, "rounds": [], "proposals": {}, "agreed": None}


def _share(split: Mapping[str, Any], seat: int, ids: Sequence[str]) -> float | None:
    """Seat's share of the pool in a share of these token ids (None when the pool is worth nothing to it)."""
    whole = split["whole"][seat]
    if whole <= 0:
        return None
    value = split["value"]
    return sum(value[t][seat] for t in ids) / whole


def _proposals(neg: dict[str, Any], d: Mapping[str, Any], cards: list[_Card]) -> None:
    standing = d["proposals"]
    known = neg["proposals"]
    for p in standing:
        if p["id"] not in known:
            known[p["id"]] = p
            cards[p["proposer"]].count("proposals_made", 1)
            cards[p["proposer"]].add("proposals_agreed", 0, 1)
    neg["rounds"].append({"round": d["round"], "standing": standing, "votes": {}})


def _votes(neg: dict[str, Any], d: Mapping[str, Any], cards: list[_Card]) -> None:
    current = neg["rounds"][-1]
    current["votes"] = votes = {int(k): set(v) for k, v in d["votes"].items()}
    for voter, accepted in votes.items():
        for p in current["standing"]:
            if p["proposer"] != voter:
                cards[voter].add("vote_refusal", 0 if p["id"] in accepted else 1, 1)


def _settle(neg: dict[str, Any], agreed: bool, d: Mapping[str, Any], cards: list[_Card],
            splits: list[dict[str, Any]]) -> None:
    involved, k = neg["involved"], len(neg["involved"])
    for s in involved:
        cards[s].add("deal_rate", 1 if agreed else 0, 1)
        cards[s].add("treasure_lost", 0 if agreed else 100 * len(d["tokens"]), 1)
        _offer_shares(neg, s, cards[s])
    if not agreed:
        blame = dict.fromkeys(involved, 0)
        for r in neg["rounds"]:
            mine = {p["proposer"] for p in r["standing"]}
            for s in involved:
                others = [p["id"] for p in r["standing"] if p["proposer"] != s]
                if s not in mine or (others and not r["votes"].get(s, set()).intersection(others)):
                    blame[s] += 1
        marks = sum(blame.values())
        if marks:
            for s in involved:
                cards[s].add("blame_share", blame[s], marks)
        return
    pid, rnd = neg["agreed"]
    proposal = neg["proposals"][pid]
    cards[proposal["proposer"]].add("proposals_agreed", 1, 0)
    shares = {s: proposal["shares"].get(str(s), []) for s in involved}
    got = {s: _share(neg, s, shares[s]) for s in involved}
    for s in involved:
        cards[s].sample("rounds_to_agreement", rnd)
        if got[s] is not None:
            cards[s].add("agreed_share", got[s])
            cards[s].add("share_vs_equal", got[s] - 1 / k)
            cards[s].add("share_vs_attack", got[s] - neg["parts"][s])
            exploited = got[s] < 1 / k and any(g is not None and g > 1 / k for o, g in got.items() if o != s)
            cards[s].add("exploited", 1 if exploited else 0, 1)
    known = [g for g in got.values() if g is not None]
    if len(known) == k:
        for s in involved:
            cards[s].add("least_satisfied", min(known))
    value = neg["value"]
    values = [tuple(value[t["id"]][s] for s in involved) for t in neg["tokens"]]
    utilities = [sum(value[t][s] for t in shares[s]) for s in involved]
    found = _efficiency(values, k, utilities)
    if found is not None:
        pareto, nash = found
        for s in involved:
            cards[s].add("pareto_optimal", 1 if pareto else 0, 1)
            if nash is not None:
                cards[s].add("nash_efficiency", nash)
    last = neg["rounds"][-1]
    splits.append({"involved": involved, "proposal": proposal, "standing": last["standing"],
                   "votes": last["votes"]})


def _offer_shares(neg: dict[str, Any], seat: int, card: _Card) -> None:
    """First-offer share and concession: the share its standing proposal gave itself, round by round."""
    own = []
    for r in neg["rounds"]:
        for p in r["standing"]:
            if p["proposer"] == seat:
                own.append((r["round"], _share(neg, seat, p["shares"].get(str(seat), []))))
                break
    if not own or own[0][1] is None:
        return
    card.add("first_offer_share", own[0][1])
    if len(own) >= 2:
        card.add("concession", (own[0][1] - own[-1][1]) / (own[-1][0] - own[0][0]))


def _kingmaking(split: Mapping[str, Any], worths: _Worths, colours: Mapping[str, str], cards: list[_Card]) -> None:
    """Each accepting seat but the proposer: its refusal would have left the next proposal of that
    round every involved seat accepted, or none (the box lid); the split's tokens still held at the
    end by the seat it gave them to are moved as under that outcome and the final hoards re-scored."""
    proposal = split["proposal"]
    given = {t: int(s) for s, ids in proposal["shares"].items() for t in ids}
    held = {t: s for t, s in given.items() if worths.holder.get(t) == s}
    actual = worths.actual_winners()
    standing = split["standing"]
    after = standing[[p["id"] for p in standing].index(proposal["id"]) + 1:]
    alternative = next((p for p in after if all(p["id"] in split["votes"].get(o, ()) for o in split["involved"])),
                       None)
    moves: dict[str, int | None] = dict.fromkeys(held)
    if alternative is not None:
        to = {t: int(o) for o, ids in alternative["shares"].items() for t in ids}
        moves = {t: to[t] for t in held}
    changed = worths.winners(moves, colours) != actual
    for s in split["involved"]:
        if s != proposal["proposer"]:
            cards[s].add("kingmaking", 1 if changed and s not in actual else 0, 1)


def _chosen(division: dict[str, Any], d: Mapping[str, Any], cards: list[_Card]) -> None:
    seat, taken = d["seat"], division["taken"]
    remaining = [i for i in range(len(division["shares"])) if i not in taken.values()]
    value = division["value"]
    worth = {i: sum(value[t][seat] for t in division["shares"][i]) for i in remaining}
    cards[seat].count("choices_made", 1)
    cards[seat].add("best_choice", 1 if worth[d["share"]] >= max(worth.values()) else 0, 1)
    taken[seat] = d["share"]


def _divided(division: dict[str, Any], cards: list[_Card]) -> None:
    involved, taken, k = division["involved"], division["taken"], len(division["involved"])
    left = [i for i in range(len(division["shares"])) if i not in taken.values()]
    taken[division["divider"]] = left[0]
    for s in involved:
        got = _share(division, s, division["shares"][taken[s]])
        if got is not None:
            cards[s].add("strategic_share", got)
            cards[s].add("strategic_vs_equal", got - 1 / k)
            cards[s].add("strategic_vs_attack", got - division["parts"][s])


def _traded(d: Mapping[str, Any], offers: Mapping[str, Any], worths: _Worths, cards: list[_Card]) -> None:
    a, b = d["from"], d["to"]
    if d["offer"] in offers:
        cards[a].add("market_accepted", 1, 0)
    cards[a].count("market_gain", worths.utility(a, d["pay"]) - worths.utility(a, d["give"]))
    cards[b].count("market_gain", worths.utility(b, d["give"]) - worths.utility(b, d["pay"]))


def summary(tallies: Mapping[str, Tally]) -> dict[str, float]:
    """One seat's tallies of one match as figures (a reading aid for the docs and the timing
    script: the page aggregates over matches itself)."""
    out = {}
    for name, t in tallies.items():
        kind = next(m.kind for m in MEASURES if m.name == name)
        if kind == "median":
            out[name] = float(median(t))
        elif t[1]:
            out[name] = t[0] / t[1]
    return out
