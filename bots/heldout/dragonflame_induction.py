# Over 400 lines: an outside author's bot is one file, uploaded as it is (bots/heldout/README.md).
"""DragonFlame, an outside bot: backward induction over the attack round, each seat by its own view.

Written from the rules alone (the rulebook, the ladder's edition, the protocol and the SDK).

How it plays:
- It values a hoard as the rules score it (Statues, Chest sets, Jewelry, Princess, Knights, Curse,
  the end-of-game Relics applied), plus what the cards promise for the rest of the game (a Princess
  still collecting names, a Curse still growing, Ring of Fire and Spyglass while rounds remain).
- Villages: a village's worth to a seat is its rank award times the chance the village is ever
  completed (which falls with the spaces missing and with the game running out).
- A castle's worth to a seat: its hoard gain from the cards it can see, a face-down card it cannot
  see at the mean of every card it has not seen, each Dragonflame burnt on its best line, and the
  banner the castle becomes (turn order next round, or points in the last round).
- The attack round is solved by backward induction in banner order: each seat takes the castle
  that is best for it against the table's mean, as far as that seat can see (a card I hid face
  down looks average to the others). It plays each card where that induction leaves it most
  against the others, and its own remaining cards are placed, in the same induction, on the castle
  it expects to loot (good cards) or on one it expects someone else to loot (bad cards).
"""

from __future__ import annotations

import math
import os
import time

from bots.sdk import Bot, run
from ladder.games.dragonflame.rules.data import CARD_BY_ID, GLORY, deck_for

TIME_BOX = float(os.environ.get("DF_INDUCTION_TIME", "0.3"))

CAT = {cid: c.category for cid, c in CARD_BY_ID.items()}
NAME = {cid: c.name for cid, c in CARD_BY_ID.items()}
FIRE = {cid: c.fire for cid, c in CARD_BY_ID.items()}
VALUE = {cid: c.value for cid, c in CARD_BY_ID.items()}
TREASURE = ("chest", "statue", "jewelry")
UNSEEN_CHESTS: dict[str, int] = {}  # per Chest name, copies not seen yet (set at each decision)

TURN_VALUE = 2.5  # worth of playing/attacking first next round rather than last
VILLAGE_DECAY = 0.45  # a village missing m spaces completes with chance exp(-m * decay / game left)
PRINCESS_HOPE = 2.5  # names a Princess may still collect
RING_VALUE = 2.0  # a Ring of Fire at the start of the game
HIDDEN_DOUBT = 0.0  # how much worse than the mean a face-down card a rival chose looks
COMPLETE_TOP = 4  # the best first plays looked at again with the rest of my hand placed after them
CHEST_HOPE = 0.5  # per unseen Chest of my leading name, at the start of the game


# ---------------------------------------------------------------------------------- hoard value

def hoard_value(cards: list[str], left: float) -> float:
    """End-of-game estimate of a hoard: the exact score plus what its cards promise. `left` is
    the fraction of the game still to come (1 at the start, 0 at the end)."""
    statues: dict[str, int] = {}
    chests: dict[str, int] = {}
    names: set[str] = set()
    jewels = knights = 0
    princess = curse = False
    ring = glass = bane = breaker = lucky = 0
    for c in cards:
        cat = CAT[c]
        if cat == "statue":
            n = NAME[c]
            statues[n] = statues.get(n, 0) + 1
            names.add(n)
        elif cat == "chest":
            n = NAME[c]
            chests[n] = chests.get(n, 0) + 1
            names.add(n)
        elif cat == "jewelry":
            jewels += VALUE[c]
            names.add(NAME[c])
        elif cat == "knight":
            knights += 1
        elif cat == "princess":
            princess = True
        elif cat == "curse":
            curse = True
        elif cat == "relic":
            n = NAME[c]
            if n == "Ring of Fire":
                ring += 1
            elif n == "Spyglass":
                glass += 1
            elif n == "Knight's Bane":
                bane += 1
            elif n == "Curse Breaker":
                breaker += 1
            else:
                lucky += 1
    v = float(jewels)
    v += 5 * sum(1 for n in statues.values() if n == 1)
    sizes = sorted(chests.values(), reverse=True)
    k = 1 + lucky
    v += sum(s * s for s in sizes[:k]) - sum(sizes[k:])
    if sizes and CHEST_HOPE:
        lead = max(chests, key=lambda n: (chests[n], UNSEEN_CHESTS.get(n, 0)))
        v += CHEST_HOPE * left * UNSEEN_CHESTS.get(lead, 0) * chests[lead] / 2
    if princess:
        v += len(names) + PRINCESS_HOPE * left
    kept = max(0, knights - 2 * bane)
    v -= 3 * kept
    if bane and knights < 2 * bane:
        v += min(2 * bane - knights, 1) * 1.5 * left
    if curse and not breaker:
        v -= 2 * len(chests) + 1.5 * left
    if breaker and not curse:
        v += 0.5 * left
    v += ring * RING_VALUE * left + glass * 1.0 * left
    if lucky and len(sizes) < 2:
        v += 1.0 * left
    return v


def add_cards(hoard: list[str], cards: list[str]) -> list[str]:
    """The hoard after looting `cards` (no Dragonflames: they burn; a second Princess/Curse goes)."""
    out = list(hoard)
    has_p = any(CAT[c] == "princess" for c in out)
    has_c = any(CAT[c] == "curse" for c in out)
    for c in cards:
        cat = CAT[c]
        if cat == "dragonflame":
            continue
        if cat == "princess":
            if has_p:
                continue
            has_p = True
        if cat == "curse":
            if has_c:
                continue
            has_c = True
        out.append(c)
    return out


# ---------------------------------------------------------------------------------- villages

class Board:
    """The village grid: per cell (spaces, fire list of seats); lines as cell index paths."""

    def __init__(self, grid: list[list[dict]]) -> None:
        self.rows, self.cols = len(grid), len(grid[0])
        self.spaces = [cell["spaces"] for row in grid for cell in row]
        self.fire = [list(cell["fire"]) for row in grid for cell in row]
        self.lines = []
        for r in range(self.rows):
            path = [r * self.cols + c for c in range(self.cols)]
            self.lines.append(("left", r, path))
            self.lines.append(("right", r, path[::-1]))
        for c in range(self.cols):
            path = [r * self.cols + c for r in range(self.rows)]
            self.lines.append(("top", c, path))
            self.lines.append(("bottom", c, path[::-1]))


def cell_worth(spaces: int, fire: list[int], players: int, left: float) -> list[float]:
    """Each seat's expected glory from one village: rank award times the chance it completes."""
    out = [0.0] * players
    if spaces == 0 or not fire:
        return out
    missing = spaces - len(fire)
    p = 1.0 if missing <= 0 else math.exp(-missing * VILLAGE_DECAY / max(0.12, left))
    counts: dict[int, int] = {}
    for s in fire:
        counts[s] = counts.get(s, 0) + 1
    ranked = sorted(counts, key=lambda s: (-counts[s], fire.index(s)))
    awards = GLORY[spaces]
    for rank, s in enumerate(ranked):
        if rank < len(awards):
            out[s] += p * awards[rank]
    return out


def burn_effect(board: Board, seat: int, tokens: int, supply: int, players: int, left: float,
                apply: bool = False):
    """The best line for `seat` with `tokens` fire: (effect on every seat, side, index). The line
    maximises the seat's own gain less the others' mean gain. `apply` burns it on the board."""
    best = None
    others = max(1, players - 1)
    for side, index, path in board.lines:
        touched = []
        placed = 0
        for cell in path[:tokens]:
            if board.spaces[cell] == 0 or len(board.fire[cell]) >= board.spaces[cell] or placed >= supply:
                continue
            touched.append(cell)
            placed += 1
        eff = [0.0] * players
        for cell in touched:
            before = cell_worth(board.spaces[cell], board.fire[cell], players, left)
            after = cell_worth(board.spaces[cell], board.fire[cell] + [seat], players, left)
            for s in range(players):
                eff[s] += after[s] - before[s]
        score = eff[seat] - (sum(eff) - eff[seat]) / others
        if best is None or score > best[0] + 1e-9:
            best = (score, eff, side, index, touched)
    _score, eff, side, index, touched = best
    if apply:
        for cell in touched:
            board.fire[cell].append(seat)
    return eff, side, index


# ---------------------------------------------------------------------------------- the bot

class Induction(Bot):
    def setup(self, hello):
        super().setup(hello)
        self.n = self.num_players
        self.all_ids = [c.id for c in deck_for(self.n)]
        self.seen: set[str] = set()
        self.per_round = 4 if self.n == 2 else 3
        self.total_rounds = (len(self.all_ids) - 1) // (self.per_round * self.n)

    # -- memory of every card seen
    def on_event(self, event):
        data = event.get("data") or {}
        kind = event.get("type")
        cards = []
        if kind in ("hand", "attack", "spied"):
            cards = data.get("cards") or []
        elif kind in ("play", "second_discarded"):
            if data.get("card"):
                cards = [data["card"]]
        elif kind == "castle_discarded":
            cards = data.get("face_up") or []
        for c in cards:
            if isinstance(c, dict) and "id" in c:
                self.seen.add(c["id"])

    def absorb(self, obs):
        self._unk: dict[int, dict[int, float]] = {}
        self._absorb(obs)
        UNSEEN_CHESTS.clear()
        for c in self.unseen():
            if CAT[c] == "chest":
                UNSEEN_CHESTS[NAME[c]] = UNSEEN_CHESTS.get(NAME[c], 0) + 1

    def _absorb(self, obs):
        for c in obs.get("hand") or []:
            self.seen.add(c["id"])
        for castle in obs["castles"]:
            for e in castle["cards"]:
                if "card" in e:
                    self.seen.add(e["card"]["id"])
        for h in obs["hoards"]:
            for c in h:
                self.seen.add(c["id"])

    def unseen(self):
        return [c for c in self.all_ids if c not in self.seen]

    # -- game clock
    def left_after(self, obs) -> float:
        """Fraction of the game left after this round's looting."""
        rounds_after = obs["deck"] // (self.per_round * self.n)
        return rounds_after / max(1, self.total_rounds)

    def last_round(self, obs) -> bool:
        return obs["deck"] < self.per_round * self.n

    # -- castle gains
    def banner_gain(self, obs, number: int, taken: list[int]) -> float:
        """Worth of the banner a castle becomes. `taken` are the castles looted this round
        (for the two-player hand-over)."""
        last = self.last_round(obs)
        if self.n == 2:
            first = number == min(taken) if len(taken) == 2 else number == 1
            if last:
                return 1.0 if first else 2.0
            return TURN_VALUE if first else 0.0
        if last:
            return float(number)
        numbers = sorted(c["number"] for c in obs["castles"])
        numbers = sorted(set(numbers + [b["number"] for b in obs["banners"]] +
                             ([obs["set_aside"]["number"]] if obs.get("set_aside") else [])))
        pos = numbers.index(number) if number in numbers else 0
        return TURN_VALUE * (1.0 - pos / max(1, len(numbers) - 1))

    def mean_unknown(self, hoard, left, pool, board, seat, supply, obs):
        """Mean gain to `seat` of one card drawn from `pool` (cards it has not seen)."""
        if not pool:
            return 0.0
        base = hoard_value(hoard, left)
        rings = sum(1 for c in hoard if NAME[c] == "Ring of Fire")
        memo: dict[str, float] = {}
        total = 0.0
        for c in pool:
            key = NAME[c] + str(FIRE[c])
            if key not in memo:
                if CAT[c] == "dragonflame":
                    eff, _s, _i = burn_effect(board, seat, FIRE[c] + rings, supply, self.n, left)
                    memo[key] = eff[seat] - (sum(eff) - eff[seat]) / max(1, self.n - 1)
                else:
                    memo[key] = hoard_value(add_cards(hoard, [c]), left) - base
            total += memo[key]
        return total / len(pool)

    def gains(self, obs, viewer: int, extra: dict | None = None):
        """gains[c][s]: the change to every seat's value when seat s loots castle c, as `viewer`
        sees the castle (face-down cards it does not know at the mean of its unseen cards)."""
        left = self.left_after(obs)
        board = Board(obs["grid"])
        hoards = [[c["id"] for c in h] for h in obs["hoards"]]
        out = {}
        if viewer == self.seat:
            pool = self.unseen()
        else:
            # what the viewer has not seen: my view plus the cards only I know (my hand and my
            # face-down cards), less what the viewer played face down
            mine = {c["id"] for c in obs.get("hand") or []}
            for castle in obs["castles"]:
                for e in castle["cards"]:
                    if e["face"] == "down" and e.get("by") == self.seat and "card" in e:
                        mine.add(e["card"]["id"])
            pool = self.unseen() + sorted(mine)
        unk_cache = self._unk.setdefault(viewer, {})  # per decision: the mean does not change
        for castle in obs["castles"]:
            if castle["attacker"] is not None:
                continue
            known, unknown = [], 0
            entries = list(castle["cards"]) + list((extra or {}).get(castle["number"], []))
            for e in entries:
                if "card" in e and (e["face"] == "up" or viewer == self.seat or e.get("by") == viewer):
                    known.append(e["card"]["id"])
                else:
                    unknown += 1
            row = []
            for s in range(self.n):
                h = hoards[s]
                loot = add_cards(h, known)
                gain = hoard_value(loot, left) - hoard_value(h, left)
                eff = [0.0] * self.n
                eff[s] += gain
                rings = sum(1 for c in loot if NAME[c] == "Ring of Fire")
                flames = [c for c in known if CAT[c] == "dragonflame"]
                if flames:
                    b2 = Board(obs["grid"])
                    supply = obs["fire"][s]
                    for f in flames:
                        e2, _sd, _ix = burn_effect(b2, s, FIRE[f] + rings, supply, self.n, left, apply=True)
                        supply -= FIRE[f] + rings
                        for t in range(self.n):
                            eff[t] += e2[t]
                if unknown:
                    if s not in unk_cache:
                        unk_cache[s] = self.mean_unknown(h, left, pool, board, s, obs["fire"][s], obs)
                    eff[s] += unknown * unk_cache[s]
                    if s == viewer:  # a card hidden from me was chosen by a rival: expect worse
                        eff[s] -= unknown * HIDDEN_DOUBT
                row.append(eff)
            out[castle["number"]] = row
        return out

    # -- backward induction over the attack round
    def induce(self, obs, views, order_left: list[int], castles: list[int], done: dict[int, int]):
        """Assignment seat -> castle when the seats of `order_left` attack in that order, each
        taking what its own view (views[seat]) says is best against the table's mean."""
        memo: dict[tuple, dict[int, int]] = {}

        def leaf_value(seat, assign):
            g = views[seat]
            taken = list(assign.values())
            tot = [0.0] * self.n
            for s, c in assign.items():
                if c in g:
                    for t in range(self.n):
                        tot[t] += g[c][s][t]
            for s, c in assign.items():
                tot[s] += self.banner_gain(obs, c, taken)
            return tot[seat] - (sum(tot) - tot[seat]) / max(1, self.n - 1)

        def rec(i, remaining: tuple, assign: dict) -> dict[int, int]:
            """The choices of the seats order_left[i:], given the choices in `assign` before."""
            if i == len(order_left):
                return {}
            key = (i, remaining)
            if key in memo:
                return memo[key]
            seat = order_left[i]
            best, best_v = None, -1e18
            for c in remaining:
                assign[seat] = c
                sub = rec(i + 1, tuple(x for x in remaining if x != c), assign)
                full = {**assign, **sub}
                del assign[seat]
                v = leaf_value(seat, full)
                if v > best_v + 1e-9:
                    best, best_v = {seat: c, **sub}, v
            if self.n > 2:  # best replies depend on the castles left only (two seats: the banner pair)
                memo[key] = best
            return best

        return {**done, **rec(0, tuple(castles), dict(done))}

    def my_value(self, obs, mine, assign):
        taken = list(assign.values())
        tot = [0.0] * self.n
        for s, c in assign.items():
            if c in mine:
                for t in range(self.n):
                    tot[t] += mine[c][s][t]
        for s, c in assign.items():
            tot[s] += self.banner_gain(obs, c, taken)
        return tot[self.seat] - (sum(tot) - tot[self.seat]) / max(1, self.n - 1)

    def forecast(self, obs, extra=None):
        """My value of the attack round once the castles hold `extra` too."""
        views = {s: self.gains(obs, s, extra) for s in range(self.n)}
        castles = [c["number"] for c in obs["castles"] if c["attacker"] is None]
        done = {s: n for s, n in enumerate(obs["looted"]) if n is not None}
        order = [s for s in obs["order"] if s not in done]
        assign = self.induce(obs, views, order, castles, done)
        return self.my_value(obs, views[self.seat], assign), assign

    # -- decisions
    def play(self, obs):
        self.absorb(obs)
        req = obs["request"]
        if not req["castles"]:
            return {"card": req["cards"][0], "castle": None}
        start = time.monotonic()
        cpu = time.process_time()
        hand = {c["id"]: c for c in obs["hand"]}
        face = req["face"]
        _v0, base_assign = self.forecast(obs)
        target = base_assign.get(self.seat)
        options = [(c, k) for c in req["cards"] for k in req["castles"]]
        # the castles I expect to loot first: a good card goes there, a bad one elsewhere
        options.sort(key=lambda ck: 0 if ck[1] == target else 1)

        def out_of_time(share=1.0):
            box = TIME_BOX * share
            return time.monotonic() - start > box or time.process_time() - cpu > box

        first = []
        for cid, k in options:
            if out_of_time(0.6) and first:
                break
            extra = {k: [{"face": face, "by": self.seat, "card": hand[cid]}]}
            v, _assign = self.forecast(obs, extra)
            first.append((v, cid, k))
        first.sort(key=lambda t: -t[0])
        # the best few, again with the rest of my hand placed after them, one card at a time
        # where the forecast likes it most (faces as my banner dictates)
        pattern = obs["banners"][self.seat]["pattern"]
        done_plays = obs["played"][self.seat]
        limits = {c["number"]: c["limit"] - len(c["cards"]) for c in obs["castles"]}
        best, best_v = (first[0][1], first[0][2]), None
        for _v, cid, k in first[:int(COMPLETE_TOP)]:
            if out_of_time() or len(req["cards"]) < 2:
                break
            extra = {k: [{"face": face, "by": self.seat, "card": hand[cid]}]}
            room = dict(limits)
            room[k] -= 1
            rest = [c for c in req["cards"] if c != cid]
            value = _v
            for j, other in enumerate(rest):
                pos = done_plays + 1 + j
                f = "up" if pos < len(pattern) and pattern[pos] == "U" else "down"
                best_here = None
                if out_of_time():
                    value = None
                    break
                for kk in req["castles"]:
                    if room[kk] <= 0:
                        continue
                    trial = {x: list(y) for x, y in extra.items()}
                    trial.setdefault(kk, []).append({"face": f, "by": self.seat, "card": hand[other]})
                    v2, _a = self.forecast(obs, trial)
                    if best_here is None or v2 > best_here[0]:
                        best_here = (v2, kk, trial)
                if best_here is None:
                    break
                value, kk, extra = best_here
                room[kk] -= 1
            if value is None:
                break
            if best_v is None or value > best_v + 1e-9:
                best, best_v = (cid, k), value
        return {"card": best[0], "castle": best[1]}

    def spy(self, obs):
        self.absorb(obs)
        castles = obs["request"]["castles"]
        if not castles:
            return {"castle": None}

        def unseen_count(num):
            castle = next(c for c in obs["castles"] if c["number"] == num)
            return sum(1 for e in castle["cards"] if "card" not in e)

        return {"castle": max(castles, key=lambda k: (unseen_count(k), k))}

    def attack(self, obs):
        self.absorb(obs)
        castles = obs["request"]["castles"]
        if len(castles) == 1:
            return {"castle": castles[0]}
        _v, assign = self.forecast(obs)
        choice = assign.get(self.seat)
        if choice not in castles:
            choice = castles[0]
        return {"castle": choice}

    def flame(self, obs):
        self.absorb(obs)
        req = obs["request"]
        board = Board(obs["grid"])
        left = self.left_after(obs)
        _eff, side, index = burn_effect(board, self.seat, req["tokens"], obs["fire"][self.seat], self.n, left)
        return {"side": side, "index": index}


if __name__ == "__main__":
    run(Induction)
