# Over 400 lines: an outside bot is one file, as its author wrote it from the docs.
"""Gauntlet bot for Drachengold, style: MARKET TRADER.

Written by an outside author (gauntlet2) from the public docs only: README.md, docs/rules.md,
docs/protocol.md, bots/sdk.py, bots/forward.py, the SDK and forward-model sections of
docs/bots.md and the Python starter kit (bots/examples/python). No house bot's code was read;
the house bots were only played against as black boxes (`ladder match` / `ladder tournament`).

The style: the market (docs/rules.md rows 84-92) opens once, after the 7th dragon drawn from the
pile, for `market_rounds` rounds of up to three offers each. This bot plays it hard: it tracks
which colours every seat took in public splits, solo kills and seizures, and each round sends
every offer it may, each asking one gem of a colour where one more token wins or keeps a
majority (or completes a five-gem set under the advanced rules), to the seat most likely to hold
it, paying with the tokens whose loss costs it least (silver, red, gems it cannot win, and gold
when the gem is worth it), sweetening the price round after round when offers go unanswered, and
offering the same spare tokens to two holders (the second accepted offer is skipped). It answers
offers by its own end-score change. Before the market it leans its splits toward the gem colours
it can still win; outside the market it negotiates reasonably (an attack-weighted fair split,
conceding round by round) and plays adventurers like the rest of gauntlet2's bots.
"""

from __future__ import annotations

import math

from bots.sdk import Bot, run

# ---- shared core (the same text in modeller.py, merchant.py and planner.py) ----
GEMS = ("blue", "green", "purple", "yellow", "white")
BAG = {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12, "purple": 12, "yellow": 12,
       "white": 6, "black": 1}
ATTACK = {"k4": 4, "k3": 3, "thief": 2, "wizard": 1}


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


class Valuer:
    """Scores hoards for one seat: exact points for silver, gold, red and black, and for each gem
    colour the majority bonus times a smooth chance of holding the most at the end."""

    def __init__(self, players: int, options: dict) -> None:
        self.players = players
        self.rules = options.get("rules", "basic")
        adv = self.rules != "basic"
        if adv:
            self.bonus = 12 if players == 3 else (10 if players <= 5 else 8)
        else:
            self.bonus = 15 if players == 3 else (12 if players <= 5 else 10)
        self.black = {"basic": 7, "advanced-a": 19, "advanced-b": 15}.get(self.rules, 7)
        self.advanced = adv

    def score(self, mine: dict, others_max: dict, remaining: dict) -> float:
        v = mine.get("silver", 0) + 3 * mine.get("gold", 0) + mine.get("red", 0)
        if self.advanced:
            v += 0.8 * mine.get("red", 0)  # a wizard's red token draws a Magic Object card
        if mine.get("black", 0):
            v += self.black
            if self.advanced:
                return v  # cursed: no majority, no set
        for c in GEMS:
            m, o = mine.get(c, 0), others_max.get(c, 0)
            # no skipping m == 0: the first gem of a colour is worth what any other one is, not
            # the whole chance of the bonus (that made this bot give away silver and gold for it)
            scale = 0.7 + 0.35 * math.sqrt(remaining.get(c, 0))
            edge = (m - o + (0.5 if not self.advanced else 0.0)) / scale
            v += self.bonus * sigmoid(edge)
        if self.rules == "advanced-a":
            counts = [mine.get(c, 0) for c in GEMS]
            low = min(counts)
            v += 5 * low + sum(1 for x in counts if x > low) * 0.6
        elif self.rules == "advanced-b":
            have = sum(1 for c in GEMS if mine.get(c, 0) > 0)
            v += 5 if have == 5 else have * 0.5
        return v


class DrachengoldCore(Bot):
    """What every gauntlet2 Drachengold bot shares: tracking the table, valuing tokens, playing
    adventurers, thefts, magic, strategic splits and a reasonable market."""

    # ---------------------------------------------------------------- tracking the table

    def setup(self, hello: dict) -> None:
        super().setup(hello)
        self.valuer = Valuer(self.num_players, self.options)
        self.est = [dict() for _ in range(self.num_players)]  # estimated colour counts per seat
        self.seen = {c: 0 for c in BAG}  # tokens that left the bag, by colour
        self.colour_of: dict[str, str] = {}
        self.might = False
        self.division_tokens: list = []
        self.division_shares: list = []

    def _gain(self, seat: int, tokens: list, sign: float = 1.0) -> None:
        if seat is None or not (0 <= seat < self.num_players):
            return
        for t in tokens:
            colour = t["colour"] if isinstance(t, dict) else self.colour_of.get(t)
            if colour:
                self.est[seat][colour] = max(0.0, self.est[seat].get(colour, 0) + sign)

    def _see(self, tokens: list) -> None:
        for t in tokens:
            if t["id"] not in self.colour_of:
                self.colour_of[t["id"]] = t["colour"]
                self.seen[t["colour"]] = self.seen.get(t["colour"], 0) + 1

    def on_event(self, event: dict) -> None:
        kind, data = event.get("type"), event.get("data") or {}
        try:
            self.track(kind, data)
        except Exception as exc:  # tracking is best effort: never lose a decision over it
            self.log(f"tracking {kind}: {exc!r}")

    def track(self, kind: str, data: dict) -> None:
        if kind == "setup":
            for d in data.get("dragons") or []:
                if d:
                    self._see(d.get("tokens", []))
        elif kind == "dragon":
            self._see(data.get("tokens", []))
        elif kind == "kill":
            self._see(data.get("tokens", []))
            self._see(data.get("hidden", []))
        elif kind in ("treasure_taken", "wizard_seizes"):
            self._gain(data.get("seat"), data.get("tokens", []))
        elif kind == "split":
            for seat, tokens in (data.get("shares") or {}).items():
                self._gain(int(seat), tokens)
        elif kind == "divide":
            self._see(data.get("tokens", []))
        elif kind == "division":
            self.division_shares = data.get("shares") or []
        elif kind == "chosen":
            shares = self.division_shares
            i = data.get("share")
            if isinstance(i, int) and 0 <= i < len(shares):
                self._gain(data.get("seat"), shares[i])
        elif kind == "stolen":
            colour = data.get("colour")
            tok = [{"id": data.get("token"), "colour": colour}]
            self._gain(data.get("victim"), tok, -1.0)
            self._gain(data.get("seat"), tok, 1.0)
        elif kind == "theft":
            thief, victim = data.get("seat"), data.get("victim")
            if self.seat in (thief, victim):
                return  # the private `stolen` event says exactly what moved
            vic = self.est[victim]
            n = sum(vic.values())
            if n > 0:
                for c in list(vic):
                    share = vic[c] / n
                    vic[c] -= share
                    self.est[thief][c] = self.est[thief].get(c, 0) + share
        elif kind == "trade_done":
            give = data.get("give") or []
            pay = data.get("pay") or []
            self._gain(data.get("from"), give, -1.0)
            self._gain(data.get("to"), give, 1.0)
            self._gain(data.get("to"), pay, -1.0)
            self._gain(data.get("from"), pay, 1.0)
        elif kind == "windfall":
            self._see(data.get("tokens", []))
        elif kind == "card_played" and data.get("kind") == "windfall":
            pass  # two unknown tokens: the bag count tells the rest

    # ---------------------------------------------------------------- valuing tokens

    def counts(self, tokens: list) -> dict:
        out: dict = {}
        for t in tokens:
            out[t["colour"]] = out.get(t["colour"], 0) + 1
        return out

    def others_max(self, exclude: int | None = None) -> dict:
        skip = self.seat if exclude is None else exclude
        out = {}
        for c in GEMS:
            out[c] = max((self.est[s].get(c, 0) for s in range(self.num_players) if s != skip), default=0)
        return out

    def remaining(self) -> dict:
        return {c: max(0, BAG[c] - self.seen.get(c, 0)) for c in BAG}

    def my_value(self, hoard_counts: dict, extra: list | dict = ()) -> float:
        mine = dict(hoard_counts)
        items = extra.items() if isinstance(extra, dict) else ((t["colour"], 1) for t in extra)
        for c, n in items:
            mine[c] = mine.get(c, 0) + n
        return self.valuer.score(mine, self.others_max(), self.remaining())

    def gain_of(self, obs: dict, tokens: list) -> float:
        """How much my estimated end score grows with these tokens added to my hoard."""
        base = self.counts(obs.get("hoard") or [])
        return self.my_value(base, tokens) - self.my_value(base)

    def public_value(self, colour: str) -> float:
        """A seat-neutral token value, to measure what a split gives each seat."""
        if colour == "gold":
            return 3.0
        if colour in GEMS:
            return 3.0
        if colour == "black":
            return 7.0 if self.valuer.rules == "basic" else 10.0
        return 1.0

    def bag_token_value(self, obs: dict) -> float:
        rem = self.remaining()
        total = sum(rem.values()) or 1
        base = self.counts(obs.get("hoard") or [])
        now = self.my_value(base)
        v = 0.0
        for c, n in rem.items():
            if n:
                v += n / total * (self.my_value(base, {c: 1}) - now)
        return v

    # ---------------------------------------------------------------- adventurers

    def sync_hoard(self, obs: dict) -> None:
        self.est[self.seat] = self.counts(obs.get("hoard") or [])

    def attack_options(self, obs: dict) -> list:
        """Every legal attack with a heuristic value, best first."""
        self.sync_hoard(obs)
        req = obs["request"]
        dragons = {d["id"]: d for d in obs.get("dragons") or [] if d}
        mine = (obs.get("adventurers") or [[]] * self.num_players)[self.seat]
        up_attack = {a["id"]: a["attack"] for a in mine if a.get("face") == "up" and not a.get("dragon")}
        bag_v = self.bag_token_value(obs)
        strategic = self.options.get("split") == "strategic"
        opts = []
        for adv in req["adventurers"]:
            att = ATTACK.get(adv, 1) + (3 if self.might else 0)
            rest = sum(v for a, v in up_attack.items() if a != adv)
            for did in req["dragons"]:
                d = dragons.get(did)
                if d is None:
                    opts.append((-99.0, adv, did))
                    continue
                known = d.get("tokens") or []
                hidden = d.get("hidden", 0) if obs.get("bag", 1) > 0 else 0
                treasure = self.gain_of(obs, known) + hidden * bag_v
                seats = {a["seat"] for a in d.get("attackers") or []}
                my_att = sum(a["attack"] for a in d.get("attackers") or [] if a["seat"] == self.seat) + att
                total = d.get("total", 0) + att
                others = seats - {self.seat}
                if total >= d["strength"]:
                    if not others:
                        value = treasure
                    else:
                        k = len(others) + 1
                        frac = 0.5 * (1.0 / k) + 0.5 * my_att / total
                        if strategic:
                            frac = 0.85 / k + 0.15 * my_att / total
                        value = treasure * frac * self.share_confidence(others)
                    if (adv == "thief" or any(a["seat"] == self.seat and a["adventurer"] == "thief"
                                             for a in d.get("attackers") or [])) and others:
                        value += 2.0
                    value -= 0.25 * (total - d["strength"])  # overkill wastes attack
                    value += 0.5  # a kill now is sure
                else:
                    need = d["strength"] - total
                    k = len(others) + 1
                    if not others and rest >= need:
                        p = 0.55  # I may finish it alone next turns, unless someone joins
                        frac = 0.8
                    else:
                        p = 0.6 if need <= 4 else 0.35
                        frac = my_att / (total + need) * 0.7 + 0.3 / (k + 1)
                    value = p * frac * treasure - 0.4 * att - 0.8
                opts.append((value, adv, did))
        opts.sort(key=lambda o: -o[0])
        return opts

    def share_confidence(self, others: set) -> float:
        return 0.85

    def attack(self, obs: dict) -> dict:
        opts = self.attack_options(obs)
        self.might = False
        _, adv, did = opts[0]
        return {"adventurer": adv, "dragon": did}

    def magic(self, obs: dict) -> dict:
        req = obs["request"]
        cards = {c["kind"]: c["id"] for c in req.get("cards") or []}
        mine = (obs.get("adventurers") or [[]] * self.num_players)[self.seat]
        up = [a for a in mine if a.get("face") == "up" and not a.get("dragon")]
        down = [a for a in mine if a.get("face") == "down"]
        if "windfall" in cards:
            return {"card": cards["windfall"]}
        if "second_wind" in cards and len(up) <= 1 and len(down) >= 2:
            return {"card": cards["second_wind"]}
        if "might" in cards and up:
            # worth it when +3 turns a near miss into a kill
            for d in obs.get("dragons") or []:
                if not d:
                    continue
                for a in up:
                    tot = d.get("total", 0) + a["attack"]
                    if tot < d["strength"] <= tot + 3:
                        self.might = True
                        return {"card": cards["might"]}
        if "double_strike" in cards and len(up) >= 2:
            return {"card": cards["double_strike"]}
        return {"card": None}

    # ---------------------------------------------------------------- thefts

    def theft_victim(self, obs: dict) -> dict:
        req = obs["request"]
        sizes = req.get("hoard_sizes") or {}
        return {"victim": max(req["candidates"], key=lambda s: (sizes.get(str(s), 0), -s))}

    def theft_pick(self, obs: dict) -> dict:
        hoard = obs["request"]["hoard"]
        best = max(hoard, key=lambda t: self.gain_of(obs, [t]))
        return {"token": best["id"]}

    # ---------------------------------------------------------------- strategic split

    def divide(self, obs: dict) -> dict:
        k = obs["request"]["shares"]
        tokens = sorted(obs["strategic"]["tokens"], key=lambda t: -self.public_value(t["colour"]))
        shares: list = [[] for _ in range(k)]
        totals = [0.0] * k
        for t in tokens:  # the biggest token to the poorest share: the others pick first, I get the rest
            i = min(range(k), key=lambda j: (len(shares[j]) > 0, totals[j]) if len(tokens) >= k else totals[j])
            if len(tokens) >= k and any(not s for s in shares):
                i = next(j for j in range(k) if not shares[j])
            shares[i].append(t)
            totals[i] += self.public_value(t["colour"])
        return {"shares": [[t["id"] for t in s] for s in shares]}

    def choose(self, obs: dict) -> dict:
        st = obs["strategic"]
        by_id = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"],
                   key=lambda i: self.gain_of(obs, [by_id[x] for x in (st["shares"][i] or []) if x in by_id]))
        return {"share": best}

    # ---------------------------------------------------------------- market

    def market_offer(self, obs: dict) -> dict:
        return {"offers": self.market_offers(obs, aggressive=False)}

    def market_offers(self, obs: dict, aggressive: bool) -> list:
        self.sync_hoard(obs)
        limit = obs["request"].get("max_offers", 0)
        hoard = obs.get("hoard") or []
        if limit < 1 or not hoard:
            return []
        base = self.counts(hoard)
        now = self.my_value(base)
        # what each colour is worth to me, one more or one less
        plus = {c: self.my_value(base, {c: 1}) - now for c in BAG}
        minus = {}
        for c, n in base.items():
            if n:
                less = dict(base)
                less[c] -= 1
                minus[c] = now - self.my_value(less)
        wanted = sorted(GEMS, key=lambda c: -plus[c])
        offers, used = [], set()
        sizes = obs.get("hoard_sizes") or []
        for c in wanted:
            if len(offers) >= limit:
                break
            # the seat most likely to hold that colour
            holders = sorted((s for s in range(self.num_players)
                              if s != self.seat and (sizes[s] if s < len(sizes) else 0) > 0),
                             key=lambda s: -self.est[s].get(c, 0))
            if not holders or self.est[holders[0]].get(c, 0) < 0.5:
                continue
            # pay with my least useful tokens whose loss costs me less than the gem gives
            spare = sorted((t for t in hoard if t["id"] not in used and t["colour"] != c),
                           key=lambda t: minus.get(t["colour"], 0) - 0.1 * self.public_value(t["colour"]))
            give, cost = [], 0.0
            target = 1 if not aggressive else 2
            for t in spare:
                if len(give) >= target:
                    break
                give.append(t)
                cost += minus.get(t["colour"], 0)
            if not give or cost >= plus[c] * (0.9 if aggressive else 0.7):
                continue
            used.update(t["id"] for t in give)
            offers.append({"to": holders[0], "give": [t["id"] for t in give], "want": {c: 1}})
        return offers

    def market_answer(self, obs: dict) -> dict:
        self.sync_hoard(obs)
        hoard = list(obs.get("hoard") or [])
        accept = []
        for offer in obs["request"]["offers"]:
            base = self.counts(hoard)
            now = self.my_value(base)
            pay = []
            for colour, n in (offer.get("want") or {}).items():
                have = [t for t in hoard if t["colour"] == colour and t not in pay]
                pay += have[:n]
            if len(pay) != sum((offer.get("want") or {}).values()):
                continue
            after = dict(base)
            for t in pay:
                after[t["colour"]] -= 1
            gain = self.my_value(after, offer.get("give") or []) - now
            # a trade also helps the other seat: ask for a clear profit
            if gain > self.market_margin(offer):
                accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
                hoard = [t for t in hoard if t not in pay]
        return {"accept": accept}

    def market_margin(self, offer: dict) -> float:
        return 1.5

    # ---------------------------------------------------------------- negotiation (overridden)

    def propose(self, obs: dict) -> dict:
        neg = obs["negotiation"]
        return {"shares": self.fair_split(obs, neg)}

    def vote(self, obs: dict) -> dict:
        neg = obs["negotiation"]
        k = len(neg["involved"])
        last = neg["round"] >= neg["rounds"]
        accept = []
        for p in neg["standing"]:
            enough = self.rel_share(neg, p, self.seat) >= (0.5 if last else 0.9)
            if p["id"] in obs["request"]["proposals"] and enough and k:
                accept.append(p["id"])
        return {"accept": accept}

    # ---------------------------------------------------------------- split helpers

    def seat_gain(self, seat: int, tokens: list) -> float:
        """What `tokens` add to `seat`'s end score as I estimate it (its hoard as far as the public
        events show it, scored with my valuation); my own from my real hoard."""
        if not tokens:
            return 0.0
        mine = dict(self.est[seat])
        omax = self.others_max(exclude=seat)
        rem = self.remaining()
        now = self.valuer.score(mine, omax, rem)
        for t in tokens:
            mine[t["colour"]] = mine.get(t["colour"], 0) + 1
        return self.valuer.score(mine, omax, rem) - now

    def rel_share(self, neg: dict, proposal: dict, seat: int) -> float:
        """A seat's share of a proposal relative to an equal split, in that seat's own values."""
        by_id = {t["id"]: t for t in neg["tokens"]}
        whole = self.seat_gain(seat, list(by_id.values()))
        got = self.seat_gain(seat, [by_id[x] for x in proposal["shares"].get(str(seat), []) if x in by_id])
        if whole <= 0.5:
            total = sum(self.public_value(t["colour"]) for t in by_id.values()) or 1.0
            got = sum(self.public_value(by_id[x]["colour"]) for x in proposal["shares"].get(str(seat), [])
                      if x in by_id)
            return got / total * len(neg["involved"])
        return got / whole * len(neg["involved"])

    def build_split(self, obs: dict, neg: dict, targets: dict) -> dict:
        """Give every other involved seat at least `targets[seat]` (relative to an equal split, in
        that seat's own values as I estimate them), with the tokens it values most for what they
        cost me; the rest is mine."""
        self.sync_hoard(obs)
        tokens = list(neg["tokens"])
        involved = [int(s) for s in neg["involved"]]
        k = len(involved)
        mine_gain = {t["id"]: max(0.05, self.gain_of(obs, [t])) for t in tokens}
        pool = list(tokens)
        public_total = sum(self.public_value(t["colour"]) for t in tokens)
        shares: dict = {str(s): [] for s in involved}
        others = sorted((s for s in involved if s != self.seat), key=lambda s: -targets.get(s, 1.0))
        for s in others:
            whole = self.seat_gain(s, tokens)
            use_public = whole <= 0.5

            def their(ts: list, s: int = s, use_public: bool = use_public) -> float:
                if use_public:
                    return sum(self.public_value(t["colour"]) for t in ts)
                return self.seat_gain(s, ts)

            total = their(tokens)
            need = targets.get(s, 1.0) * total / k
            # whatever my estimate of their values says, no seat gets more than 1.35 of an equal
            # share of the public value from me (an estimate can be badly off)
            cap = max(targets.get(s, 1.0), 1.0) * 1.1 * public_total / k
            got: list = []
            # tokens do not divide: stop when within 0.6 of the need rather than overshoot by a gold
            while pool and their(got) + 0.6 < need and sum(self.public_value(t["colour"]) for t in got) < cap:
                base = their(got)
                gap = need - base

                def score(t: dict, base: float = base, gap: float = gap, got: list = got) -> float:
                    add = their([*got, t]) - base
                    if add <= 1e-9:
                        return -1e9
                    # value to them per cost to me; overshooting the need is paid for
                    return min(add, gap) / mine_gain[t["id"]] - 0.05 * max(0.0, add - gap)

                pick = max(pool, key=score)
                if score(pick) <= -1e8:
                    pick = min(pool, key=lambda t: mine_gain[t["id"]])
                pool.remove(pick)
                got.append(pick)
            shares[str(s)] = [t["id"] for t in got]
        shares[str(self.seat)] += [t["id"] for t in pool]
        return shares

    def fair_split(self, obs: dict, neg: dict) -> dict:
        return self.build_split(obs, neg, {int(s): 1.0 for s in neg["involved"]})

# ---- end of the shared core ----


class Merchant(DrachengoldCore):
    """Trades hard at the market for majority-winning gems; negotiates fairly otherwise."""

    def setup(self, hello: dict) -> None:
        super().setup(hello)
        self.sweetener = 0  # extra tokens offered per gem, grows when offers go unanswered
        self.my_offers: set = set()
        self.filled: set = set()

    def track(self, kind: str, data: dict) -> None:
        super().track(kind, data)
        if kind == "offer" and data.get("from") == self.seat:
            self.my_offers.add(data.get("id"))
        elif kind == "trade_done" and data.get("from") == self.seat:
            self.filled.add(data.get("offer"))
        elif kind == "market_round" and int(data.get("round") or 1) > 1:
            if self.my_offers and not (self.my_offers & self.filled):
                self.sweetener += 1  # nobody bit last round: pay more
            self.my_offers = set()

    # ---------------------------------------------------------------- focus colours

    def focus(self) -> list:
        """The two gem colours I am best placed to win: a merchant buys these at a premium."""
        mine, omax = self.est[self.seat], self.others_max()
        cands = [c for c in GEMS if mine.get(c, 0) >= 1 and mine.get(c, 0) - omax.get(c, 0) >= -1]
        return sorted(cands, key=lambda c: -(mine.get(c, 0) - omax.get(c, 0)))[:2]

    def my_value(self, hoard_counts: dict, extra: list | dict = ()) -> float:
        v = super().my_value(hoard_counts, extra)
        if self.valuer.advanced and (hoard_counts.get("black", 0)):
            return v
        mine = dict(hoard_counts)
        items = extra.items() if isinstance(extra, dict) else ((t["colour"], 1) for t in extra)
        for c, n in items:
            mine[c] = mine.get(c, 0) + n
        # a focus colour's majority is what the market is for: each gem of it counts 1.5 more
        return v + 1.5 * sum(mine.get(c, 0) for c in self.focus())

    # ---------------------------------------------------------------- market

    def market_offer(self, obs: dict) -> dict:
        self.sync_hoard(obs)
        limit = obs["request"].get("max_offers", 0)
        hoard = obs.get("hoard") or []
        if limit < 1 or not hoard:
            return {"offers": []}
        base = self.counts(hoard)
        now = self.my_value(base)
        plus = {c: self.my_value(base, {c: 1}) - now for c in GEMS}
        minus = {}
        for c, n in base.items():
            if n:
                less = dict(base)
                less[c] -= 1
                minus[c] = now - self.my_value(less)
        sizes = obs.get("hoard_sizes") or []
        others = [x for x in range(self.num_players) if x != self.seat and x < len(sizes) and sizes[x] > 0]
        asks = []  # (gain, colour, holder)
        for c in GEMS:
            if plus[c] < 1.0:
                continue
            holders = sorted(others, key=lambda x: (-self.est[x].get(c, 0), -sizes[x]))
            known = [h for h in holders if self.est[h].get(c, 0) >= 0.5]
            for rank, h in enumerate((known or holders[:1])[:3]):
                asks.append((plus[c] - 0.3 * rank - (0.5 if not known else 0.0), c, h))
        asks.sort(key=lambda a: -a[0])
        offers = []
        spare_order = sorted(hoard, key=lambda t: (minus.get(t["colour"], 0), -self.public_value(t["colour"])))
        # each round pays more, and more again while nobody bites: the holders value their gems
        rnd = int((obs.get("market_round") or {}).get("round") or 1)
        price = 2.0 + rnd + 0.5 * self.sweetener  # 3, 4, 5: a gold, then a gold plus
        for gain, c, h in asks:
            if len(offers) >= limit:
                break
            # the cheapest payment (to me) worth the price to them: one gold, or a few spares;
            # the same tokens may back several offers (a second accepted one is skipped)
            give, cost = self.payment([t for t in spare_order if t["colour"] != c], minus, price)
            if not give or cost >= gain:
                continue
            offers.append({"to": h, "give": [t["id"] for t in give], "want": {c: 1}})
        # selling: a gem of a colour I cannot win, for a gold, to the seat that leads that colour
        for c, n in sorted(base.items(), key=lambda kv: minus.get(kv[0], 0)):
            if len(offers) >= limit:
                break
            if c not in GEMS or not n or minus.get(c, 0) >= 1.0 or not others or offers:
                continue
            lead = max(others, key=lambda x: self.est[x].get(c, 0))
            tok = next(t for t in hoard if t["colour"] == c)
            offers.append({"to": lead, "give": [tok["id"]], "want": {"gold": 1}})
        return {"offers": offers}

    def payment(self, spare: list, minus: dict, price: float) -> tuple:
        from itertools import combinations

        picks = spare[:8] + [t for t in spare[8:] if t["colour"] == "gold"][:2]
        best, best_cost = [], 1e9
        for n in (1, 2, 3):
            for combo in combinations(picks, n):
                if sum(self.public_value(t["colour"]) for t in combo) < price:
                    continue
                cost = sum(minus.get(t["colour"], 0) for t in combo) + 0.2 * n
                if cost < best_cost:
                    best, best_cost = list(combo), cost
        return best, best_cost

    def market_margin(self, offer: dict) -> float:
        return 0.5  # a trader takes any clear profit

    # ---------------------------------------------------------------- negotiation: reasonable

    def propose(self, obs: dict) -> dict:
        neg = obs["negotiation"]
        r, R = neg["round"], neg["rounds"]
        involved = [int(s) for s in neg["involved"]]
        att = {int(s): v for s, v in (neg.get("attack") or {}).items()}
        total_att = sum(att.get(s, 1) for s in involved) or 1
        k = len(involved)
        greed = max(0.0, 0.25 * (1 - (r - 1) / max(1, R - 2)))  # ask a little more early on
        targets = {}
        for s in involved:
            if s != self.seat:
                fair = 0.5 + 0.5 * att.get(s, 1) * k / total_att
                targets[s] = max(0.3, fair - greed)
        return {"shares": self.build_split(obs, neg, targets)}

    def vote(self, obs: dict) -> dict:
        neg = obs["negotiation"]
        r, R = neg["round"], neg["rounds"]
        k = len(neg["involved"])
        by_id = {t["id"]: t for t in neg["tokens"]}
        whole = self.gain_of(obs, neg["tokens"])
        need = whole / k * max(0.3, 1.0 - 0.6 * (r - 1) / max(1, R - 1))
        accept = []
        for p in neg["standing"]:
            if p["id"] in obs["request"]["proposals"]:
                v = self.gain_of(obs, [by_id[x] for x in p["shares"].get(str(self.seat), []) if x in by_id])
                if v >= need - 1e-9:
                    accept.append(p["id"])
        return {"accept": accept}


if __name__ == "__main__":
    run(Merchant)
