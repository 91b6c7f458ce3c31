# Over 400 lines: an outside author's bot is one file, uploaded as it is (bots/heldout/README.md).
"""Drachengold outsider "hardline": a relative-score bargainer with exact marginal token values.

How it plays (everything from the public rules, protocol and SDK; no house bot was read):

- Ledger: it follows every public event (solo takes, agreed splits, strategic choices, thefts,
  its own trades and stolen tokens) to estimate each seat's colour counts; a random theft between
  others moves the victim's expected mix.
- Value: a position is worth each seat's expected final score: face points, plus for every gem
  colour the majority bonus times the chance that the seat ends on top (a normal model of the
  final counts: what it holds, plus its share of what is still on the table and in the bag), plus
  the set points and the black diamond's curse of the advanced rules. A token's worth is the
  change it makes in that, so a gem that decides a majority is worth much more than its face.
- Objective: its own expected score less a tenth of the best rival's (majorities weighted 1.4
  times their points: a gem that decides a colour is worth that much more to take or deny).
- Negotiation anchored on demands: a co-attacker's own public proposal says what it asks for; the
  share of that demand each seat takes is read off the public votes (an acceptance caps it for
  later rounds, a late refusal floors it; prior 0.75 falling to 0.45 at the deadline). From the
  first round it holds out with the split best for its objective that gives each seat what it is
  predicted to take at the deadline (the best-placed rival at most 0.7 of its demand), found by a
  hill climb. It accepts another split early only when that is worth nearly its own, and at the
  deadline unless its own is predicted to pass and is better; never one that feeds the leader ten
  times what it gives this bot.
- Attacks: each (adventurer, dragon) by the objective's expected change: a kill's treasure as the
  split it expects (all of it alone), a wound's stake in a later kill, a thief's theft from the
  leader, less the attack it spends; the smallest adventurer that does the job.
- Market, thefts, the strategic split and Magic Objects by the same objective.
"""

from __future__ import annotations

import math
import time

from bots.sdk import Bot, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GEMS = ("green", "blue", "purple", "yellow", "white")
TOTALS = {"silver": 35, "gold": 20, "red": 16, "blue": 12, "green": 12, "purple": 12, "yellow": 12,
          "white": 6, "black": 1}
COLOURS = tuple(TOTALS)
ATTACK = {"k4": 4, "k3": 3, "thief": 2, "wizard": 1}
SCORING = {
    "basic": {"black": 7, "majority": {3: 15, 4: 12, 5: 12, 6: 10}, "ties": "full", "sets": "none", "curse": False},
    "advanced-a": {"black": 19, "majority": {3: 12, 4: 10, 5: 10, 6: 8}, "ties": "half", "sets": "per-set",
                   "curse": True},
    "advanced-b": {"black": 15, "majority": {3: 12, 4: 10, 5: 10, 6: 8}, "ties": "half", "sets": "once",
                   "curse": True},
}
BETA = 0.1   # weight of the best rival's expected score in the objective
DELTA = 0.0  # weight of each other rival's
LEADER_CAP = 0.7  # the leader is offered at most this much of its own demand
FLOOR = -0.01  # the least objective change a vote accepts
P_AGREE = 0.85  # chance a shared treasure is agreed
P_WOUND = 0.6  # chance a wound is still there when the dragon dies
EQUAL = 0.7  # how much of a shared treasure goes equally (everyone has a veto) rather than by attack
KILL_COST = 0.35  # objective points per attack point spent on a kill
WOUND_COST = 0.7  # per attack point left on a live dragon
THIEF_BONUS = 2.0
MAJ_WEIGHT = 1.4  # majorities weigh this much more than their points in the values
RIVAL_RATIO = 0.0  # accept a split with the leader only if it gives me this much of the leader's gain
PASS_MARGIN = 0.0  # at the deadline its own proposal counts as passing only this far above the bars
SPLIT_BUDGET_S = 0.25  # the split search stops improving after this much wall time
PRIOR_EARLY = 0.75  # predicted acceptance bar (share of the seat's own demand) in the first round
PRIOR_LATE = 0.45  # and in the last


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x * 0.7071067811865476))


def colour_of(token: dict[str, Any]) -> str:
    return token.get("colour", "silver")


class HardlineBot(Bot):
    # ------------------------------------------------------------------ set-up and the ledger
    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        n = max(1, self.num_players)
        self.counts: list[dict[str, float]] = [dict.fromkeys(COLOURS, 0.0) for _ in range(n)]
        self.box = dict.fromkeys(COLOURS, 0.0)
        self.colour: dict[str, str] = {}
        self.rules = SCORING.get(str(self.options.get("rules", "basic")), SCORING["basic"])
        self.advanced = self.options.get("rules", "basic") != "basic"
        # per seat: (round fraction, ratio of its fair part, accepted?) from public votes
        self.history: list[list[tuple[float, float, bool]]] = [[] for _ in range(n)]
        self.neg_ctx: dict[str, Any] | None = None
        self.bonus = 0
        self.division: list[list[str]] = []

    def _add(self, seat: int, tokens: list[dict[str, Any]], sign: float = 1.0) -> None:
        for t in tokens:
            c = colour_of(t)
            self.colour[t.get("id", "")] = c
            self.counts[seat][c] = max(0.0, self.counts[seat][c] + sign)

    def on_event(self, event: dict[str, Any]) -> None:
        try:
            self._on_event(event)
        except Exception as exc:  # the ledger is an estimate: never let it break a decision
            self.log(f"ledger: {exc!r}")

    def _on_event(self, event: dict[str, Any]) -> None:
        kind, data = event.get("type"), event.get("data") or {}
        if kind in ("treasure_taken", "wizard_seizes", "windfall"):
            self._add(data["seat"], data.get("tokens", []))
        elif kind == "split":
            for seat, tokens in data["shares"].items():
                self._add(int(seat), tokens)
        elif kind == "split_failed":
            for t in data.get("tokens", []):
                self.box[colour_of(t)] += 1
        elif kind == "kill" or kind == "dragon" or kind == "setup":
            for t in data.get("tokens", []):
                self.colour[t["id"]] = colour_of(t)
            for d in data.get("dragons", []) or []:
                for t in d.get("tokens", []):
                    self.colour[t["id"]] = colour_of(t)
        elif kind == "negotiation":
            self.neg_ctx = {"dragon": data.get("dragon"), "involved": data.get("involved"),
                            "rounds": data.get("rounds", 8), "tokens": data.get("tokens", []), "proposals": {}}
        elif kind == "proposals" and self.neg_ctx is not None:
            for p in data.get("proposals", []):
                self.neg_ctx["proposals"][p["id"]] = p
        elif kind == "votes" and self.neg_ctx is not None:
            self._learn_votes(data)
        elif kind == "division":
            self.division = data.get("shares", [])
        elif kind == "chosen" and self.division:
            share = self.division[data["share"]]
            self._add(data["seat"], [{"id": t, "colour": self.colour.get(t, "silver")} for t in share])
        elif kind == "stolen":
            c = data.get("colour", "silver")
            self.counts[data["victim"]][c] = max(0.0, self.counts[data["victim"]][c] - 1)
            self.counts[data["seat"]][c] += 1
            self._private_theft = True
        elif kind == "theft":
            if data.get("seat") != self.seat and data.get("victim") != self.seat:
                victim, thief = self.counts[data["victim"]], self.counts[data["seat"]]
                total = sum(victim.values())
                if total > 0:
                    for c in COLOURS:
                        p = victim[c] / total
                        victim[c] -= p
                        thief[c] += p
        elif kind == "trade_done":
            self._add(data["to"], data.get("give", []))
            self._add(data["from"], data.get("give", []), -1)
            self._add(data["from"], data.get("pay", []))
            self._add(data["to"], data.get("pay", []), -1)

    # ------------------------------------------------------------------ the value model
    def _mine_exact(self, obs: dict[str, Any]) -> None:
        mine = dict.fromkeys(COLOURS, 0.0)
        for t in obs.get("hoard", []):
            mine[colour_of(t)] += 1
        self.counts[self.seat] = mine

    def _base(self, obs: dict[str, Any]) -> list[dict[str, float]]:
        self._mine_exact(obs)
        base = [dict(c) for c in self.counts]
        sizes = obs.get("hoard_sizes") or []
        # a seat's estimate scaled to its public hoard size (unseen trades and windfalls)
        for s, c in enumerate(base):
            if s == self.seat or s >= len(sizes):
                continue
            total = sum(c.values())
            size = sizes[s]
            if total > size + 0.5 and total > 0:
                f = size / total
                for k in c:
                    c[k] *= f
        return base

    def expected(self, counts: list[dict[str, float]], remaining: dict[str, float]) -> list[float]:
        """Each seat's expected final score."""
        n = len(counts)
        rules = self.rules
        bonus = rules["majority"].get(n, 10) * MAJ_WEIGHT
        f = 1.0 / n
        out = []
        cursed = [rules["curse"] and c["black"] >= 0.5 for c in counts]
        for c in counts:
            out.append(c["silver"] + 3 * c["gold"] + c["red"] + rules["black"] * c["black"])
        for g in GEMS:
            r = max(0.0, remaining.get(g, 0.0))
            var = r * f * (1 - f) + 0.3
            means = [c[g] + r * f for c in counts]
            for s in range(n):
                if cursed[s]:
                    continue
                p = 1.0
                ms = means[s]
                if counts[s][g] + r < 0.5:
                    continue
                for o in range(n):
                    if o != s:
                        p *= phi((ms - means[o]) / math.sqrt(2 * var))
                out[s] += bonus * p
        if rules["sets"] != "none":
            for s, c in enumerate(counts):
                if cursed[s]:
                    continue
                finals = [c[g] + max(0.0, remaining.get(g, 0.0)) * f for g in GEMS]
                if rules["sets"] == "per-set":
                    out[s] += 5 * max(0.0, min(finals) - 0.3)
                else:
                    p = 1.0
                    for g, fin in zip(GEMS, finals, strict=True):
                        p *= 1.0 if c[g] >= 1 else (1 - math.exp(-max(0.0, fin - c[g])))
                    out[s] += 5 * p
        return out

    def remaining(self, counts: list[dict[str, float]]) -> dict[str, float]:
        return {c: max(0.0, TOTALS[c] - self.box[c] - sum(h[c] for h in counts)) for c in COLOURS}

    def utility(self, scores: list[float], rival: int | None) -> float:
        me = scores[self.seat]
        u = me
        for s, v in enumerate(scores):
            if s == self.seat:
                continue
            u -= (BETA if s == rival else DELTA) * v
        return u

    def rival_of(self, scores: list[float]) -> int | None:
        others = [s for s in range(len(scores)) if s != self.seat]
        return max(others, key=lambda s: scores[s]) if others else None

    def alloc_scores(self, base: list[dict[str, float]], alloc: dict[int, dict[str, float]],
                     rem: dict[str, float]) -> list[float]:
        counts = [dict(c) for c in base]
        r = dict(rem)
        for s, add in alloc.items():
            for c, k in add.items():
                counts[s][c] += k
                r[c] -= k
        return self.expected(counts, r)

    # ------------------------------------------------------------------ negotiation
    def _token_values(self, base, rem, tokens, involved):
        """Per involved seat and token: what that one token is worth to that seat now."""
        before = self.expected(base, rem)
        cache: dict[tuple[int, str], float] = {}
        values: dict[int, dict[str, float]] = {}
        for s in involved:
            values[s] = {}
            for t in tokens:
                c = colour_of(t)
                if (s, c) not in cache:
                    after = self.alloc_scores(base, {s: {c: 1}}, rem)
                    cache[(s, c)] = max(0.2, after[s] - before[s])
                values[s][t["id"]] = cache[(s, c)]
        return before, values

    def _gains(self, base, rem, before, shares: dict[int, list[str]]) -> list[float]:
        alloc = {}
        for s, ids in shares.items():
            add: dict[str, float] = {}
            for t in ids:
                c = self.colour.get(t, "silver")
                add[c] = add.get(c, 0) + 1
            alloc[s] = add
        after = self.alloc_scores(base, alloc, rem)
        return [a - b for a, b in zip(after, before, strict=True)]

    def _offered(self, s: int, ids: list[str]) -> float:
        values = self._neg_values or {}
        return sum(values.get(s, {}).get(t, 0.0) for t in ids)

    def _demand(self, s: int) -> float:
        """What seat s asks for itself: its own standing proposal's share for it (public), or,
        before it has proposed, a third more than its part by attack."""
        own = (self.neg_ctx or {}).get("own", {}).get(s)
        if own is not None:
            return max(0.3, self._offered(s, own))
        return max(0.3, 1.3 * (self._neg_fair or {}).get(s, 1.0))

    def _learn_votes(self, data: dict[str, Any]) -> None:
        ctx = self.neg_ctx
        if not ctx or self._neg_fair is None or self._neg_dragon != ctx.get("dragon"):
            return
        rounds = max(1, ctx["rounds"])
        rf = (data.get("round", 1) - 1) / max(1, rounds - 1)
        for seat, accepted in (data.get("votes") or {}).items():
            s = int(seat)
            if s == self.seat or s not in self._neg_fair:
                continue
            demand = self._demand(s)
            for pid, p in ctx["proposals"].items():
                if p.get("round") != data.get("round") or p.get("proposer") == s:
                    continue
                ratio = self._offered(s, p["shares"].get(str(s), [])) / demand
                self.history[s].append((rf, ratio, pid in accepted))

    def threshold(self, seat: int, rf: float) -> float:
        """The share of its own demand `seat` is predicted to accept at round fraction rf: a prior
        that falls towards the deadline, capped by what it accepted before at that stage or
        earlier, floored by what it refused late at that stage or later."""
        prior = PRIOR_EARLY - (PRIOR_EARLY - PRIOR_LATE) * rf
        lo, hi = -1e9, 1e9
        for hrf, ratio, ok in self.history[seat][-120:]:
            if ok and hrf <= rf + 1e-9:
                hi = min(hi, ratio)
            elif not ok and hrf >= rf - 1e-9 and hrf > 0.6:
                lo = max(lo, ratio)
        t = prior
        if hi < 1e8:
            t = min(t, hi + 0.01)
        if lo > -1e8:
            t = max(t, min(lo + 0.04, 1.1))
        return max(0.05, min(t, 1.1))

    _neg_fair = None
    _neg_values = None
    _neg_dragon = None

    def _neg_setup(self, obs: dict[str, Any]):
        neg = obs["negotiation"]
        tokens = neg["tokens"]
        for t in tokens:
            self.colour[t["id"]] = colour_of(t)
        involved = [int(s) for s in neg["involved"]]
        if self.neg_ctx is None or self.neg_ctx.get("dragon") != neg.get("dragon"):
            self.neg_ctx = {"dragon": neg.get("dragon"), "involved": involved, "rounds": neg.get("rounds", 8),
                            "tokens": tokens, "proposals": {}}
        own = self.neg_ctx.setdefault("own", {})
        for p in neg.get("standing", []):
            own[int(p["proposer"])] = p["shares"].get(str(p["proposer"]), [])
            self.neg_ctx["proposals"][p["id"]] = p
        base = self._base(obs)
        rem = self.remaining(base)
        before, values = self._token_values(base, rem, tokens, involved)
        attack = neg.get("attack", {})
        total_attack = sum(max(1, attack.get(str(s), 1)) for s in involved)
        fair = {s: sum(values[s].values()) * max(1, attack.get(str(s), 1)) / total_attack for s in involved}
        self._neg_values, self._neg_fair, self._neg_dragon = values, fair, neg.get("dragon")
        rival = self.rival_of(before)
        return neg, tokens, involved, base, rem, before, fair, rival

    def best_split(self, tokens, involved, base, rem, before, rival, needs) -> tuple[dict[int, list[str]], float]:
        """The split best for the objective that offers each other seat `needs[s]` (additive values)."""
        ids = [t["id"] for t in tokens]
        values = self._neg_values
        owner = {t: self.seat for t in ids}

        def evaluate(own):
            shares = {s: [] for s in involved}
            for t, s in own.items():
                shares[s].append(t)
            gains = self._gains(base, rem, before, shares)
            pen = 0.0
            for s in involved:
                if s != self.seat:
                    short = needs[s] - sum(values[s][t] for t in shares[s])
                    if short > 0:
                        pen += 3.0 * short + 1.0
            return self.utility(gains, rival) - pen

        for s in involved:  # a start: each other seat gets what it values most relative to me
            if s == self.seat:
                continue
            mine = sorted((t for t in ids if owner[t] == self.seat),
                          key=lambda t: values[s][t] / max(0.2, values[self.seat][t]), reverse=True)
            got = 0.0
            for t in mine:
                if got >= needs[s]:
                    break
                owner[t] = s
                got += values[s][t]
        best = evaluate(owner)
        start = time.perf_counter()
        for _ in range(4):
            improved = False
            for t in ids:
                if time.perf_counter() - start > SPLIT_BUDGET_S:
                    break
                for s in involved:
                    if owner[t] == s:
                        continue
                    old = owner[t]
                    owner[t] = s
                    v = evaluate(owner)
                    if v > best + 1e-6:
                        best, improved = v, True
                    else:
                        owner[t] = old
            if not improved:
                break
        shares = {s: [] for s in involved}
        for t, s in owner.items():
            shares[s].append(t)
        return shares, self.utility(self._gains(base, rem, before, shares), rival)

    def _needs(self, involved, rf, rival, margin):
        needs = {}
        for s in involved:
            if s == self.seat:
                continue
            t = self.threshold(s, rf) + margin
            needs[s] = t * self._demand(s)
            if s == rival:
                needs[s] = min(needs[s], LEADER_CAP * self._demand(s))
        return needs

    def propose(self, obs: dict[str, Any]) -> dict[str, Any]:
        try:
            neg, tokens, involved, base, rem, before, _fair, rival = self._neg_setup(obs)
            rounds = max(1, neg.get("rounds", 8))
            rnd = neg.get("round", 1)
            # hold out for what each seat is predicted to take at the deadline
            needs = self._needs(involved, 1.0, rival, 0.04 if rnd >= rounds else 0.02)
            shares, _ = self.best_split(tokens, involved, base, rem, before, rival, needs)
            return {"shares": {str(s): v for s, v in shares.items()}}
        except Exception as exc:
            self.log(f"propose: {exc!r}")
            return {}

    def vote(self, obs: dict[str, Any]) -> dict[str, Any]:
        try:
            neg, _tokens, involved, base, rem, before, _fair, rival = self._neg_setup(obs)
            rounds = max(1, neg.get("rounds", 8))
            rnd = neg.get("round", 1)
            rf = (rnd - 1) / max(1, rounds - 1)
            last = rnd >= rounds
            mine = next((p for p in neg.get("standing", []) if p.get("proposer") == self.seat), None)
            u_mine, mine_passes = 0.0, False
            if mine is not None:
                shares = {int(k): v for k, v in mine["shares"].items()}
                u_mine = self.utility(self._gains(base, rem, before, shares), rival)
                mine_passes = all(self._offered(s, shares.get(s, [])) >= (self.threshold(s, rf) + PASS_MARGIN)
                                  * self._demand(s) for s in involved if s != self.seat)
            accept = []
            allowed = set(obs["request"].get("proposals", []))
            for p in neg.get("standing", []):
                if p["id"] not in allowed or p.get("proposer") == self.seat:
                    continue
                shares = {int(k): v for k, v in p["shares"].items()}
                gains = self._gains(base, rem, before, shares)
                u = self.utility(gains, rival)
                if u < FLOOR:
                    continue
                if rival in involved and gains[self.seat] < RIVAL_RATIO * gains[rival]:
                    continue  # no split that feeds the leader more than it feeds me: lost, it costs us alike
                if last:
                    if not (mine_passes and u_mine > u + 0.5):
                        accept.append(p["id"])
                elif u >= max(0.0, u_mine) * (1.0 - 0.3 * rf) and u > 0.5:
                    accept.append(p["id"])
            return {"accept": accept}
        except Exception as exc:
            self.log(f"vote: {exc!r}")
            return {"accept": []}

    # ------------------------------------------------------------------ strategic split
    def divide(self, obs: dict[str, Any]) -> dict[str, Any]:
        strat = obs["strategic"]
        tokens = strat["tokens"]
        k = obs["request"]["shares"]
        ids = [t["id"] for t in tokens]
        default = {"shares": [ids[i::k] for i in range(k)]}
        try:
            for t in tokens:
                self.colour[t["id"]] = colour_of(t)
            base = self._base(obs)
            rem = self.remaining(base)
            before = self.expected(base, rem)
            rival = self.rival_of(before)
            choosers = [int(s) for s in strat.get("choosers", [])]

            def outcome(shares):
                left = list(range(k))
                alloc = {}
                for s in choosers:
                    if not left:
                        break
                    best = max(left, key=lambda i: self._gains(base, rem, before, {s: shares[i]})[s])
                    left.remove(best)
                    alloc[s] = shares[best]
                if left:
                    alloc[self.seat] = shares[left[0]]
                gains = self._gains(base, rem, before, alloc)
                return self.utility(gains, rival)

            shares = [list(s) for s in default["shares"]]
            best = outcome(shares)
            start = time.perf_counter()
            for _ in range(3):
                improved = False
                for i in range(k):
                    for t in list(shares[i]):
                        if time.perf_counter() - start > SPLIT_BUDGET_S:
                            break
                        for j in range(k):
                            if i == j or (len(shares[i]) <= 1 and len(ids) >= k):
                                continue
                            shares[i].remove(t)
                            shares[j].append(t)
                            v = outcome(shares)
                            if v > best + 1e-6:
                                best, improved = v, True
                                break
                            shares[j].remove(t)
                            shares[i].append(t)
                if not improved:
                    break
            if sorted(t for s in shares for t in s) == sorted(ids):
                return {"shares": shares}
        except Exception as exc:
            self.log(f"divide: {exc!r}")
        return default

    def choose(self, obs: dict[str, Any]) -> dict[str, Any]:
        remaining = obs["request"]["remaining"]
        try:
            shares = obs["strategic"]["shares"]
            for t in obs["strategic"]["tokens"]:
                self.colour[t["id"]] = colour_of(t)
            base = self._base(obs)
            rem = self.remaining(base)
            before = self.expected(base, rem)
            rival = self.rival_of(before)
            return {"share": max(remaining, key=lambda i: self.utility(
                self._gains(base, rem, before, {self.seat: shares[i]}), rival))}
        except Exception as exc:
            self.log(f"choose: {exc!r}")
            return {"share": remaining[0]}

    # ------------------------------------------------------------------ thefts
    def theft_victim(self, obs: dict[str, Any]) -> dict[str, Any]:
        cands = obs["request"]["candidates"]
        try:
            base = self._base(obs)
            before = self.expected(base, self.remaining(base))
            sizes = obs["request"].get("hoard_sizes", {})
            return {"victim": max(cands, key=lambda s: (before[s] + 0.3 * sizes.get(str(s), 0)))}
        except Exception as exc:
            self.log(f"theft_victim: {exc!r}")
            return {"victim": cands[0]}

    def theft_pick(self, obs: dict[str, Any]) -> dict[str, Any]:
        hoard = obs["request"]["hoard"]
        victim = obs["request"]["victim"]
        try:
            base = self._base(obs)
            real = dict.fromkeys(COLOURS, 0.0)
            for t in hoard:
                real[colour_of(t)] += 1
            base[victim] = real
            rem = self.remaining(base)
            before = self.expected(base, rem)
            rival = self.rival_of(before)
            best, best_u = hoard[0], -1e9
            for t in hoard:
                c = colour_of(t)
                alloc = {self.seat: {c: 1}, victim: {c: -1}}
                counts = [dict(x) for x in base]
                for s, add in alloc.items():
                    for k, v in add.items():
                        counts[s][k] += v
                u = self.utility(self.expected(counts, rem), rival)
                if u > best_u:
                    best, best_u = t, u
            return {"token": best["id"]}
        except Exception as exc:
            self.log(f"theft_pick: {exc!r}")
            return {"token": hoard[0]["id"]}

    # ------------------------------------------------------------------ attacks
    def _attack_options(self, obs: dict[str, Any], bonus: int = 0):
        base = self._base(obs)
        rem = self.remaining(base)
        before = self.expected(base, rem)
        rival = self.rival_of(before)
        u0 = self.utility(before, rival)
        bag = max(1, obs.get("bag", 1))
        unseen_total = sum(rem.values()) or 1.0
        table_tokens = {}
        for d in obs["dragons"]:
            if d:
                for t in d["tokens"]:
                    table_tokens[colour_of(t)] = table_tokens.get(colour_of(t), 0) + 1
        bag_mix = {c: max(0.0, rem[c] - table_tokens.get(c, 0)) for c in COLOURS}
        bag_total = sum(bag_mix.values()) or unseen_total
        avail = obs["request"]["adventurers"]
        opts = []
        for d in obs["dragons"]:
            if not d or d["id"] not in obs["request"]["dragons"]:
                continue
            pool: dict[str, float] = {}
            for t in d["tokens"]:
                pool[colour_of(t)] = pool.get(colour_of(t), 0) + 1
            hidden = min(d["hidden"], bag)
            for c in COLOURS:
                pool[c] = pool.get(c, 0) + hidden * bag_mix[c] / bag_total
            att_by: dict[int, int] = {}
            for a in d["attackers"]:
                att_by[a["seat"]] = att_by.get(a["seat"], 0) + a["attack"]
            for adv in avail:
                att = ATTACK.get(adv, 1) + bonus
                total = d["total"] + att
                mine = dict(att_by)
                mine[self.seat] = mine.get(self.seat, 0) + att
                killed = total >= d["strength"]
                if killed:
                    p_ok = 1.0 if len(mine) == 1 else P_AGREE
                    cost = KILL_COST * att
                else:
                    # someone finishes it later, most likely one more seat joining
                    joiner = next((s for s in range(self.num_players) if s not in mine), None)
                    if joiner is not None:
                        mine[joiner] = d["strength"] - total
                    p_ok = P_WOUND * (1.0 if len(mine) == 1 else P_AGREE)
                    cost = WOUND_COST * att
                tot = sum(mine.values())
                k = len(mine)
                alloc = {}
                for s, v in mine.items():
                    w = 1.0 if k == 1 else (1 - EQUAL) * v / tot + EQUAL / k
                    alloc[s] = {c: q * w for c, q in pool.items()}
                after = self.alloc_scores(base, alloc, rem)
                gain = p_ok * (self.utility(after, rival) - u0)
                if adv == "thief" and k > 1:
                    gain += THIEF_BONUS * (1.0 if killed else P_WOUND)
                if adv == "wizard" and self.advanced and pool.get("red", 0) > 0 and k > 1:
                    gain += min(2.0, pool["red"] / k)
                opts.append((gain - cost, adv, d["id"]))
        return opts

    def attack(self, obs: dict[str, Any]) -> dict[str, Any]:
        req = obs["request"]
        try:
            opts = self._attack_options(obs, self.bonus)
            self.bonus = 0
            if opts:
                best = max(opts, key=lambda o: o[0])
                return {"adventurer": best[1], "dragon": best[2]}
        except Exception as exc:
            self.log(f"attack: {exc!r}")
        self.bonus = 0
        return {"adventurer": req["adventurers"][0], "dragon": req["dragons"][0]}

    # ------------------------------------------------------------------ magic
    def magic(self, obs: dict[str, Any]) -> dict[str, Any]:
        self.bonus = 0
        try:
            cards = obs["request"].get("cards", [])
            by_kind = {c["kind"]: c["id"] for c in cards}
            if "windfall" in by_kind:
                return {"card": by_kind["windfall"]}
            mine = obs["adventurers"][self.seat]
            home_down = [a for a in mine if a["dragon"] is None and a["face"] == "down"]
            home_up = [a for a in mine if a["dragon"] is None and a["face"] == "up"]
            if "second_wind" in by_kind and len(home_down) >= 2 and len(home_up) <= 1:
                return {"card": by_kind["second_wind"]}
            if home_up and ("might" in by_kind or "double_strike" in by_kind):
                fake = dict(obs)
                fake["request"] = {"kind": "attack", "adventurers": [a["id"] for a in home_up],
                                   "dragons": [d["id"] for d in obs["dragons"] if d]}
                plain = max((o[0] for o in self._attack_options(fake, 0)), default=0.0)
                if "might" in by_kind:
                    boosted = max((o[0] for o in self._attack_options(fake, 3)), default=0.0)
                    if boosted > plain + 4.0:
                        self.bonus = 3
                        return {"card": by_kind["might"]}
                if "double_strike" in by_kind and len(home_up) >= 2 and plain > 3.0:
                    return {"card": by_kind["double_strike"]}
        except Exception as exc:
            self.log(f"magic: {exc!r}")
        return {"card": None}

    # ------------------------------------------------------------------ market
    def market_answer(self, obs: dict[str, Any]) -> dict[str, Any]:
        try:
            base = self._base(obs)
            rem = self.remaining(base)
            before = self.expected(base, rem)
            rival = self.rival_of(before)
            u0 = self.utility(before, rival)
            free = list(obs.get("hoard", []))
            accept = []
            for offer in obs["request"].get("offers", []):
                pay = []
                ok = True
                for colour, count in (offer.get("want") or {}).items():
                    have = [t for t in free if colour_of(t) == colour and t not in pay]
                    if len(have) < count:
                        ok = False
                        break
                    pay += have[:count]
                if not ok:
                    continue
                give: dict[str, float] = {}
                for t in offer.get("give", []):
                    give[colour_of(t)] = give.get(colour_of(t), 0) + 1
                paid: dict[str, float] = {}
                for t in pay:
                    paid[colour_of(t)] = paid.get(colour_of(t), 0) + 1
                counts = [dict(c) for c in base]
                for c, k in give.items():
                    counts[self.seat][c] += k
                    counts[offer["from"]][c] = max(0.0, counts[offer["from"]][c] - k)
                for c, k in paid.items():
                    counts[self.seat][c] -= k
                    counts[offer["from"]][c] += k
                if self.utility(self.expected(counts, rem), rival) > u0 + 0.5:
                    accept.append({"offer": offer["id"], "pay": [t["id"] for t in pay]})
                    free = [t for t in free if t not in pay]
            return {"accept": accept}
        except Exception as exc:
            self.log(f"market_answer: {exc!r}")
            return {"accept": []}

    def market_offer(self, obs: dict[str, Any]) -> dict[str, Any]:
        try:
            hoard = obs.get("hoard", [])
            if not hoard or obs["request"].get("max_offers", 0) < 1:
                return {"offers": []}
            base = self._base(obs)
            rem = self.remaining(base)
            before = self.expected(base, rem)
            rival = self.rival_of(before)
            u0 = self.utility(before, rival)
            offers = []
            others = sorted((s for s in range(self.num_players) if s != self.seat and s != rival),
                            key=lambda s: before[s])
            used = set()
            for to in others[: obs["request"]["max_offers"]]:
                best = None
                for t in hoard:
                    if t["id"] in used:
                        continue
                    c = colour_of(t)
                    for want in ("gold", *GEMS):
                        if want == c:
                            continue
                        counts = [dict(x) for x in base]
                        counts[self.seat][c] -= 1
                        counts[to][c] += 1
                        counts[self.seat][want] += 1
                        counts[to][want] = max(0.0, counts[to][want] - 1)
                        gain = self.utility(self.expected(counts, rem), rival) - u0
                        if gain > 2.0 and (best is None or gain > best[0]):
                            best = (gain, t["id"], want)
                if best:
                    used.add(best[1])
                    offers.append({"to": to, "give": [best[1]], "want": {best[2]: 1}})
            return {"offers": offers}
        except Exception as exc:
            self.log(f"market_offer: {exc!r}")
            return {"offers": []}


if __name__ == "__main__":
    run(HardlineBot)
