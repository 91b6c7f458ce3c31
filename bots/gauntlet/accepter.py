# Over 400 lines: an outside bot is one file, as its author wrote it from the docs.
"""A fast accepter for Drachengold.

Style: it offers a fair split (by flat token prices) at once, accepts any split that gives it at
least 0.8 of a fair share, lower in the last two rounds and anything at all in the last one: it
aims never to lose a treasure. The rest (attacks, magic, market) is the author's full card play.

Written by an outside author (the gauntlet1 session playing one, issue #24) from the docs only:
README.md, docs/rules.md, docs/protocol.md, bots/sdk.py, bots/forward.py, the SDK and
forward-model sections of docs/bots.md, the Python starter kit (bots/examples/python/main.py) and
the printed rules in ../shared/seeds/. The house bots' code, the house-bot sections of docs/bots.md
and the engine's internals were never opened; the house bots were only played against, as black
boxes, with `ladder tournament` and `ladder match`.

A gauntlet bot, not a starter bot: it is a yardstick for the house bots and is never tuned against.

The parts every style of this author shares (one copy in each file, since a bot is one file):
- values: silver 1, gold 3, red 1, the black diamond by the rules option (and its curse in the
  advanced rules), each gem colour's majority bonus weighted by a logistic in my lead over the best
  estimate of the other hoards, and the advanced set bonuses; others' hoards are estimated from
  every public event (solo treasures, seized reds, splits, strategic choices) and random thefts
  move an expected token;
- attacks: each (adventurer, dragon) is valued as the treasure I expect from it: the whole of a
  solo kill, a style-dependent share of a shared one, a fight I can finish alone next turn
  discounted by who could join it, less the attack spent and wasted;
- magic: Windfall at once, Might or Banish when they make a kill (ideally a solo kill) worth more,
  Double Strike to kill a dragon alone with two adventurers, Second Wind with two tired
  adventurers, Scry (it costs nothing);
- thefts rob the biggest and richest hoard, and with the wizard pick the token worth most to me
  and to the victim; the strategic split divides into even shares and chooses the richest;
- the market asks the seat believed to hold a gem colour for one token of it when one more would
  win me that majority, paying with tokens worth little to me; it accepts offers that gain me
  more than they gain the offerer;
- the other seats' acceptance is learnt from every vote they cast (on any treasure): the least
  share (by flat token prices) a seat accepted at this stage of a negotiation or earlier, and the
  most it refused at this stage or later.
"""

from __future__ import annotations

import math

from bots.sdk import Bot, run

GEMS = ("green", "blue", "purple", "yellow", "white")
BAG_MIX = {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12, "purple": 12, "yellow": 12,
           "white": 6, "black": 1}  # docs/rules.md row 9
COLOURS = tuple(BAG_MIX)


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


class DrachengoldCore(Bot):
    """Everything but the negotiation style: token values, hoard tracking, attacks, magic, market,
    thefts and the strategic split. A style subclass sets the negotiation knobs and methods."""

    AGREE = 0.85  # how often a shared kill's treasure is agreed at all (an estimate)
    PRIOR = (0.75, 0.45)  # with no vote seen: a seat takes this part of a fair share, + the 2nd by the deadline
    PROBE = 1.0  # with no refusal seen below what a seat accepted, ask it for this much of that early on
    BETWEEN = 0.5  # between the most a seat refused and the least it accepted, predict this far up

    def setup(self, hello):
        super().setup(hello)
        n = self.num_players
        self.rules = self.options.get("rules", "basic")
        self.adv = self.rules != "basic"
        if self.adv:
            self.major = 12 if n == 3 else (10 if n <= 5 else 8)
        else:
            self.major = 15 if n == 3 else (12 if n <= 5 else 10)
        self.black = 7 if not self.adv else (19 if self.rules == "advanced-a" else 15)
        # expected colour counts of every seat's hoard (floats: a random theft moves an expectation)
        self.est = [dict.fromkeys(COLOURS, 0.0) for _ in range(n)]
        self.colour = {}  # token id -> colour, for every token this seat has seen
        self.history = [[] for _ in range(n)]  # per seat: (progress, fraction it got, accepted?)
        self.demands = [[] for _ in range(n)]  # per seat: (progress, fraction it asked for itself)
        self.neg_key = None
        self.might_now = False
        self.plan = None  # (adventurer, dragon) a Double Strike planned
        self.obs = None
        # fights in progress (dragon -> seats attacking it, total, strength), from the events and
        # resynchronised from every observation; and how often each seat joins a fight that one
        # other seat alone is fighting, when it could (learnt: seats differ a lot in this)
        self.fights = {}
        self.joins = [0] * n
        self.chances = [0] * n

    # ------------------------------------------------------------------ tracking from events

    def _see(self, tokens):
        for t in tokens or []:
            self.colour[t["id"]] = t["colour"]

    def _add(self, seat, tokens, sign=1.0):
        for t in tokens or []:
            c = t["colour"] if isinstance(t, dict) else self.colour.get(t)
            if c is not None:
                self.est[seat][c] = max(0.0, self.est[seat][c] + sign)

    def _move_random(self, thief, victim):
        e = self.est[victim]
        total = sum(e.values())
        if total <= 0:
            return
        for c in COLOURS:
            share = e[c] / total
            e[c] -= share
            self.est[thief][c] += share

    def on_event(self, event):
        kind, d = event.get("type"), event.get("data") or {}
        try:
            self._track(kind, d)
        except Exception as exc:  # tracking is a best effort: never let it break a decision
            self.log(f"tracking {kind}: {exc!r}")

    def _track(self, kind, d):
        if kind == "setup":
            for dr in d.get("dragons") or []:
                if dr:
                    self._see(dr.get("tokens"))
        elif kind == "dragon":
            self._see(d.get("tokens"))
        elif kind == "kill":
            self._see(d.get("tokens"))
            self._see(d.get("hidden"))
        elif kind in ("treasure_taken", "wizard_seizes"):
            self._see(d.get("tokens"))
            self._add(d["seat"], d.get("tokens"))
        elif kind == "split":
            for seat, toks in (d.get("shares") or {}).items():
                self._see(toks)
                self._add(int(seat), toks)
        elif kind == "divide":
            self._see(d.get("tokens"))
            self.division_tokens = {t["id"]: t["colour"] for t in d.get("tokens") or []}
        elif kind == "division":
            self.division_shares = d.get("shares")
        elif kind == "chosen":
            shares = getattr(self, "division_shares", None) or []
            if 0 <= d["share"] < len(shares):
                self._add(d["seat"], shares[d["share"]])
        elif kind == "stolen":
            self.colour[d["token"]] = d["colour"]
            self.est[d["victim"]][d["colour"]] = max(0.0, self.est[d["victim"]][d["colour"]] - 1)
            self.est[d["seat"]][d["colour"]] += 1
            self.stolen_seen = True
        elif kind == "theft":
            if self.seat not in (d["seat"], d["victim"]):
                self._move_random(d["seat"], d["victim"])
        elif kind == "trade_done":
            self._see(d.get("give"))
            self._see(d.get("pay"))
            self._add(d["from"], d.get("give"), -1)
            self._add(d["to"], d.get("give"))
            self._add(d["to"], d.get("pay"), -1)
            self._add(d["from"], d.get("pay"))
        elif kind == "windfall":
            self._see(d.get("tokens"))
        elif kind == "attack":
            self._fight_attack(d)
        elif kind in ("kill", "treasure_taken"):
            self.fights.pop(d.get("dragon"), None)
        elif kind == "retreat":
            self.fights.clear()
        elif kind == "turn":
            self.might_now = False
            if d.get("seat") != self.seat:
                self.plan = None
        elif kind == "card_played" and d.get("seat") == self.seat and d.get("kind") == "might":
            self.might_now = True
        elif kind == "negotiation":
            self._see(d.get("tokens"))
            self.cur_neg = d
        elif kind == "proposals":
            self.last_proposals = {p["id"]: p for p in d.get("proposals") or []}
        elif kind == "votes":
            self._learn_votes(d)

    def _fight_attack(self, d):
        seat, dragon = d["seat"], d["dragon"]
        if seat != self.seat:
            lonely = [f for f in self.fights.values()
                      if len(f["seats"]) == 1 and seat not in f["seats"] and f["strength"] - f["total"] <= 4]
            if lonely:
                self.chances[seat] += 1
                here = self.fights.get(dragon)
                if here and len(here["seats"]) == 1 and seat not in here["seats"]:
                    self.joins[seat] += 1
        f = self.fights.setdefault(dragon, {"seats": set(), "total": 0, "strength": d.get("strength", 99)})
        f["seats"].add(seat)
        f["total"] = d.get("total", f["total"])

    def _resync(self, obs):
        self.fights = {dr["id"]: {"seats": {a["seat"] for a in dr["attackers"]}, "total": dr["total"],
                                  "strength": dr["strength"]}
                       for dr in obs.get("dragons") or [] if dr and dr.get("attackers")}

    def join_rate(self, seat):
        return (self.joins[seat] + 1.0) / (self.chances[seat] + 3.0)

    # ------------------------------------------------------------------ values

    def counts(self, seat, obs=None):
        obs = obs or self.obs
        if seat == self.seat and obs is not None:
            c = dict.fromkeys(COLOURS, 0.0)
            for t in obs.get("hoard") or []:
                c[t["colour"]] += 1
            return c
        return dict(self.est[seat])

    def unseen(self):
        """Colours still in the bag (or hidden), as far as this seat can tell."""
        left = dict(BAG_MIX)
        for c in self.colour.values():
            left[c] -= 1
        for t in (self.obs or {}).get("hoard") or []:
            if t["id"] not in self.colour:
                left[t["colour"]] -= 1
        return {c: max(0, v) for c, v in left.items()}

    def others_max(self, seat):
        top = dict.fromkeys(COLOURS, 0.0)
        for s in range(self.num_players):
            if s != seat:
                c = self.counts(s)
                for g in COLOURS:
                    top[g] = max(top[g], c[g])
        return top

    def score(self, c, top, unseen):
        v = c["silver"] + 3 * c["gold"] + c["red"]
        cursed = False
        if c["black"] >= 0.5:
            v += self.black
            cursed = self.adv
        if not cursed:
            for g in GEMS:
                m = c[g]
                if m < 0.5:
                    continue
                k = 1.3 / (1.0 + unseen.get(g, 0) / 5.0)
                d = m - top[g]
                p = _sig((d + 0.5) * k * 2) if not self.adv else _sig(d * k * 2)
                v += self.major * p
            if self.rules == "advanced-a":
                v += 5 * min(c[g] for g in GEMS) + 1.0 * sum(1 for g in GEMS if c[g] >= 1)
            elif self.rules == "advanced-b":
                have = sum(1 for g in GEMS if c[g] >= 1)
                v += 5 if have == 5 else 0.8 * have
        return v

    def gain(self, seat, tokens, base=None, top=None, unseen=None):
        """What `tokens` (dicts or ids) add to `seat`'s score estimate."""
        base = base if base is not None else self.counts(seat)
        top = top if top is not None else self.others_max(seat)
        unseen = unseen if unseen is not None else self.unseen()
        after = dict(base)
        for t in tokens:
            c = t["colour"] if isinstance(t, dict) else self.colour.get(t, "silver")
            after[c] += 1
        return self.score(after, top, unseen) - self.score(base, top, unseen)

    def token_mean(self, seat=None):
        seat = self.seat if seat is None else seat
        unseen = self.unseen()
        total = sum(unseen.values())
        if total <= 0:
            return 1.5
        base, top = self.counts(seat), self.others_max(seat)
        return sum(n * self.gain(seat, [{"colour": c}], base, top, unseen) for c, n in unseen.items() if n) / total

    # ------------------------------------------------------------------ attacks

    def dragon_value(self, dr, mean):
        hidden = min(dr.get("hidden", 0), (self.obs or {}).get("bag", 99))
        return self.gain(self.seat, dr.get("tokens") or []) + hidden * mean

    def share_fraction(self, k):
        """The part of a shared treasure this bot expects, k seats sharing (style may change it)."""
        return self.AGREE / k

    def option_value(self, obs, adv, dragon, mean, bonus=0, ready=None):
        me = self.seat
        dr = dragon
        strength, total = dr["strength"], dr["total"]
        seats = {a["seat"] for a in dr.get("attackers") or []}
        value = self.dragon_value(dr, mean)
        need = strength - total
        att = adv["attack"] + bonus
        others = seats - {me}
        if att >= need:
            k = len(others) + 1
            frac = 1.0 if k == 1 else self.share_fraction(k)
            v = value * frac
            mine = [a["adventurer"] for a in dr.get("attackers") or [] if a["seat"] == me] + [adv["id"]]
            if "thief" in mine and others:
                v += mean * 0.9
            lone_wizard = not any(a["adventurer"] == "wizard" for a in dr["attackers"])
            if "wizard" in mine and not self.adv and lone_wizard:
                reds = sum(1 for t in dr.get("tokens") or [] if t["colour"] == "red")
                v += reds * 0.3 * (k - 1) / k
            waste = att - need
            return v - 0.25 * waste - 0.3 * att
        # no kill now: the fight goes on with me in it
        left = need - att
        ready = ready if ready is not None else []
        rest = sorted((a["attack"] for a in ready if a["id"] != adv["id"]), reverse=True)
        turns = 1 if rest and rest[0] >= left else (2 if len(rest) >= 2 and rest[0] + rest[1] >= left else 0)
        stay = 1.0  # the chance that nobody joins my fight before I can finish it, per round of turns
        joiners = 0.0
        for s in range(self.num_players):
            if s == me or s in seats:
                continue
            ups = [a["attack"] for a in obs["adventurers"][s] if a["face"] == "up" and a["dragon"] is None]
            reach = 1.0 if ups and max(ups) >= left else 0.35
            p = min(0.95, self.join_rate(s) * reach)
            stay *= 1 - p
            joiners += p
        if not others and turns:
            p_alone = stay ** turns
            frac = p_alone + (1 - p_alone) * self.share_fraction(2)
            return value * frac * (0.85 ** turns) - 0.3 * att - 0.3
        k = len(others) + 1 + joiners
        frac = self.share_fraction(max(2.0, k))
        soon = 0.75 if (joiners > 0.5 or turns) else 0.45
        return value * frac * soon - 0.3 * att - 0.8 * max(0, left - 4) / 4

    def best_attack(self, obs, bonus=0, allowed=None, dragons=None):
        req = obs.get("request") or {}
        ids = allowed if allowed is not None else req.get("adventurers") or []
        table = {d["id"]: d for d in obs["dragons"] if d}
        dragons = dragons if dragons is not None else [table[i] for i in req.get("dragons") or [] if i in table]
        mine = {a["id"]: a for a in obs["adventurers"][self.seat]}
        ready = [mine[i] for i in ids if i in mine]
        mean = self.token_mean()
        best, best_v = None, -1e9
        for a in ready:
            for dr in dragons:
                v = self.option_value(obs, a, dr, mean, bonus, ready)
                if v > best_v:
                    best, best_v = (a["id"], dr["id"]), v
        return best, best_v

    def attack(self, obs):
        self.obs = obs
        self._resync(obs)
        req = obs["request"]
        if self.plan and self.plan[0] in req["adventurers"] and self.plan[1] in req["dragons"]:
            plan, self.plan = self.plan, None
            return {"adventurer": plan[0], "dragon": plan[1]}
        self.plan = None
        best, _ = self.best_attack(obs, bonus=3 if self.might_now else 0)
        if best is None:
            return {"adventurer": req["adventurers"][0], "dragon": req["dragons"][0]}
        return {"adventurer": best[0], "dragon": best[1]}

    # ------------------------------------------------------------------ magic (advanced rules)

    def magic(self, obs):
        self.obs = obs
        self._resync(obs)
        req = obs["request"]
        cards = {c["kind"]: c["id"] for c in req.get("cards") or []}
        mine = obs["adventurers"][self.seat]
        ups = [a["id"] for a in mine if a["face"] == "up" and a["dragon"] is None]
        table = [d for d in obs["dragons"] if d]
        ids = [d["id"] for d in table]
        fake = dict(obs, request={"kind": "attack", "adventurers": ups, "dragons": ids})
        _, base = self.best_attack(fake) if ups else (None, -1e9)
        if "windfall" in cards:
            return {"card": cards["windfall"]}
        if "might" in cards and ups:
            _, v = self.best_attack(fake, bonus=3)
            if v > base + 2.5:
                return {"card": cards["might"]}
        if "banish" in cards and ups:
            for entry in req.get("banish") or []:
                if entry["seat"] == self.seat:
                    continue
                for d in table:
                    hits = [a for a in d["attackers"]
                            if a["seat"] == entry["seat"] and a["adventurer"] == entry["adventurer"]]
                    if not hits:
                        continue
                    rest = [a for a in d["attackers"] if a is not hits[0]]
                    if any(a["seat"] != self.seat for a in rest):
                        continue
                    d2 = dict(d, attackers=rest, total=d["total"] - hits[0]["attack"])
                    _, v = self.best_attack(fake, dragons=[d2])
                    if v > base + 3:
                        return {"card": cards["banish"], "seat": entry["seat"], "adventurer": entry["adventurer"]}
        if "double_strike" in cards and len(ups) >= 2:
            mean = self.token_mean()
            att = {a["id"]: a["attack"] for a in mine}
            for d in table:
                if any(a["seat"] != self.seat for a in d["attackers"]):
                    continue
                need = d["strength"] - d["total"]
                pairs = [(x, y) for x in ups for y in ups if x != y and att[x] < need <= att[x] + att[y]]
                if pairs:
                    v = self.dragon_value(d, mean) - 0.3 * need
                    if v > base + 3:
                        x, _ = min(pairs, key=lambda p: att[p[0]] + att[p[1]])
                        self.plan = (x, d["id"])
                        return {"card": cards["double_strike"]}
        face_down = [a for a in mine if a["face"] == "down"]
        if "second_wind" in cards and len(face_down) >= 2:
            return {"card": cards["second_wind"]}
        if "scry" in cards:
            return {"card": cards["scry"]}
        return {"card": None}

    # ------------------------------------------------------------------ thefts

    def leader_points(self, seat):
        return self.score(self.counts(seat), self.others_max(seat), self.unseen())

    def theft_victim(self, obs):
        self.obs = obs
        req = obs["request"]
        sizes = req.get("hoard_sizes") or {}

        def worth(s):
            return sizes.get(str(s), 0) * 0.5 + 0.1 * self.leader_points(s)

        return {"victim": max(req["candidates"], key=worth)}

    def theft_pick(self, obs):
        self.obs = obs
        req = obs["request"]
        victim = req["victim"]
        vbase = self.counts(victim)
        for t in req["hoard"]:
            self.colour[t["id"]] = t["colour"]
        # the victim's hoard is shown: it is known exactly now
        exact = dict.fromkeys(COLOURS, 0.0)
        for t in req["hoard"]:
            exact[t["colour"]] += 1
        self.est[victim] = exact
        vbase = exact

        def worth(t):
            loss = self.score(vbase, self.others_max(victim), self.unseen())
            after = dict(vbase)
            after[t["colour"]] -= 1
            loss -= self.score(after, self.others_max(victim), self.unseen())
            return self.gain(self.seat, [t]) + 0.5 * loss

        return {"token": max(req["hoard"], key=worth)["id"]}

    # ------------------------------------------------------------------ strategic split

    def divide(self, obs):
        """I divide and take the last share: make the shares as even as possible to the choosers."""
        self.obs = obs
        k = obs["request"]["shares"]
        toks = list(obs["strategic"]["tokens"])
        seats = obs["strategic"].get("choosers") or []
        shares = [[] for _ in range(k)]

        def val(t):
            vs = [self.gain(s, [t]) for s in [*seats, self.seat]]
            return sum(vs) / len(vs)

        toks.sort(key=val, reverse=True)
        totals = [0.0] * k
        for t in toks:
            empty = [i for i in range(k) if not shares[i]]
            i = empty[0] if empty else min(range(k), key=lambda j: totals[j])
            shares[i].append(t["id"])
            totals[i] += val(t)
        if len(toks) >= k and any(not s for s in shares):
            return {"shares": [[t["id"]] for t in toks[:k - 1]] + [[t["id"] for t in toks[k - 1:]]]}
        return {"shares": shares}

    def choose(self, obs):
        self.obs = obs
        st = obs["strategic"]
        colour = {t["id"]: t for t in st["tokens"]}
        best = max(obs["request"]["remaining"],
                   key=lambda i: self.gain(self.seat, [colour[x] for x in st["shares"][i] if x in colour]))
        return {"share": best}

    # ------------------------------------------------------------------ market

    def market_offer(self, obs):
        self.obs = obs
        req = obs["request"]
        hoard = obs.get("hoard") or []
        if not hoard or req.get("max_offers", 0) < 1:
            return {"offers": []}
        unseen = self.unseen()
        base, top = self.counts(self.seat), self.others_max(self.seat)
        offers, used = [], set()
        wants = []
        for g in GEMS:
            gain = self.gain(self.seat, [{"colour": g}], base, top, unseen)
            holders = [s for s in range(self.num_players) if s != self.seat and self.est[s][g] >= 1]
            if holders and gain > 3:
                wants.append((gain, g, max(holders, key=lambda s: self.est[s][g])))
        wants.sort(reverse=True)
        for gain, g, holder in wants:
            if len(offers) >= req["max_offers"]:
                break
            # pay with tokens that are worth little to me: cheapest first, up to 0.6 of the gain
            now = self.score(base, top, unseen)

            def loss(t, now=now):
                return now - self.score(dict(base, **{t["colour"]: base[t["colour"]] - 1}), top, unseen)

            cheap = sorted((t for t in hoard if t["id"] not in used), key=loss)
            give, cost = [], 0.0
            for t in cheap:
                c = loss(t)
                if cost + c > gain * 0.6:
                    break
                give.append(t["id"])
                cost += c
                if cost >= 3.5:
                    break
            if give and cost >= 2:
                used.update(give)
                offers.append({"to": holder, "give": give, "want": {g: 1}})
        return {"offers": offers}

    def market_answer(self, obs):
        self.obs = obs
        hoard = list(obs.get("hoard") or [])
        base, top, unseen = self.counts(self.seat), self.others_max(self.seat), self.unseen()
        accept = []
        for offer in obs["request"]["offers"]:
            pay = []
            free = [t for t in hoard]
            ok = True
            for colour, n in (offer.get("want") or {}).items():
                cand = [t for t in free if t["colour"] == colour and t["id"] not in pay]
                if len(cand) < n:
                    ok = False
                    break
                pay += [t["id"] for t in cand[:n]]
            if not ok:
                continue
            after = dict(base)
            for t in offer.get("give") or []:
                after[t["colour"]] += 1
            for t in hoard:
                if t["id"] in pay:
                    after[t["colour"]] -= 1
            mine = self.score(after, top, unseen) - self.score(base, top, unseen)
            # what the offerer gains from it, by my estimate of its hoard
            theirs = self.gain(offer["from"], [{"colour": t["colour"]} for t in hoard if t["id"] in pay]) - \
                sum(self.gain(offer["from"], [t]) for t in offer.get("give") or [])
            if mine > 0.5 and mine >= theirs - 1:
                accept.append({"offer": offer["id"], "pay": pay})
                hoard = [t for t in hoard if t["id"] not in pay]
                base = after
        return {"accept": accept}

    # ------------------------------------------------------------------ negotiation (shared parts)

    def _learn_votes(self, d):
        props = getattr(self, "last_proposals", {}) or {}
        neg = getattr(self, "cur_neg", None) or {}
        rounds = neg.get("rounds") or self.options.get("negotiation_rounds", 8)
        progress = d.get("round", 1) / max(1, rounds)
        for seat_s, accepted in (d.get("votes") or {}).items():
            seat = int(seat_s)
            if seat == self.seat:
                continue
            for pid, p in props.items():
                if p["proposer"] == seat:
                    continue
                frac = self.fraction(seat, p["shares"], neg)
                if frac is None:
                    continue
                self.history[seat].append((progress, frac, pid in accepted))
            self.history[seat] = self.history[seat][-60:]
        for p in props.values():
            if p["proposer"] != self.seat and p.get("round") == d.get("round"):
                frac = self.fraction(p["proposer"], p["shares"], neg)
                if frac is not None:
                    self.demands[p["proposer"]].append((progress, frac))
                    self.demands[p["proposer"]] = self.demands[p["proposer"]][-30:]

    def flat(self, tokens):
        """Another seat's value of tokens: a flat price per colour (its hoard is behind a screen)."""
        price = {"silver": 1.0, "gold": 3.0, "red": 1.0, "black": 7.0 if not self.adv else 9.0}
        total = 0.0
        for t in tokens:
            c = t["colour"] if isinstance(t, dict) else self.colour.get(t, "silver")
            total += price.get(c, 2.5)
        return total

    def fraction(self, seat, shares, neg):
        tokens = neg.get("tokens") or []
        total = self.flat(tokens)
        if total <= 1e-6:
            return None
        return self.flat(shares.get(str(seat), [])) / total

    def predict(self, seat, progress, n):
        """The share (a fraction of the treasure, by its flat values) `seat` is expected to accept
        now: below the least it accepted at this stage or earlier, above what it refused at this
        stage or later (its votes on earlier treasures count too: seats are creatures of habit)."""
        fair = 1.0 / n
        hist = self.history[seat]
        acc = sorted(f for q, f, ok in hist if ok and q <= progress + 0.01)
        upper = acc[0] if acc else fair * (self.PRIOR[0] + self.PRIOR[1] * progress)
        rej = [f for q, f, ok in hist if not ok and q >= progress - 0.01 and f < upper]
        if not rej:
            # nothing refused below what it accepted: early on, probe a little lower
            return upper * (self.PROBE if progress < 0.5 else 1.0)
        return max(rej) + self.BETWEEN * (upper - max(rej))

    def build(self, neg, targets):
        """A split giving each other involved seat at least targets[seat] (a fraction of the
        treasure by its values), the rest to me, keeping what I value most."""
        tokens = list(neg["tokens"])
        me = self.seat
        others = [s for s in neg["involved"] if s != me]
        alloc = {s: [] for s in neg["involved"]}
        pool = list(tokens)
        total = max(1e-6, self.flat(tokens))
        mine_v = {t["id"]: self.gain(me, [t]) for t in tokens}
        # never promise the others more than `cap` of the treasure together
        cap = getattr(self, "GIVE_CAP", 0.8)
        asked = sum(targets.get(s, 0) for s in others)
        scale = min(1.0, cap / asked) if asked > 0 else 1.0
        for s in sorted(others, key=lambda s: -targets.get(s, 0)):
            want = targets.get(s, 0) * scale * total
            got = 0.0
            while got < want - 1e-6 and pool:
                # the token that costs me least for what it is worth to them; a whole token may
                # overshoot, so prefer the one that lands nearest the target
                best = min(pool, key=lambda t: ((mine_v[t["id"]] + 0.05) / self.flat([t]),
                                                abs(want - got - self.flat([t]))))
                pool.remove(best)
                alloc[s].append(best)
                got += self.flat([best])
        alloc[me] += pool
        return {str(s): [t["id"] for t in alloc[s]] for s in alloc}

    def my_value(self, shares):
        return self.gain(self.seat, [{"colour": self.colour.get(x, "silver")} for x in shares.get(str(self.seat), [])])

    def propose(self, obs):
        self.obs = obs
        neg = obs["negotiation"]
        self._see(neg["tokens"])
        return self.style_propose(obs, neg)

    def vote(self, obs):
        self.obs = obs
        neg = obs["negotiation"]
        self._see(neg["tokens"])
        return self.style_vote(obs, neg)

    def context(self, neg):
        n = len(neg["involved"])
        rnd, rounds = neg["round"], neg["rounds"]
        progress = rnd / max(1, rounds)
        total = self.gain(self.seat, neg["tokens"])
        return n, rnd, rounds, progress, total

    def standing(self, obs, neg):
        ids = set((obs.get("request") or {}).get("proposals") or [])
        return [p for p in neg.get("standing") or [] if p["id"] in ids]


class Accepter(DrachengoldCore):
    """Offers fair-ish splits at once and takes any split at or above a modest part: a treasure is
    never lost through this seat."""

    AGREE = 0.97

    def share_fraction(self, k):
        return self.AGREE / k

    def style_propose(self, obs, neg):
        n, rnd, _rounds, progress, _total = self.context(neg)
        targets = {}
        for s in neg["involved"]:
            if s != self.seat:
                fair = 1.0 / n
                # a fair share at once; from the third round, what the seat is seen to insist on
                targets[s] = 0.9 * fair if rnd < 3 else min(0.9, max(fair, self.predict(s, progress, n)))
        return {"shares": self.build(neg, targets)}

    def style_vote(self, obs, neg):
        n, rnd, rounds, _progress, total = self.context(neg)
        left = rounds - rnd
        fair = total / n
        need = (0.9 if rnd <= 2 else 0.75) * fair if left >= 2 else (0.45 * fair if left == 1 else 0.0)
        accept = [p["id"] for p in self.standing(obs, neg) if self.my_value(p["shares"]) >= need - 1e-6]
        return {"accept": accept}


if __name__ == "__main__":
    run(Accepter)
