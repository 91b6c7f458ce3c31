"""The search house bot for DragonFlame: the heuristic's candidates, judged by whole-game samples.

Every decision starts from the heuristic bot's values (`ladder.games.dragonflame.rules.outlook`: card
counting and a forecast of the attack round), which pick the CANDIDATES most promising choices
(plays, attacks and Dragonflames alike). They are then judged by flat Monte Carlo over
determinizations: it samples full states consistent with what it saw (the game's own forward
model, `ladder.games.dragonflame.rules.forward`: other hands, face-down cards and the deck dealt at
random), plays each candidate on the same sample (common random numbers: the candidates meet the
same luck) and plays on TO THE END OF THE GAME with a fast policy for every seat (see `policy`),
so the banner a castle gives for the next round, the turn order and the last round's banner
count through the rules themselves. A playout is scored by the final result: the seats it beats
(a tie half), which is what a tournament ranks, plus a little of its lead in points. The
heuristic's first choice stands unless another candidate leads it, sample by sample, by
CONFIDENCE standard errors (`choose`): the playouts' policy is crude, and a lead inside their
noise is no reason to overrule the heuristic.

A whole game of the fast policy costs about a millisecond, so SEARCH_SECONDS of wall time per
decision (under a third of the ladder's 1 s) buys on the order of a hundred playouts; at most
MAX_SWEEPS samples, at least one. With the same seed and events it plays the same unless the clock
cuts a search short; a search cut short still compares every candidate on the same samples.
The Spyglass is always used where most is unseen. Standard library and the game's rules only.

With TWO seats (the ladder's table for the boss, issue #47) it plays differently: the game is
zero-sum, so every choice is ranked by the lead it leaves (`Duel`: our gain less the other's, a
card the other loots costing as much as one we loot gains), the attack round forecast as a
two-move game with the castle numbers' banners counted, and that ranking decides alone, in
milliseconds: playouts on top of it measured no better. See docs/bots.md (House bots:
DragonFlame) for the measurements.
"""

from __future__ import annotations

import random
import time

from bots.sdk import Bot, run

TYPE_CHECKING = False  # typing is for type checkers only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

SEARCH_SECONDS = 0.25  # per decision: a quarter of the ladder's 1 s, the bank untouched even when slowed
MAX_SWEEPS = 400  # samples per decision: every candidate is played out once on each
CANDIDATES = 6  # the heuristic's best few decisions are searched, not every listed one
LEAD_WEIGHT = 0.02  # a playout's worth: seats beaten, plus this much a point of lead over their mean
CONFIDENCE = 1.5  # standard errors of lead over the heuristic's first choice that overrule it
EXPLORE = 0.15  # the fast policy's share of uniformly random plays (keeps the playouts varied)
HIDDEN = 0.0  # a face-down card another seat played, to a playout's seat (it cannot see it)


def outcome(scores: list[int], seat: int) -> float:
    """A finished playout's worth to `seat`: the seats it beats (a tie half) and a little lead."""
    mine = scores[seat]
    others = [v for s, v in enumerate(scores) if s != seat]
    beaten = sum(1.0 if mine > v else 0.5 if mine == v else 0.0 for v in others)
    return beaten + LEAD_WEIGHT * (mine - sum(others) / len(others))


def choose(gains: list[list[float]]) -> int:
    """The candidate to play: the heuristic's first (index 0) unless another's mean gain over it,
    sample by sample, is both the largest and CONFIDENCE standard errors above nothing."""
    n = len(gains[0])
    if n < 2:
        return 0
    best, best_score = 0, 0.0
    for i in range(1, len(gains)):
        mean = sum(gains[i]) / n
        var = sum((g - mean) ** 2 for g in gains[i]) / (n - 1)
        if mean > 0 and mean * mean * n > CONFIDENCE * CONFIDENCE * var and mean > best_score:
            best, best_score = i, mean
    return best


class SearchBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.hello: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.sweeps: list[int] = []  # samples per searched decision (tests and tuning read it)

    def setup(self, hello: dict[str, Any]) -> None:
        super().setup(hello)
        self.hello = hello

    def on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def decide(self, kind: str, observation: dict[str, Any]) -> dict[str, Any]:
        start = time.monotonic()
        # The rules are imported at the first decision, not at start-up: `ready` must come within
        # the start-up limit even on a busy machine, and the rules are most of the start's cost.
        from ladder.games.dragonflame.rules.forward import Sampler, clone
        from ladder.games.dragonflame.rules.outlook import Outlook, spy

        if kind == "spy":
            return spy(observation)
        sampler = Sampler(self.hello, observation, self.events)
        outlook = Outlook(sampler)
        if observation["players"] == 2:
            # Two seats: the Duel ranking decides alone. The playouts below, judged on top of it,
            # measured no better (0.57 of 100 games against the outsider at 0.1 s a decision,
            # the ranking alone 0.585 of 200, both before DUMPED_2P fell to 0) at seventy times
            # the cost; with no playouts a two-seat answer takes milliseconds.
            return Duel(outlook).ranked(kind, observation["request"])[0][1]
        ranked = outlook.ranked(kind, observation["request"])
        candidates = [decision for _worth, decision in ranked[:CANDIDATES]]
        if len(candidates) == 1:
            return candidates[0]
        gains: list[list[float]] = [[] for _ in candidates]  # per sample: a candidate's worth less the first's
        sweeps = 0
        while sweeps < MAX_SWEEPS and (sweeps < 1 or time.monotonic() - start < SEARCH_SECONDS):
            sample = sampler.sample(self.rng)
            sample._emit = quiet  # a playout's events go nowhere: building them would double its cost
            seed = self.rng.getrandbits(32)
            values = []
            for decision in candidates:
                state = clone(sample)
                state.apply_validated(self.seat, decision)
                values.append(self.playout(state, random.Random(seed)))
            for i, value in enumerate(values):
                gains[i].append(value - values[0])
            sweeps += 1
        self.sweeps.append(sweeps)
        return candidates[choose(gains)]

    def playout(self, state, rng: random.Random) -> float:
        """Play on to the end of the game with the fast policy; the result's worth to us."""
        pending = state.pending()
        while pending is not None:
            state.apply_validated(pending.seat, policy(state, pending.seat, pending.kind, rng))
            pending = state.pending()
        return outcome(state.scores(), self.seat)


def _rough(card) -> float:
    """A card's worth at a glance, for the fast policy (the end of a playout is scored exactly)."""
    by_category = {"statue": 4.0, "chest": 2.0, "knight": -3.0, "curse": -3.0, "princess": 3.0, "relic": 1.0}
    return card.value or 1.5 * card.fire or by_category.get(card.category, 0.0)


ROUGH: dict[str, float] = {}  # card id -> _rough, filled at the first playout (the rules load late)


def rough(card: str) -> float:
    if not ROUGH:
        from ladder.games.dragonflame.rules.data import CARD_BY_ID

        ROUGH.update((cid, _rough(c)) for cid, c in CARD_BY_ID.items())
    return ROUGH[card]


def quiet(*_args: Any, **_data: Any) -> None:
    """Stands in for the state's event log during a playout."""


def policy(state, seat: int, kind: str, rng: random.Random) -> dict[str, Any]:
    """The fast policy every seat follows in a playout: a seat means to attack the castle that
    looks richest to it (others' face-down cards unseen, `_worth`), so it plays a good card there
    and a bad one (a Knight, a Curse) onto another; it attacks the richest castle left (in the
    last round the banner's number counts); Dragonflames go where they burn most (`flame_line`).
    EXPLORE of the plays are uniformly random."""
    if kind == "play":
        hand = state.hands[seat]
        roomy = [c for c in state.castles if c.room]
        card = rng.choice(hand)
        if not roomy:
            return {"card": card, "castle": None}
        if len(roomy) == 1 or rng.random() < EXPLORE:
            return {"card": card, "castle": rng.choice(roomy).number}
        target = max(roomy, key=lambda c: _worth(c, seat))
        if rough(card) >= 0:
            return {"card": card, "castle": target.number}
        return {"card": card, "castle": rng.choice([c for c in roomy if c is not target]).number}
    if kind == "spy":
        return {"castle": None}
    if kind == "flame":
        return flame_line(state, seat, rng)
    last = len(state.deck) < state.per_round * state.num_players  # the banner looted now scores
    open_ = [c for c in state.castles if c.attacker is None]
    if last:
        return {"castle": max(open_, key=lambda c: _worth(c, seat) + c.number).number}
    return {"castle": max(open_, key=lambda c: _worth(c, seat)).number}


def flame_line(state, seat: int, rng: random.Random) -> dict[str, Any]:
    """The line whose tokens land on the most village spaces, fuller villages first (they are
    nearer to paying); ties at random."""
    grid, tokens = state.grid, state.flame_tokens(seat, state.flames[0])
    best, best_gain = [], -1.0
    for side, index in grid.lines():
        gain = 0.0
        for row, col in grid.path(side, index)[:tokens]:
            cell = grid.cells[row * grid.cols + col]
            if len(cell.fire) < cell.spaces:
                gain += 1.0 + len(cell.fire) / cell.spaces
        if gain > best_gain:
            best, best_gain = [(side, index)], gain
        elif gain == best_gain:
            best.append((side, index))
    side, index = rng.choice(best)
    return {"side": side, "index": index}


def _worth(castle, seat: int) -> float:
    """A castle's cards at a glance, as `seat` sees them: a face-down card another seat played
    counts HIDDEN whatever it is (the playout knows it, the seat would not: a Knight dumped face
    down must still catch a greedy attacker, as it does in the real game)."""
    return sum(rough(cid) if up or by == seat else HIDDEN for cid, up, by in castle.cards)


BANNER_2P = 2.0  # 2 players: holding green banner 1 next round (play and attack first), in points of lead
DUMPED_2P = 0.0  # 2 players: a card hidden from the judging seat, less than the average unseen card by this
FLAME_DENY = 1.0  # 2 players: a Dragonflame's line is judged by our village gain less this much of the other's



class Duel:
    """The two-player ranking (docs/bots.md): every choice judged by the LEAD it leaves, our gain
    less the other's, since with two seats a card the other loots costs as much as one we loot
    gains. The attack round is forecast as a tiny game: the first attacker takes the castle best
    for it once the second's best reply is counted, the second the best of the two left, each
    from what it can see; the castle numbers decide next round's banners (BANNER_2P) or, in the
    last round, the banner that scores (the lower looter scores 1, the other 2)."""

    def __init__(self, outlook) -> None:
        from ladder.games.dragonflame.rules.outlook import DUMPED

        self.hidden_shift = DUMPED - DUMPED_2P  # outlook's unseen-card value, moved to the two-seat one
        self.o = outlook
        self.me = outlook.seat
        self.opp = 1 - outlook.seat
        self._memo: dict = {}

    def worth(self, seat: int, view: int, castle, extra) -> float:
        """Castle cards' worth to `seat` judged from what `view` sees (hidden cards at the average
        unseen card less the dumping discount), the banner aside. `extra`: (castle number, card,
        face up) of our card about to be played, or None."""
        card = extra[1:] if extra is not None and extra[0] == castle.number else None
        key = (seat, view, castle.number, card)
        if key not in self._memo:
            from ladder.games.dragonflame.rules.outlook import card_worth

            o = self.o
            known, hidden = o.seen_by(view, castle, card)
            value = card_worth(o.state.hoards[seat], known, o.state.fire[seat])
            self._memo[key] = value + hidden * (o.unknown[seat] + self.hidden_shift)
        return self._memo[key]

    def banner(self, mine: int, theirs: int) -> float:
        """The lead the two looted castle numbers are worth to us."""
        if self.o.last:
            return 1.0 if mine > theirs else -1.0
        return BANNER_2P / 2 if mine < theirs else -BANNER_2P / 2

    def lead(self, view: int, who: int, own, others, extra) -> float:
        """`who`'s lead, from what `view` sees, if it loots castle `own` and the other seat `others`."""
        value = self.worth(who, view, own, extra)
        if others is not None:
            value -= self.worth(1 - who, view, others, extra)
            mine, theirs = (own.number, others.number) if who == self.me else (others.number, own.number)
            value += (1.0 if who == self.me else -1.0) * self.banner(mine, theirs)
        return value

    def choice(self, seat: int, left: list, theirs, extra):
        """The castle `seat` attacks from `left`, judged from what it sees: with the other seat still
        to attack, the one best once the other's best reply is counted."""
        other = 1 - seat
        if theirs is not None or len(left) == 1:
            return max(left, key=lambda c: self.lead(seat, seat, c, theirs, extra))

        def value(c) -> float:
            reply = max((d for d in left if d is not c), key=lambda d: self.lead(seat, other, d, c, extra))
            return self.lead(seat, seat, c, reply, extra)

        return max(left, key=value)

    def attack_round(self, extra: tuple[int, str, bool] | None) -> float:
        """Our lead after the attack round as forecast (extra: our card about to go onto a castle)."""
        st = self.o.state
        left = [c for c in st.castles if c.attacker is None]
        taken = [st.taken[0], st.taken[1]]
        for seat in st.order:
            if taken[seat] is None and left:
                taken[seat] = self.choice(seat, left, taken[1 - seat], extra)
                left = [c for c in left if c is not taken[seat]]
        return self.lead(self.me, self.me, taken[self.me], taken[self.opp], extra)

    def ranked(self, kind: str, request: dict[str, Any]) -> list[tuple[float, dict[str, Any]]]:
        o = self.o
        if kind == "attack":
            st = o.state
            theirs = st.taken[self.opp]
            left = [c for c in st.castles if c.attacker is None]
            scored = []
            for n in request["castles"]:
                c = st.castle(n)
                reply = theirs
                if reply is None and len(left) > 1:
                    reply = self.choice(self.opp, [d for d in left if d is not c], c, None)
                scored.append((self.lead(self.me, self.me, c, reply, None), {"castle": n}))
        elif kind == "flame":
            scored = [(self.flame_gain(line["side"], line["index"], request["tokens"]), dict(line))
                      for line in request["lines"]]
        elif not request["castles"]:
            return o.ranked(kind, request)
        else:
            up = request["face"] == "up"
            scored = [(self.attack_round((n, c, up)), {"card": c, "castle": n})
                      for c in request["cards"] for n in request["castles"]]
        return sorted(scored, key=lambda pair: -pair[0])

    def flame_gain(self, side: str, index: int, tokens: int) -> float:
        from ladder.games.dragonflame.rules.forward import clone
        from ladder.games.dragonflame.rules.outlook import village_outlook

        state = clone(self.o.state)
        before = [village_outlook(state, s) for s in (0, 1)]
        state.grid.burn(self.me, side, index, tokens, state.fire[self.me])
        after = [village_outlook(state, s) - before[s] for s in (0, 1)]
        return after[self.me] - FLAME_DENY * after[self.opp]


if __name__ == "__main__":
    run(SearchBot)
