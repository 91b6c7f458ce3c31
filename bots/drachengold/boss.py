# Over 400 lines: a house bot is one file an author can copy and upload: valuation, bargaining, search, rollout.
"""Drachengold: the boss, strong's valuation and bargaining with a forward-model search on attacks.

Everything at the table (proposals, votes, thefts, the market, the strategic split) is
bots/drachengold/strong.py's: tokens valued by their marginal effect on its final score, and an
acceptance model learned from every public vote.

Where it differs is the fight. At each attack it lists strong's best few (adventurer, dragon)
choices and plays each on the same sampled hidden states of the forward model (bots/forward.py:
the other hoards and hands, the bag and the dragon pile drawn from what is still possible), every
seat then following a fast policy on the full state (strong-like attacks by face worth, a split
by attack agreed at once, thefts from the biggest hoard) for a few rounds; each line is scored by
every seat's expected final score on the sampled hoards (face, the chance at each majority, sets,
the curse), as the chance of finishing above each other seat. The choice with the best mean wins,
unless strong's own first choice is within noise of it. It stops on a wall and CPU time budget
well inside the clock, and falls back to strong's choice when the model is missing or fails.
"""

from __future__ import annotations

import random
import time

from bots.forward import ForwardModel
from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

# What most bots think a token is worth: used to predict what an opponent accepts.
VALUE = {"silver": 1, "gold": 3, "red": 1.5, "blue": 2.5, "green": 2.5, "purple": 2.5, "yellow": 2.5,
         "white": 3.5, "black": 7}
ATTACK = {"k4": 4, "k3": 3, "thief": 2, "wizard": 1}
GEMS = ("green", "blue", "purple", "yellow", "white")
SUPPLY = {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12, "purple": 12, "yellow": 12, "white": 6,
          "black": 1}
# The scoring tables of docs/rules.md (rows 116-128).
SCORING = {
    "basic": {"face": {"silver": 1, "gold": 3, "red": 1, "black": 7}, "majority": {3: 15, 4: 12, 5: 12, 6: 10},
              "ties": "full", "sets": "none", "curse": False},
    "advanced-a": {"face": {"silver": 1, "gold": 3, "red": 1, "black": 19}, "majority": {3: 12, 4: 10, 5: 10, 6: 8},
                   "ties": "half", "sets": "per-set", "curse": True},
    "advanced-b": {"face": {"silver": 1, "gold": 3, "red": 1, "black": 15}, "majority": {3: 12, 4: 10, 5: 10, 6: 8},
                   "ties": "half", "sets": "once", "curse": True},
}
OPENING_BAR, LATE_BAR, LAST_BAR = 1.4, 1.1, 0.95  # vote: times its fair share, first / second-last / last round
TARGET = 1.0  # proposals offer, from the start, what an opponent accepts at this stage: the deadline's price
LAST_PRIOR = 0.88  # the last round's bar of an opponent never seen accepting so late
LAST_MARGIN = 0.03  # last-round proposals: this much over an opponent's expected bar
MARKET_GAIN = 1.0  # an offer must raise this seat's standing against the others by this much
UNSEEN = 1.3  # what a token no public event showed is worth, on average, to the seat that holds it


def face(tokens: list[dict[str, str]]) -> float:
    return sum(VALUE[t["colour"]] for t in tokens)


def shape(progress: float) -> float:
    """The common concession curve: a fair share at first, 40% less by the deadline."""
    return 1.0 - 0.6 * progress


class StrongCore(Bot):
    """bots/drachengold/strong.py's StrongBot, whole: the valuation, the ledger and the bargaining."""

    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        n = max(3, self.num_players)
        self.rules = SCORING.get(self.options.get("rules", "basic"), SCORING["basic"])
        self.bonus = self.rules["majority"].get(n, 12)
        # Ledger of colours each seat took in public (thefts and trades stay partly hidden).
        self.ledger: list[dict[str, int]] = [dict.fromkeys(VALUE, 0) for _ in range(n)]
        self.seen = dict.fromkeys(VALUE, 0)  # tokens of each colour seen leaving the bag
        # Acceptance model: per opponent, (stage, share of its fair part, accepted?) of every vote seen.
        self.votes_seen: dict[int, list[tuple[float, float, bool]]] = {}
        self.proposals: dict[str, dict[str, Any]] = {}
        self.neg: dict[str, Any] = {}
        self.fights: dict[str, dict[str, int]] = {}

    # ---- knowing the game ---------------------------------------------------------------
    def on_event(self, event: dict[str, Any]) -> None:
        kind, data = event.get("type"), event.get("data") or {}
        if kind in ("treasure_taken", "wizard_seizes"):
            self._take(data["seat"], data["tokens"])
        elif kind == "split":
            for seat, tokens in data["shares"].items():
                self._take(int(seat), tokens)
        elif kind in ("dragon", "setup"):
            for d in data.get("dragons", [data]):
                for t in d.get("tokens", []):
                    self.seen[t["colour"]] += 1
        elif kind == "kill":
            for t in data.get("hidden", []):
                self.seen[t["colour"]] += 1
        elif kind == "attack":
            fight = self.fights.setdefault(data["dragon"], {})
            seat = str(data["seat"])
            fight[seat] = fight.get(seat, 0) + ATTACK.get(data["adventurer"], 1) + data["bonus"]
        elif kind == "negotiation":
            # Attack totals from the attacks seen (a recall or banish may leave them slightly off).
            self.neg = {"attack": self.fights.get(data["dragon"]), "rounds": data["rounds"],
                        "tokens": {t["id"]: t for t in data["tokens"]}}
            self.proposals = {}
        elif kind == "proposals":
            self.proposals = {p["id"]: p for p in data["proposals"]}
            self.neg["round"] = data["round"]
        elif kind == "votes":
            self._learn(data["votes"])
        elif kind == "divide":
            # The strategic variant: the treasure's colours come with the divide event.
            self.dividing = {t["id"]: t for t in data["tokens"]}
        elif kind == "division":
            self.division = data["shares"]
        elif kind == "stolen":
            # Known to thief and victim only: the token changed hands.
            self._take(data["seat"], [{"colour": data["colour"]}])
            self._give(data["victim"], data["colour"])
        elif kind == "trade_done":
            for t in data["give"]:
                self._take(data["to"], [t])
                self._give(data["from"], t["colour"])
            for t in data["pay"]:
                self._take(data["from"], [t])
                self._give(data["to"], t["colour"])
        elif kind == "chosen" and getattr(self, "division", None):
            colours = getattr(self, "dividing", {})
            self._take(data["seat"], [colours[t] for t in self.division[data["share"]] if t in colours])

    def _take(self, seat: int, tokens: list[dict[str, str]]) -> None:
        for t in tokens:
            self.ledger[seat][t["colour"]] += 1

    def _give(self, seat: int, colour: str) -> None:
        self.ledger[seat][colour] = max(0, self.ledger[seat][colour] - 1)

    def _learn(self, votes: dict[str, list[str]]) -> None:
        """Each opponent's vote on each proposal: the share it accepted or refused, at that stage."""
        attack, tokens = self.neg.get("attack"), self.neg.get("tokens", {})
        if not attack:
            return
        progress = (self.neg.get("round", 1) - 1) / max(1, self.neg["rounds"] - 1)
        total, mass = face(list(tokens.values())), sum(attack.values()) or 1
        for seat_s, accepted in votes.items():
            seat = int(seat_s)
            fair = total * attack.get(seat_s, 0) / mass
            if seat == self.seat or fair <= 0:
                continue
            for pid, p in self.proposals.items():
                if p["proposer"] != seat:
                    ratio = face([tokens[t] for t in p["shares"].get(seat_s, []) if t in tokens]) / fair
                    self.votes_seen.setdefault(seat, []).append((progress, ratio, pid in accepted))

    def threshold(self, seat: int, progress: float) -> float:
        """The share of its fair part (in face worth) seat is expected to accept at this stage: it
        accepts later what it accepted earlier, and refuses earlier what it refused later."""
        seen = self.votes_seen.get(seat, [])
        ub = min((r for q, r, ok in seen if ok and q <= progress + 1e-9), default=None)
        lb = max((r for q, r, ok in seen if not ok and q >= progress - 1e-9), default=None)
        # Before it ever accepted anything this late, assume the last round's bar is near fair: a
        # lost treasure costs more than the few points a lower guess saves.
        prior = max(shape(progress), LAST_PRIOR) if progress >= 1.0 and ub is None else shape(progress)
        est = prior if lb is None else max(prior, lb + 0.05)
        return est if ub is None else min(ub, est)

    # ---- what tokens are worth to this seat -----------------------------------------------
    def counts(self, obs: dict[str, Any], extra: list[dict[str, str]] = (), less: list[dict[str, str]] = ()):
        mine = dict.fromkeys(VALUE, 0)
        for t in obs.get("hoard", []):
            mine[t["colour"]] += 1
        for t in extra:
            mine[t["colour"]] += 1
        for t in less:
            mine[t["colour"]] -= 1
        return mine

    def expected(self, mine: dict[str, int], obs: dict[str, Any]) -> float:
        """Expected final score of a hoard: face, majority chances, sets, curse."""
        counts = [self.ledger[s] for s in range(len(self.ledger))]
        counts[self.seat] = mine
        return self._scores(counts, obs)[self.seat]

    def _scores(self, counts: list[dict[str, int]], obs: dict[str, Any]) -> list[float]:
        """Every seat's expected final score from its colour counts (the others' from the ledger of
        what they took in public): face, and for each gem the chance to lead it, as the product of
        the chances to beat each other seat (a logistic in the gap, wider while many of that gem
        are still to come); this seat's sets too."""
        rules, n = self.rules, len(counts)
        scores = [float(sum(c[col] * v for col, v in rules["face"].items())) for c in counts]
        late = 1.0 - min(1.0, (obs.get("bag", 60) or 0) / 90.0)  # the majorities settle as the bag empties
        tie = 0.5 if rules["ties"] == "full" else 0.0
        cursed = [rules["curse"] and c["black"] > 0 for c in counts]
        for g in GEMS:
            # 0.06 per gem still to come (0.12 valued gems too little: the gem majorities were lost
            # to bots that collect them; measured in-process against the gauntlet, issue #24).
            spread = 0.7 + (1.0 - late) * 0.06 * max(0, SUPPLY[g] - self.seen[g])
            have = [max(0, c[g]) for c in counts]
            for s in range(n):
                if cursed[s]:
                    continue
                p = 1.0
                for k in range(n):
                    if k != s:
                        p /= 1.0 + 2.718281828 ** (-(have[s] - have[k] + tie) / spread)
                scores[s] += self.bonus * p
        mine = counts[self.seat]
        if cursed[self.seat]:
            return scores
        if rules["sets"] == "per-set":
            low = min(mine[g] for g in GEMS)
            # The next set is worth more the closer it is to complete (convex: its last gem counts most).
            scores[self.seat] += 5 * low + 5 * (sum(1 for g in GEMS if mine[g] > low) / 5) ** 2
        elif rules["sets"] == "once":
            held = sum(1 for g in GEMS if mine[g] > 0)
            scores[self.seat] += 5.0 if held == 5 else 0.7 * held
        return scores

    # ---- standing against the others ----------------------------------------------------------
    def _table(self, obs: dict[str, Any], moves: list[tuple[int, str, int]] = ()) -> list[float]:
        counts = [dict(self.ledger[s]) for s in range(len(self.ledger))]
        counts[self.seat] = self.counts(obs)
        for seat, colour, delta in moves:
            counts[seat][colour] += delta
        return self._scores(counts, obs)

    def weights(self, obs: dict[str, Any]) -> dict[int, float]:
        """How much each other seat's gain counts against this seat's own. The ladder ranks by
        finishing order, so a point matters against the seats whose score is close to this seat's
        (the chance of being passed), little against one far behind: the weight is the
        chance-density of the score gap at zero (normal, narrowing as the bag empties), and 1 for
        every seat level with or ahead of this one."""
        scores = self._table(obs)
        sizes = obs.get("hoard_sizes") or []
        for s in range(len(scores)):
            if s != self.seat and s < len(sizes):  # tokens it holds that no public event showed
                scores[s] += UNSEEN * max(0, sizes[s] - sum(self.ledger[s].values()))
        sigma = 10.0 + 0.2 * (obs.get("bag", 60) or 0)
        mine = scores[self.seat]
        # A seat ahead counts fully: a point it gains is a point further to climb, and handing it
        # most of a shared treasure (as watching games against a hard bargainer showed) costs places.
        f = {s: 1.0 if scores[s] >= mine else 2.718281828 ** (-0.5 * ((scores[s] - mine) / sigma) ** 2)
             for s in range(min(len(scores), self.num_players)) if s != self.seat}
        return f

    def relative(self, obs: dict[str, Any], moves: list[tuple[int, str, int]],
                 weights: dict[int, float] | None = None) -> float:
        """What tokens changing hands (seat, colour, +1/-1) are worth to this seat against the
        others: its own expected gain less the others' gains, each by its weight."""
        w = self.weights(obs) if weights is None else weights
        before, after = self._table(obs), self._table(obs, moves)
        return (after[self.seat] - before[self.seat]) - sum(
            wt * (after[s] - before[s]) for s, wt in w.items())

    def gain(self, obs: dict[str, Any], tokens: list[dict[str, str]]) -> float:
        return self.expected(self.counts(obs, tokens), obs) - self.expected(self.counts(obs), obs)

    def token_worth(self, obs: dict[str, Any], colour: str) -> float:
        return self.gain(obs, [{"id": "", "colour": colour}])

    # ---- sharing --------------------------------------------------------------------------
    def _progress(self, neg: dict[str, Any]) -> float:
        return (neg["round"] - 1) / max(1, neg["rounds"] - 1)

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        self.neg["attack"] = neg["attack"]
        progress = self._progress(neg)
        attack, tokens = neg["attack"], neg["tokens"]
        total, mass = face(tokens), sum(attack.values()) or 1
        need = {}
        last = neg["round"] >= neg["rounds"]
        for s in neg["involved"]:
            if s != self.seat:
                # Offer now what it is expected to accept near the deadline (the others concede over
                # the rounds, and no agreement is made without this seat's vote); in the last round,
                # a margin over that, as a lost treasure costs everyone involved.
                stage = 1.0 if last else max(progress, TARGET)
                bar = self.threshold(s, stage) + (LAST_MARGIN if last else 0.02)
                need[s] = total * attack.get(str(s), 0) / mass * bar
        # Pay with the tokens that cost this seat least, against the others, per unit of the others'
        # face worth: what the token is worth to it, plus what it is worth to the partner it helps most.
        w = self.weights(obs)
        partners = [s for s in neg["involved"] if s != self.seat]
        cost = {}
        for c in {t["colour"] for t in tokens}:
            cost[c] = self.relative(obs, [(self.seat, c, 1)], w) - min(
                (self.relative(obs, [(s, c, 1)], w) for s in partners), default=0.0)
        worth = {t["id"]: cost[t["colour"]] for t in tokens}
        order = sorted(tokens, key=lambda t: (worth[t["id"]] / VALUE[t["colour"]], -VALUE[t["colour"]], t["id"]))
        shares: dict[int, list[str]] = {s: [] for s in neg["involved"]}
        got = dict.fromkeys(need, 0.0)
        for t in order:
            short = [s for s in need if got[s] < need[s] - 1e-9]
            if not short:
                shares[self.seat].append(t["id"])
                continue
            s = max(short, key=lambda s: (need[s] - got[s], -s))
            shares[s].append(t["id"])
            got[s] += VALUE[t["colour"]]
        # Claw back what overshoots: the smallest tokens a seat can spare while still over its bar.
        for s in need:
            for tid in sorted(shares[s], key=lambda i: -worth[i]):
                v = VALUE[next(t["colour"] for t in tokens if t["id"] == tid)]
                if got[s] - v >= need[s] - 1e-9:
                    shares[s].remove(tid)
                    shares[self.seat].append(tid)
                    got[s] -= v
        return {"shares": {str(s): ids for s, ids in shares.items()}}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        neg = obs["negotiation"]
        self.neg["attack"] = neg["attack"]
        progress = self._progress(neg)
        colours = {t["id"]: t for t in neg["tokens"]}
        whole = self.gain(obs, neg["tokens"])
        attack, mass = neg["attack"], sum(neg["attack"].values()) or 1
        fair = whole * attack.get(str(self.seat), 0) / mass
        last = neg["round"] >= neg["rounds"]
        # A hard line that softens with the deadline: others concede first, and most do.
        bar = LAST_BAR if last else OPENING_BAR - (OPENING_BAR - LATE_BAR) * progress
        # Measured against the others: a split is judged by what this seat gains less what it hands
        # the seats it competes with, against the split by attack; and a treasure lost is worth 0 to
        # everyone involved, so no split that leaves this seat worse off against them is taken.
        w = self.weights(obs)
        worth = {s: self.relative(obs, [(int(s), t["colour"], 1) for t in neg["tokens"]], w) for s in attack}
        even = sum(worth[s] * attack[s] / mass for s in attack)
        accept = []
        for p in neg["standing"]:
            if p["proposer"] == self.seat:
                continue
            mine = self.gain(obs, [colours[t] for t in p["shares"].get(str(self.seat), [])])
            rel = self.relative(obs, [(int(s), colours[t]["colour"], 1) for s, ids in p["shares"].items()
                                      for t in ids if t in colours], w)
            if (mine > 0 and rel >= max(even + (bar - 1.0) * fair, 0.0) - 1e-9) or fair <= 0 < mine:
                accept.append(p["id"])
        return {"accept": accept}

    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        # The divider takes the last share: shares of even worth as the others see it.
        k, tokens = obs["request"]["shares"], obs["strategic"]["tokens"]
        shares: list[list[dict[str, str]]] = [[] for _ in range(k)]
        for t in sorted(tokens, key=lambda t: (-VALUE[t["colour"]], t["id"])):
            min(shares, key=lambda s: (face(s), len(s))).append(t)
        for share in shares:
            if not share and len(tokens) >= k:
                share.append(max(shares, key=len).pop())
        return {"shares": [[t["id"] for t in share] for share in shares]}

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        st = obs["strategic"]
        colours = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"],
                   key=lambda i: (self.gain(obs, [colours[t] for t in st["shares"][i]]), -i))
        return {"share": best}

    # ---- fighting -------------------------------------------------------------------------
    def _options(self, obs: dict[str, Any], ready: list[str], bonus: int = 0) -> list[tuple[float, str, str]]:
        mine = {a["id"]: a["attack"] for a in obs["adventurers"][self.seat]}
        per_token = 1.0 + 0.1 * len(obs.get("hoard", []))  # rough worth of a hidden token
        sizes = obs.get("hoard_sizes", [])
        options = []
        for dragon in (d for d in obs["dragons"] if d):
            known = self.gain(obs, dragon["tokens"])
            loot = known + per_token * min(dragon["hidden"], obs.get("bag", 0))
            mine_now = sum(a["attack"] for a in dragon["attackers"] if a["seat"] == self.seat)
            others = {a["seat"] for a in dragon["attackers"] if a["seat"] != self.seat}
            for adv in ready:
                hit = mine[adv] + bonus
                total = dragon["total"] + hit
                share = (mine_now + hit) / total
                if total >= dragon["strength"]:
                    if not others:
                        score = loot
                    else:
                        # A shared kill: the expected agreed share, and the wizard/thief extras.
                        score = 0.8 * loot * share
                        thief = adv == "thief" or any(a["seat"] == self.seat and a["adventurer"] == "thief"
                                                      for a in dragon["attackers"])
                        if thief and any(sizes[s] if s < len(sizes) else 0 for s in others):
                            score += 2.0
                else:
                    left = dragon["strength"] - total
                    solo_later = not others and left <= max(mine[a] for a in ready if a != adv) if len(ready) > 1 \
                        else False
                    score = (0.5 if solo_later else 0.3) * loot * share - (2.5 if left <= 2 else 0.0)
                options.append((score - 0.35 * hit, adv, dragon["id"]))
        return sorted(options, reverse=True)

    def _attack_resume(self, obs: dict[str, Any]) -> tuple[Any, int] | None:
        """(the card effects of this turn, which attack of the turn) as the forward model resumes
        this seat's attack, for clone_at_attack; None if the model's module does not say."""
        try:
            from ladder.games.drachengold.rules import forward

            return forward._turn_so_far(self.model.events, obs["current"])
        except (ImportError, AttributeError, KeyError, TypeError):
            return None

    def on_end(self, message: dict[str, Any]) -> None:
        if self.sampled:
            ordered = sorted(self.sampled)
            self.log(f"searches {self.searches}, failures {self.failures}, samples per search: "
                     f"median {ordered[len(ordered) // 2]}, least {ordered[0]}")

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        options = [o for o in self._options(obs, req["adventurers"]) if o[2] in req["dragons"]]
        _, adv, dragon = options[0]
        return {"adventurer": adv, "dragon": dragon}

    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        cards = {c["kind"]: c["id"] for c in obs["request"]["cards"]}
        ready = [a["id"] for a in obs["adventurers"][self.seat] if a["face"] == "up" and a["dragon"] is None]
        face_down = sum(1 for a in obs["adventurers"][self.seat] if a["face"] == "down" and a["dragon"] is None)
        if "windfall" in cards and obs["bag"] > 0:
            return {"card": cards["windfall"]}
        if "might" in cards and ready:
            with_might, without = self._options(obs, ready, bonus=3), self._options(obs, ready)
            if with_might and with_might[0][0] > without[0][0] + 3:
                return {"card": cards["might"]}
        if "second_wind" in cards and face_down >= 2:
            return {"card": cards["second_wind"]}
        if "double_strike" in cards and len(ready) >= 2:
            return {"card": cards["double_strike"]}
        return {"card": None}

    # ---- thieves and the market -------------------------------------------------------------
    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        # A token taken from a seat counts twice against it: rob the closest rival (then the biggest hoard).
        sizes, w = obs["request"]["hoard_sizes"], self.weights(obs)
        return {"victim": max(obs["request"]["candidates"],
                              key=lambda s: (round(w.get(s, 0.0), 2), sizes[str(s)], -s))}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        victim, hoard = obs["request"]["victim"], obs["request"]["hoard"]
        # The wizard shows the victim's whole hoard: the ledger learns it exactly.
        self.ledger[victim] = dict.fromkeys(VALUE, 0)
        self._take(victim, hoard)
        w = self.weights(obs)
        worth = {c: self.relative(obs, [(self.seat, c, 1), (victim, c, -1)], w) for c in {t["colour"] for t in hoard}}
        return {"token": max(hoard, key=lambda t: (worth[t["colour"]], t["id"]))["id"]}

    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        """Offer tokens this seat values least for a gem that raises its expected score, priced so
        a partner who counts face worth gains too, to the seat most likely to hold that gem."""
        hoard = sorted(obs["hoard"], key=lambda t: t["id"])
        one = {}
        for t in hoard:  # one token of each colour is enough to price an offer
            one.setdefault(t["colour"], t)
        gives = [[t] for t in one.values()] + [[a, b] for i, a in enumerate(one.values())
                                                for b in list(one.values())[i + 1:]]
        now = self.expected(self.counts(obs), obs)
        ideas = []
        for want in GEMS:
            for give in gives:
                if any(t["colour"] == want for t in give) or face(give) <= VALUE[want]:
                    continue
                after = self.expected(self.counts(obs, [{"id": "", "colour": want}], give), obs)
                if after - now > MARKET_GAIN:
                    ideas.append((after - now, want, give))
        holders = [s for s in range(obs["players"]) if s != self.seat and obs["hoard_sizes"][s] > 0]
        offers, used, partners = [], set(), set()
        w = self.weights(obs)
        for _gain, want, give in sorted(ideas, key=lambda i: (-i[0], i[1], [t["id"] for t in i[2]])):
            ids = {t["id"] for t in give}
            free = [s for s in holders if s not in partners and self.ledger[s][want] > 0]
            if ids & used or not free:
                continue
            # The likeliest holder whose trade still leaves this seat ahead against the others.
            free = [s for s in sorted(free, key=lambda s: (-self.ledger[s][want], s))
                    if self.relative(obs, self._swap(s, give, {want: 1}), w) > MARKET_GAIN]
            if not free:
                continue
            to = free[0]
            offers.append({"to": to, "give": sorted(ids), "want": {want: 1}})
            used |= ids
            partners.add(to)
            if len(offers) == obs["request"]["max_offers"]:
                break
        return {"offers": offers}

    def _swap(self, partner: int, give: list[dict[str, str]], want: dict[str, int]) -> list[tuple[int, str, int]]:
        """The moves of a trade: this seat gives `give` to partner for `want` (colour counts)."""
        moves = [(self.seat, t["colour"], -1) for t in give] + [(partner, t["colour"], 1) for t in give]
        for colour, count in want.items():
            moves += [(self.seat, colour, 1), (partner, colour, -1)] * count
        return moves

    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        held = list(obs["hoard"])  # the hoard once the trades accepted so far are made
        free = list(obs["hoard"])  # what it can pay with: tokens received are not its own until then
        accept = []
        for offer in obs["request"]["offers"]:
            pay: list[dict[str, str]] = []
            for colour, count in offer["want"].items():
                pay += sorted((t for t in free if t["colour"] == colour), key=lambda t: t["id"])[:count]
            if len(pay) != sum(offer["want"].values()):
                continue
            now = {**obs, "hoard": held}
            got: dict[str, int] = {}
            for t in offer["give"]:
                got[t["colour"]] = got.get(t["colour"], 0) + 1
            # Judged against the others: what the partner gains (it may be a rival for the same gem) counts too.
            if self.relative(now, self._swap(offer["from"], pay, got)) > 0.5:
                held = [t for t in held if t not in pay] + list(offer["give"])
                free = [t for t in free if t not in pay]
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
        return {"accept": accept}


# ---- the search -----------------------------------------------------------------------------------

WALL_BUDGET = 0.27  # seconds of wall clock per searched decision (the clock allows 1 s, the bank 10 s)
CPU_BUDGET = 0.25  # and of this process's CPU: a loaded machine slows the wall clock, never the CPU
MAX_SAMPLES = 200  # determinizations per decision at most (each tries every candidate)
CANDIDATES = 6  # strong's best attacks tried
HORIZON = 2  # rounds of play after the attack (each seat's turn once per round)
MARGIN = 0.02  # the search must beat strong's first choice by this much (in pairwise wins per seat)
SEARCH_ATTACK = True
CLONE = True  # copy each sample for every candidate (clone_at_attack) rather than sample it again
EVAL = "pairwise"  # or "margin": expected score less the best other's
WIDTH = 3.0  # the pairwise chance's logistic width in points, at an empty bag


class _Clock:
    def __init__(self, wall: float, cpu: float) -> None:
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()
        self.wall, self.cpu = wall, cpu

    def over(self) -> bool:
        return time.perf_counter() - self.wall0 > self.wall or time.process_time() - self.cpu0 > self.cpu


# ---- the fast policy, on a full state ---------------------------------------------------------

_TOKEN_VALUE: tuple[float, ...] = ()
_TOKEN_COLOUR: tuple[str, ...] = ()


def _token_tables() -> None:
    global _TOKEN_VALUE, _TOKEN_COLOUR
    if not _TOKEN_VALUE:
        from ladder.games.drachengold.rules.data import TOKEN_COLOURS

        _TOKEN_COLOUR = TOKEN_COLOURS
        _TOKEN_VALUE = tuple(VALUE[c] for c in TOKEN_COLOURS)


def _token_id(t: int) -> str:
    return f"t{t}"


def _fast_attack(state: Any, seat: int, info: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    advs = state.advs
    mine = advs[seat]
    best, choice = -1e9, None
    allowed = info["dragons"]
    for slot in state.table:
        if slot is None or slot.dragon["id"] not in allowed:
            continue
        d = slot.dragon
        total, my_now, others = 0, 0, False
        for s, a, b in slot.attackers:
            hit = advs[s][a].attack + b
            total += hit
            if s == seat:
                my_now += hit
            else:
                others = True
        loot = 2.0 * d["hidden"]
        for t in slot.tokens:
            loot += _TOKEN_VALUE[t]
        for a in info["adventurers"]:
            hit = mine[a].attack
            after = total + hit
            share = (my_now + hit) / after
            if after >= d["strength"]:
                score = loot if not others else 0.8 * loot * share
            else:
                score = 0.35 * loot * share - (2.0 if d["strength"] - after <= 2 else 0.0)
            score += -0.3 * hit + rng.random() * 0.5
            if score > best:
                best, choice = score, (a, d["id"])
    return {"adventurer": choice[0], "dragon": choice[1]}


def _fast_split(state: Any) -> dict[str, Any]:
    """Every token by its face worth to the seat furthest below its part by attack."""
    ctx = state.negotiation
    attack = ctx["attack"]
    involved = ctx["involved"]
    mass = sum(attack.values()) or 1
    pool = [int(t["id"][1:]) for t in ctx["tokens"]]
    pool.sort(key=lambda t: -_TOKEN_VALUE[t])
    total = sum(_TOKEN_VALUE[t] for t in pool)
    got = dict.fromkeys(involved, 0.0)
    shares: dict[str, list[str]] = {str(s): [] for s in involved}
    for t in pool:
        s = max(involved, key=lambda s: (attack.get(str(s), 0) / mass * total - got[s], -s))
        got[s] += _TOKEN_VALUE[t]
        shares[str(s)].append(_token_id(t))
    return {"shares": shares}


def fast_decision(state: Any, rng: random.Random) -> dict[str, Any]:
    """The rollout policy's decision for the pending seat of a full state."""
    req = state._request
    kind, seat, info = req.kind, req.seat, req.info
    if kind == "attack":
        return _fast_attack(state, seat, info, rng)
    if kind == "propose":
        ctx = state.negotiation
        return _fast_split(state) if ctx["order"][0] == seat and not ctx["standing"] else {}
    if kind == "vote":
        return {"accept": list(info["proposals"])}
    if kind == "magic":
        for c in info["cards"]:
            if c["kind"] == "windfall" and state.bag:
                return {"card": c["id"]}
        return {"card": None}
    if kind == "theft_victim":
        sizes = info["hoard_sizes"]
        return {"victim": max(info["candidates"], key=lambda s: (sizes[str(s)], -s))}
    if kind == "theft_pick":
        return {"token": max(info["hoard"], key=lambda t: (VALUE[t["colour"]], t["id"]))["id"]}
    if kind == "market_offer":
        return {"offers": []}
    if kind == "market_answer":
        return {"accept": []}
    return state.default_decision()  # divide, choose: the rules' safe default


def rollout(state: Any, rng: random.Random, turns: int) -> None:
    """Plays the fast policy for every seat until `turns` more turns have started, or the game ends."""
    start = state.turn
    while state._request is not None:
        if state.turn - start >= turns and state._request.kind in ("attack", "magic"):
            return
        state._apply(state._request.seat, fast_decision(state, rng))


def clone_at_attack(base: Any, effects: Any, strike: int) -> Any:
    """An independent copy of a sampled state that waits for its seat's attack, made far faster
    than a new sample (ForwardModel.copy samples again: a running flow cannot be deep-copied):
    the pieces copied, the flow started anew at that attack (`effects`, `strike`: the card played
    this turn and which of the turn's attacks this is, as a determinization resumes it)."""
    from ladder.games.drachengold.rules.flow import Resume
    from ladder.games.drachengold.rules.magic import TurnEffects
    from ladder.games.drachengold.rules.observation import SortedHoards
    from ladder.games.drachengold.rules.pieces import Adventurer, Slot

    st = base.__class__.__new__(base.__class__)
    d = dict(base.__dict__)
    d.pop("_forward_recipe", None)
    d["hoards"] = [list(h) for h in base.hoards]
    d["bag"], d["box"], d["dead"], d["pile"] = list(base.bag), list(base.box), list(base.dead), list(base.pile)
    d["table"] = [None if s is None else Slot(s.dragon, list(s.tokens), list(s.attackers), list(s.first_placed))
                  for s in base.table]
    d["advs"] = [{k: Adventurer(a.id, a.attack, a.role, a.up, a.dragon) for k, a in advs.items()}
                 for advs in base.advs]
    d["entries"] = [[a.entry for a in advs.values()] for advs in d["advs"]]
    d["hands"] = [list(h) for h in base.hands]
    d["magic_deck"], d["magic_discard"] = list(base.magic_deck), list(base.magic_discard)
    d["events"] = []  # the rollout reads none
    d["sorted_hoards"] = SortedHoards([None] * base.num_players)
    d["rng"] = random.Random()
    d["rng"].setstate(base.rng.getstate())
    st.__dict__.update(d)
    st._flow = st._play(Resume(TurnEffects(effects.might, effects.double_strike), strike))
    st._request = next(st._flow, None)
    return st


# ---- judging a position ---------------------------------------------------------------------------

def evaluate(state: Any, seat: int, rules: dict[str, Any]) -> float:
    """The chance-weighted number of seats this seat finishes above, from every seat's expected
    final score on the state's hoards (exact once the game is over)."""
    n = state.num_players
    if state._request is None:
        scores = state.scores()
        mine = scores[seat]
        return sum(1.0 if mine > scores[s] else 0.5 if mine == scores[s] else 0.0 for s in range(n) if s != seat)
    counts = [dict.fromkeys(VALUE, 0) for _ in range(n)]
    for s in range(n):
        c = counts[s]
        for t in state.hoards[s]:
            c[_TOKEN_COLOUR[t]] += 1
    left = dict.fromkeys(VALUE, 0)
    for t in state.bag:
        left[_TOKEN_COLOUR[t]] += 1
    for slot in state.table:
        if slot is not None:
            for t in slot.tokens:
                left[_TOKEN_COLOUR[t]] += 1
    face = rules["face"]
    bonus = rules["majority"].get(max(3, n), 12)
    scores = [float(sum(c[col] * v for col, v in face.items())) for c in counts]
    tie = 0.5 if rules["ties"] == "full" else 0.0
    cursed = [rules["curse"] and c["black"] > 0 for c in counts]
    for g in GEMS:
        spread = 0.7 + 0.12 * left[g]
        have = [c[g] for c in counts]
        for s in range(n):
            if cursed[s]:
                continue
            p = 1.0
            for k in range(n):
                if k != s:
                    p /= 1.0 + 2.718281828 ** (-(have[s] - have[k] + tie) / spread)
            scores[s] += bonus * p
    for s in range(n):
        if cursed[s]:
            continue
        c = counts[s]
        if rules["sets"] == "per-set":
            scores[s] += 5 * min(c[g] for g in GEMS)
        elif rules["sets"] == "once" and all(c[g] for g in GEMS):
            scores[s] += 5.0
    mine = scores[seat]
    if EVAL == "margin":
        return mine - max(scores[s] for s in range(n) if s != seat)
    width = WIDTH + 0.08 * len(state.bag)
    return sum(1.0 / (1.0 + 2.718281828 ** (-(mine - scores[s]) / width)) for s in range(n) if s != seat)


class BossBot(StrongCore):
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.model = ForwardModel(hello)
        self.search_rules = SCORING.get(self.options.get("rules", "basic"), SCORING["basic"])
        self.searches = 0
        self.failures = 0
        self.sampled: list[int] = []  # samples each search played (the log's last line sums them up)

    def on_event(self, event: dict[str, Any]) -> None:
        super().on_event(event)
        self.model.observe(event)

    # ---- the search ------------------------------------------------------------------------------
    def _search(self, obs: dict[str, Any], candidates: list[dict[str, Any]]) -> dict[str, Any]:
        """The candidate (a decision for this seat's pending request) with the best mean outcome on
        the same sampled states; the first candidate unless another beats it by MARGIN."""
        if len(candidates) < 2:
            return candidates[0]
        _token_tables()
        clock = _Clock(WALL_BUDGET, CPU_BUDGET)
        totals = [0.0] * len(candidates)
        samples = 0
        base = self.rng.getrandbits(32)
        resume = self._attack_resume(obs) if CLONE and obs["request"]["kind"] == "attack" else None
        try:
            while samples < MAX_SAMPLES and not clock.over():
                row = []
                sample = self.model.sample(obs, random.Random(base + samples)) if resume else None
                for decision in candidates:
                    if row and clock.over():
                        break  # a sample every candidate has not played counts for none
                    # The same sampled state and the same rollout dice for every candidate.
                    if resume:
                        state = clone_at_attack(sample, *resume)
                    else:
                        state = self.model.sample(obs, random.Random(base + samples))
                    state.apply(self.seat, decision)
                    rollout(state, random.Random(base + samples + 7919), HORIZON * self.num_players)
                    row.append(evaluate(state, self.seat, self.search_rules))
                if len(row) < len(candidates):
                    break
                totals = [t + v for t, v in zip(totals, row, strict=True)]
                samples += 1
        except Exception as exc:  # a model that fails falls back to the heuristic's choice
            self.failures += 1
            self.log(f"search failed: {exc!r}")
            return candidates[0]
        self.searches += 1
        self.sampled.append(samples)
        if samples == 0:
            return candidates[0]
        means = [t / samples for t in totals]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        return candidates[best] if means[best] > means[0] + MARGIN else candidates[0]

    def on_end(self, message: dict[str, Any]) -> None:
        if self.sampled:
            ordered = sorted(self.sampled)
            self.log(f"searches {self.searches}, failures {self.failures}, samples per search: "
                     f"median {ordered[len(ordered) // 2]}, least {ordered[0]}")

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        options = [o for o in self._options(obs, req["adventurers"]) if o[2] in req["dragons"]]
        candidates = [{"adventurer": adv, "dragon": dragon} for _, adv, dragon in options[:CANDIDATES]]
        if not SEARCH_ATTACK:
            return candidates[0]
        return self._search(obs, candidates)


if __name__ == "__main__":
    run(BossBot)
