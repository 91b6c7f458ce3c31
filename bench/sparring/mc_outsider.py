"""Sparring partner for issue #47 (written by the boss-dg session, never a starter bot): an outside
bot that picks its attacks by determinized Monte Carlo, as issue #47 describes the outsider strong
lost to. Its negotiation, thefts, magic and market are the gauntlet's hardball.py (imported, not
copied); its attacks: the hardball heuristic's best few (adventurer, dragon) choices, each played
on the same sampled hidden states of the SDK's forward model, then two rounds of a fast policy for
every seat, scored by the true scoring of the sampled hoards (its score less the best other's).
"""

from __future__ import annotations

import random
import time

from bots.drachengold.boss import _token_tables, rollout
from bots.forward import ForwardModel
from bots.gauntlet.hardball import Hardball
from bots.sdk import run

BUDGET = 0.35
CANDIDATES = 5
ROUNDS = 2


class McOutsider(Hardball):
    def setup(self, hello):
        super().setup(hello)
        self.model = ForwardModel(hello)

    def on_event(self, event):
        super().on_event(event)
        self.model.observe(event)

    def attack(self, obs):
        self.obs = obs
        self._resync(obs)
        req = obs["request"]
        table = {d["id"]: d for d in obs["dragons"] if d}
        mine = {a["id"]: a for a in obs["adventurers"][self.seat]}
        ready = [mine[i] for i in req["adventurers"] if i in mine]
        mean = self.token_mean()
        scored = sorted(((self.option_value(obs, a, table[d], mean, 3 if self.might_now else 0, ready), a["id"], d)
                         for a in ready for d in req["dragons"] if d in table), reverse=True)
        cands = [{"adventurer": a, "dragon": d} for _, a, d in scored[:CANDIDATES]]
        if len(cands) < 2:
            return cands[0] if cands else {"adventurer": req["adventurers"][0], "dragon": req["dragons"][0]}
        _token_tables()
        start, totals, k = time.perf_counter(), [0.0] * len(cands), 0
        base = self.rng.getrandbits(32)
        try:
            while time.perf_counter() - start < BUDGET and k < 60:
                for i, c in enumerate(cands):
                    st = self.model.sample(obs, random.Random(base + k))
                    st.apply(self.seat, c)
                    rollout(st, random.Random(base + k + 1), ROUNDS * self.num_players)
                    sc = st.scores()
                    totals[i] += sc[self.seat] - max(s for j, s in enumerate(sc) if j != self.seat)
                k += 1
        except Exception:
            return cands[0]
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]


if __name__ == "__main__":
    run(McOutsider)
