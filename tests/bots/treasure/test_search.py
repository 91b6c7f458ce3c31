"""Treasure's search bot: the turn planner against a brute force and against the careful policy, the
Spider-bonus model by hand, the copied careful policy, and the endgame playouts on the forward model."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from games.treasure.layouts import build_layout

import bots.treasure.search as search
from bots.treasure.careful import CarefulBot
from bots.treasure.search import NEXT_DRAGON, Planner, SearchBot, bonus_edge, careful_choice, view
from ladder.games.treasure import Treasure
from ladder.games.treasure.rules.tiles import COLS

SETS = {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}
KINDS = [*SETS, "dragon", "spider"]


def hello(seat: int, players: int) -> dict:
    return {"game": "treasure", "seat": seat, "players": players, "options": {}, "seed": 9}


# ---- the planner ---------------------------------------------------------------------------------------

def brute(hand: list[str], known: list[str], pool: list[str], gift: float) -> float:
    """The best worth of the rest of a turn, by brute force over tiles (not kinds): every choice
    (stop, turn an unseen tile, turn any remembered tile) and every unseen tile that may come up.
    A Dragon is worth NEXT_DRAGON; what the next seat can take without risk costs `gift` a tile."""

    def leak(face_down: list[str]) -> float:
        counts = Counter(face_down)
        sets = sum(counts[k] // s * s for k, s in SETS.items())
        return gift * max(sets, counts["dragon"] * NEXT_DRAGON)

    def after(hand: list[str], known: list[str], pool: list[str], tile: str) -> float:
        """`tile` was just turned: the turn ends (nothing kept, all goes back known) or goes on."""
        first, run = not hand, bool(hand) and hand[0] == "dragon"
        if tile == "spider" or (not first and ((tile != "dragon") if run else (tile == "dragon"))):
            return -leak(known + hand + [tile])
        return best([*hand, tile], known, pool)

    def best(hand: list[str], known: list[str], pool: list[str]) -> float:
        values = []
        if hand:
            if hand[0] == "dragon":
                kept, back = len(hand) * NEXT_DRAGON, []
            else:
                counts = Counter(hand)
                kept = sum(counts[k] // s * s for k, s in SETS.items())
                back = [k for k in counts for _ in range(counts[k] % SETS[k])]
            values.append(kept - leak(known + back))
        if pool:
            values.append(sum(after(hand, known, pool[:i] + pool[i + 1:], t) for i, t in enumerate(pool)) / len(pool))
        for kind in set(known):
            rest = list(known)
            rest.remove(kind)
            values.append(after(hand, rest, pool, kind))
        return max(values)

    return best(hand, known, pool)


@pytest.mark.parametrize("gift", [0.0, 0.33])
def test_the_planner_values_small_caves_as_a_brute_force_over_tiles(gift):
    rng = random.Random(7)
    checked = 0
    for _ in range(120):
        pool = rng.choices(KINDS, k=rng.randint(1, 5))
        known = rng.choices(KINDS[:-1], k=rng.randint(0, 3))
        start = rng.choice(["first", "hunt", "run"])
        hand = {"first": [], "hunt": rng.choices(list(SETS), k=rng.randint(1, 3)),
                "run": ["dragon"] * rng.randint(1, 2)}[start]
        planner = Planner(SETS, Counter(hand), start == "run", Counter(known), Counter(pool), gift=gift)
        if not (hand or pool or set(known) - {"spider"}):
            continue
        assert planner.value() == pytest.approx(brute(hand, known, pool, gift)), (hand, known, pool)
        checked += 1
    assert checked > 100


def test_the_planner_chases_a_set_two_flips_away_that_the_careful_policy_gives_up():
    # a Diamond won and a Chest face up, a Chest remembered: one more Chest is still no set (3 of 4),
    # so the careful policy sees no gain against the Dragons' risk and stops with the Diamond
    hand, known, pool = Counter(diamond=1, chest=1), Counter(chest=1), Counter(chest=6, dragon=2)
    assert careful_choice(SETS, hand.copy(), False, known, 8, pool) == "stop"
    planner = Planner(SETS, hand, False, known, pool, gift=0)
    # two more Chests in a row make 4 and the Diamond 5 tiles: 6/8 * 5/7 * 5 = 2.68 against 1 for a stop
    assert planner.options() == pytest.approx({"stop": 1, "unseen": 6 / 8 * 5 / 7 * 5})
    assert planner.choose() == "unseen"


def test_the_planner_stops_where_a_bust_would_feed_the_next_seat():
    # 3 Diamonds won this turn, 7 Diamonds and 2 Dragons unseen: the careful policy (and a planner
    # counting only its own tiles) flips on; a bust would give the next seat all 3 Diamonds, known
    hand, pool = Counter(diamond=3), Counter(diamond=7, dragon=2)
    assert careful_choice(SETS, hand.copy(), False, Counter(), 9, pool) == "unseen"
    assert Planner(SETS, hand, False, Counter(), pool, gift=0).choose() == "unseen"
    assert Planner(SETS, hand, False, Counter(), pool).choose() == "stop"


def test_the_planner_collects_remembered_tiles_before_it_stops():
    # a Scroll face up and one remembered: turn it before stopping; in a run, the remembered Dragons
    pool = Counter(dragon=5, spider=3)
    assert Planner(SETS, Counter(scroll=1), False, Counter(scroll=1), pool).choose() == "scroll"
    assert Planner(SETS, Counter(dragon=1), True, Counter(dragon=2), pool).choose() == "dragon"
    assert Planner(SETS, Counter(scroll=1), False, Counter(), pool).choose() == "stop"


def test_the_spider_bonus_model_by_hand():
    assert bonus_edge(1, (0, 0, 0), 0) == 3  # the single leader takes the 3 Spiders
    assert bonus_edge(0, (0, 0, 1), 0) == -1  # another does: 3 for one of the 3 others
    assert bonus_edge(1, (1, 0, 0), 0) == 0  # a tie takes nothing
    assert bonus_edge(0, (0, 0, 0), 1) == pytest.approx(0)  # by symmetry
    # the last Dragon: to this seat (1 in 4) makes it the leader, else a tie at 1
    assert bonus_edge(1, (0, 0, 0), 1) == pytest.approx(3 / 4)


def test_a_dragon_is_worth_more_when_it_decides_the_spider_bonus():
    pool = Counter(dragon=2, spider=3, diamond=5)
    level = Planner(SETS, Counter(dragon=1), True, Counter(), pool, dragons=(3, (3, 0, 0), 3))
    ahead = Planner(SETS, Counter(dragon=1), True, Counter(), pool, dragons=(6, (0, 0, 0), 3))
    assert level.options()["stop"] > 1.5 > 1 == pytest.approx(ahead.options()["stop"], abs=0.05)


# ---- the careful policy, copied for the playouts ---------------------------------------------------------

def kind_of(decision: dict, state, known: set[int]) -> str:
    """A decision as careful_choice names it: stop, unseen, or the kind of a remembered tile."""
    if decision.get("stop"):
        return "stop"
    row, col = decision["square"]
    square = row * COLS + col
    return state.grid[square] if square in known else "unseen"


def careful_games(seeds, players=3, check=None):
    """Seeded games of careful bots; `check(state, known, bot, decision)` at every flip decision.
    `known` is every square whose tile was seen: all flips are public, so every seat knows it."""
    for seed in seeds:
        state = Treasure().new_state(None, seed, players)
        bots = [CarefulBot() for _ in range(players)]
        for seat, bot in enumerate(bots):
            bot.setup(hello(seat, players))
        known: set[int] = set()
        fed = 0
        while state.pending() is not None:
            for event in state.events[fed:]:
                for bot in bots:
                    bot.on_event(event.as_json())
            fed = len(state.events)
            pending = state.pending()
            bot = bots[pending.seat]
            decision = bot.decide(pending.kind, state.observation(pending.seat))
            if pending.kind == "flip" and check is not None:
                check(state, known, bot, decision)
            if decision.get("square") is not None and pending.kind == "flip":
                known.add(decision["square"][0] * COLS + decision["square"][1])
            state.apply(pending.seat, decision)


def test_the_copied_careful_policy_decides_as_the_careful_bot():
    compared = Counter()

    def check(state, known, bot, decision):
        kinds, _, unseen, pool = view(state, known)
        hand = Counter(state.grid[i] for i in state.flipped)
        copied = careful_choice(SETS, hand, state.dragon_run, kinds, len(unseen), pool)
        assert copied == kind_of(decision, state, known), (state.turn, decision)
        compared[copied if copied in ("stop", "unseen") else "known"] += 1

    careful_games(range(6), check=check)
    # the games reached every kind of decision
    assert compared["stop"] > 20 and compared["unseen"] > 50 and compared["known"] > 10, compared


# ---- the endgame: playouts to the final ranks on the forward model's caves -------------------------------

def last_diamond() -> tuple:
    """Two seats, the last Diamond face up in seat 0's turn, only the 3 Spiders (unseen) left with it.
    Every Dragon is won, 7 to 5: seat 0 takes the Spider bonus whatever happens. Seat 0 has 21 tiles,
    seat 1 24: a stop ends the game at 25 to 24 (seat 0 first); a Spider hands the Diamond, known, to
    seat 1, which takes it and ends the game at 24 to 25 (seat 0 second)."""
    cave = build_layout({(0, 0): "spider", (0, 1): "spider", (0, 2): "spider", (1, 0): "diamond"})
    state = Treasure().new_state(None, 1, 2, layout=cave)
    for i in range(len(state.grid)):
        if i not in (0, 1, 2, 7):
            state.grid[i] = None
    state.hoards = [Counter(dragon=7, chest=8, diamond=6),
                    Counter(dragon=5, sword=6, scroll=4, potion=4, egg=4, diamond=1)]
    state.apply(0, {"square": [1, 0]})
    bot = SearchBot()
    bot.setup(hello(0, 2))
    for event in state.events:
        bot.on_event(event.as_json())
    return state, bot


def test_an_endgame_playout_plays_a_forward_model_cave_to_the_engines_final_rank():
    state, bot = last_diamond()
    root = bot.model.sample(state.observation(0), random.Random(1))
    assert root.flipped == [7] and sorted(t for t in root.grid if t) == ["diamond", "spider", "spider", "spider"]
    known = {7}
    assert bot.playout(root, "stop", known, SETS, random.Random(2)) == -1.0
    # a flip turns a Spider; seat 1 (the careful policy) takes the remembered Diamond and wins
    assert bot.playout(root, "unseen", known, SETS, random.Random(2)) == -2.0
    assert root.flipped == [7] and root.hoards[0]["diamond"] == 6 and root.pending().seat == 0  # untouched


def test_the_endgame_search_overrules_a_plan_the_playouts_show_loses(monkeypatch):
    state, bot = last_diamond()
    assert bot.decide("flip", state.observation(0)) == {"stop": True}
    sampled = []
    monkeypatch.setattr(search.Planner, "choose", lambda self: "unseen")  # a plan that throws the game away
    real = bot.model.sample
    monkeypatch.setattr(bot.model, "sample", lambda obs, rng: sampled.append(1) or real(obs, rng))
    assert bot.decide("flip", state.observation(0)) == {"stop": True}
    assert len(sampled) == search.SAMPLES  # it searched on the forward model's caves


def test_an_endgame_search_cut_short_by_the_clock_keeps_the_plan(monkeypatch):
    state, bot = last_diamond()
    monkeypatch.setattr(search.Planner, "choose", lambda self: "unseen")
    monkeypatch.setattr(search, "TIME_BUDGET", -1.0)  # every search stops after its first sample
    assert bot.decide("flip", state.observation(0))["square"] in ([0, 0], [0, 1], [0, 2])


def test_a_challenger_overrules_the_plan_only_when_ahead_on_the_shared_samples():
    plan = [-2.0, -1.0, -3.0, -2.0] * 4
    # the same ranks on every sample: no gain, no overrule
    assert not SearchBot.clearly_better(list(plan), plan)
    # a rank better on every sample: overrules
    assert SearchBot.clearly_better([p + 1 for p in plan], plan)
    # ahead on average but not by Z standard errors of the paired differences: the plan stands
    noisy = [p + (3.0 if i % 2 else -2.9) for i, p in enumerate(plan)]
    assert sum(noisy) > sum(plan) and not SearchBot.clearly_better(noisy, plan)
    # behind on average: the plan stands
    assert not SearchBot.clearly_better([p - 1 for p in plan], plan)
    # fewer than MIN_SAMPLES samples (a search the clock cut short): the plan stands
    short = search.MIN_SAMPLES - 1
    assert not SearchBot.clearly_better([p + 1 for p in plan[:short]], plan[:short])
