"""Every stored measure, recomputed here independently from the replays of a fixed set of matches.

The matches are played by starter bots (fixed seeds and line-ups) and recorded through
record_result, each sandboxed-looking seat given a run record (answer times, the clock, the bank
left, strikes) made from its seat and decision numbers. This test's code measures them again
without the scorecard's: Treasure and DragonFlame by re-simulating each game with the engine and
reading the state before and after each decision (not the replay's events, which the parts read),
every game's measures from the replay's results and run records. Each stored figure must be the
recomputed one: rates, means and totals exactly (numerator and denominator), medians within the
two-significant-figure rounding of the stored samples (ladder/scorecard/tallies.py).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from sqlmodel import select

from ladder.games import get_game
from ladder.models import ScorecardSum, ScorecardTally
from ladder.play import play_builtin
from ladder.replay import Decision, SandboxRun, dumps_replay
from ladder.services import matches, results
from ladder.services.scorecard import ALL

SET = {"chest": 4, "sword": 3, "scroll": 2, "potion": 2, "egg": 2, "diamond": 1}
COUNTS = {"chest": 8, "sword": 6, "scroll": 4, "potion": 4, "egg": 4, "diamond": 8, "dragon": 12, "spider": 3}
MATCHES = (  # (game, starters, seed)
    ("treasure", ("careful", "random", "memory"), 11),
    ("treasure", ("memory", "careful", "careful", "random"), 12),
    ("treasure", ("random", "memory"), 13),
    ("dragonflame", ("looter", "heuristic", "random", "looter"), 21),
    ("dragonflame", ("random", "looter"), 22),
    ("dragonflame", ("heuristic", "random", "looter", "random", "heuristic"), 23),
    ("drachengold", ("greedy", "random", "bargainer"), 31),
)
CLOCK = {"decision_ms": 200, "bank_ms": 5000}


def _run(seat: int, decisions: int) -> SandboxRun:
    """A run record as the sandbox writes one, its numbers made from the seat and decision indexes."""
    timings = tuple([round(0.3 + (7 * i + 13 * seat) % 97 * 1.7, 2), 1.0] for i in range(decisions))
    strikes = tuple({"request": i, "kind": "x", "code": "timeout" if i % 2 else "illegal", "reason": "r"}
                    for i in range(seat % 3))
    return SandboxRun(sandbox="user", strikes=strikes, timings=timings, bank_left_ms=5000 - 311.5 * seat,
                      clock=CLOCK)


def _played(game: str, names: tuple[str, ...], seed: int):
    played = play_builtin(game, list(names), seed=seed)
    replay = played.replay
    per_seat = Counter(e.seat for e in replay.log if isinstance(e, Decision))
    seats = [replace(s, run=_run(s.seat, per_seat[s.seat]), faults=s.seat % 2) for s in replay.seats]
    return replay.completed(results=replay.results, seats=seats, cgroup=None)


@pytest.fixture
def recorded(world, session):
    """(replay, stored tallies by seat) of each fixed match, recorded as a worker records one."""
    out = []
    for game, names, seed in MATCHES:
        replay = _played(game, names, seed)
        versions = [world.bot(game=game)[1].id for _ in names]
        match = matches.queue_match(session=session, game=game, seats=versions, seed=seed)
        matches.claim_match(session=session, match_id=match.id, worker_id="w")
        results.record_result(session=session, match_id=match.id, outcome=results.outcome_from_replay(replay),
                              worker_id="w")
        # what is stored of each seat: its row keeps the chart's tallies, the sums every measure;
        # each seat's bot plays only this match, so its bot's sum is this seat's tallies exactly
        rows = {}
        for t in session.exec(select(ScorecardTally).where(ScorecardTally.match_id == match.id)):
            total = session.get(ScorecardSum, (t.bot_id, ALL, ALL, ALL))
            assert total.matches == 1 and all(total.tallies[name] == tally for name, tally in t.charted.items())
            rows[t.seat] = total
        out.append((game, replay, rows))
    return out


# --- the independent measures -----------------------------------------------------------------


def _kept(kinds: list[str], dragon_run: bool) -> int:
    if dragon_run:
        return len(kinds)
    have = Counter(kinds)
    return sum(n - n % SET[k] for k, n in have.items() if k in SET)


def _after(kinds: list[str], dragon_run: bool, kind: str) -> int:
    if kind == "spider":
        return 0
    if dragon_run:
        return len(kinds) + 1 if kind == "dragon" else 0
    return 0 if kind == "dragon" else _kept([*kinds, kind], False)


def treasure(replay) -> dict[int, dict[str, tuple]]:
    """From the engine's state around each decision: turns, busts, flips, the one-flip optimum."""
    game = get_game("treasure")
    n = replay.header.players
    state = game.new_state(dict(replay.header.options), replay.header.seed, n)
    seen: set[int] = set()  # squares the table has seen a tile on (every flip is public)
    f = {s: Counter() for s in range(n)}
    lost = {s: Fraction(0) for s in range(n)}
    turn_of = None
    for entry in (e for e in replay.log if isinstance(e, Decision)):
        seat = entry.seat
        if entry.kind == "flip":
            if state.turn != turn_of:
                turn_of = state.turn
                f[seat]["turns"] += 1
            if state.flipped:
                kinds = [state.grid[i] for i in state.flipped]
                run = state.dragon_run
                stop = _kept(kinds, run)
                down = [i for i, t in enumerate(state.grid) if t is not None and i not in state.flipped]
                known = {i: state.grid[i] for i in down if i in seen}
                unknown = Counter(state.grid[i] for i in down if i not in seen)
                total = sum(unknown.values())
                ev_unknown = (Fraction(sum(c * _after(kinds, run, k) for k, c in unknown.items()), total)
                              if total else None)
                flips = [v for v in [ev_unknown] if v is not None] + [_after(kinds, run, k) for k in known.values()]
                best = max([stop, *flips])
                square = entry.decision.get("square")
                if square is None:
                    chosen = stop
                    f[seat]["stops"] += 1
                    f[seat]["early"] += bool(flips) and max(flips) > stop
                else:
                    i = square[0] * 7 + square[1]
                    chosen = _after(kinds, run, known[i]) if i in known else (ev_unknown or 0)
                    f[seat]["pushes"] += 1
                    f[seat]["late"] += chosen < stop
                f[seat]["choices"] += 1
                f[seat]["optimal"] += chosen >= best
                lost[seat] += best - chosen
        before_hoard = Counter(state.hoards[seat])
        before_turn = state.turn
        flipped_before = len(state.flipped)
        spider_before = state.spider_at
        state.apply(seat, entry.decision)
        if entry.kind == "flip" and entry.decision.get("square") is not None:
            i = entry.decision["square"][0] * 7 + entry.decision["square"][1]
            seen.add(i)
            f[seat]["flips"] += 1
            if (not state.flipped and state.turn != before_turn) or state.spider_at is not None:
                f[seat]["busts"] += 1  # the flip ended the turn: a bust
        elif entry.kind == "flip":  # a stop
            gained = state.hoards[seat] - before_hoard
            f[seat]["kept"] += sum(gained.values())
            f[seat]["stop_turns"] += 1
            f[seat]["stop_kept"] += sum(gained.values())
            assert flipped_before
        elif entry.kind == "move_spider" and entry.decision.get("square") is not None:
            target = entry.decision["square"][0] * 7 + entry.decision["square"][1]
            seen.add(target)
            seen.discard(spider_before)
    out = {}
    for s in range(n):
        c, hoard = f[s], state.hoards[s]
        row = {"bust_rate": (c["busts"], c["turns"]), "flips_per_turn": (c["flips"], c["turns"]),
               "tiles_per_turn": (c["kept"], c["turns"]), "dragons_kept": (hoard["dragon"], 1)}
        row.update({f"sets_{k}": (hoard[k] // SET[k], 1) for k in SET})
        if c["choices"]:
            row["ev_optimal"] = (c["optimal"], c["choices"])
            row["ev_lost"] = (lost[s], c["choices"])
        if c["stops"]:
            row["stopped_early"] = (c["early"], c["stops"])
            row["stop_tiles"] = (c["stop_kept"], c["stop_turns"])
        if c["pushes"]:
            row["pushed_on"] = (c["late"], c["pushes"])
        out[s] = row
    return out


def dragonflame(replay) -> dict[int, dict[str, tuple]]:
    """From the engine's state around each decision: loot, fire, banners, Princesses, the Spyglass."""
    from ladder.games.dragonflame.rules.data import CARD_BY_ID

    game = get_game("dragonflame")
    n = replay.header.players
    state = game.new_state(dict(replay.header.options), replay.header.seed, n)
    c = {s: Counter() for s in range(n)}

    def banners():
        for s in range(n):
            c[s]["banner_sum"] += state.banners[s][1]
            c[s]["rounds"] += 1

    banners()
    for entry in (e for e in replay.log if isinstance(e, Decision)):
        seat, kind = entry.seat, entry.kind
        round_before = state.round
        if kind == "attack":
            castle = state.castle(entry.decision["castle"])
            cards = [cid for cid, _up, _by in castle.cards]
            c[seat]["attacks"] += 1
            c[seat]["numbers"] += castle.number
            c[seat]["cards"] += len(cards)
            c[seat]["knights"] += sum(CARD_BY_ID[x].category == "knight" for x in cards)
            c[seat]["princesses"] += sum(CARD_BY_ID[x].category == "princess" for x in cards)
        if kind == "spy":
            c[seat]["offers"] += 1
            c[seat]["spies"] += entry.decision["castle"] is not None
        fire_before = state.fire[seat]
        if kind == "flame":  # the fire this Dragonflame carries, Ring of Fire included
            c[seat]["carried"] += state.flame_tokens(seat, state.flames[0])
        state.apply(seat, entry.decision)
        if kind == "flame":
            c[seat]["placed"] += fire_before - state.fire[seat]
        if state.round != round_before and state.pending() is not None:
            banners()
    for event in replay.log:  # a Dragonflame that can burn nothing is discarded with no decision asked
        if not isinstance(event, Decision) and event.type == "flame_fizzle":
            c[event.data["seat"]]["carried"] += event.data["card"].get("fire", 0)
    out = {}
    burnt, led = Counter(), Counter()
    for cell in state.grid.cells:
        if cell.spaces and len(cell.fire) >= cell.spaces:
            for s in set(cell.fire):
                burnt[s] += 1
            led[max(set(cell.fire), key=lambda s: (cell.fire.count(s), -cell.fire.index(s)))] += 1
    for s in range(n):
        k = c[s]
        has_princess = any(CARD_BY_ID[x].category == "princess" for x in state.hoards[s])
        row = {"castles_looted": (k["attacks"], 1), "knights_looted": (k["knights"], 1),
               "villages_burnt": (burnt[s], 1), "villages_led": (led[s], 1), "fire_placed": (k["placed"], 1),
               "final_banner": (state.banners[s][1], 1), "princesses": (k["princesses"], 1),
               "princess_kept": (int(has_princess), 1), "spy_uses": (k["spies"], 1),
               "castle_number": (k["numbers"], k["attacks"]), "cards_looted": (k["cards"], k["attacks"]),
               "banner": (k["banner_sum"], k["rounds"])}
        if k["carried"]:
            row["fire_wasted"] = (k["carried"] - k["placed"], k["carried"])
        if k["offers"]:
            row["spy_rate"] = (k["spies"], k["offers"])
        out[s] = row
    return out


def every_game(replay) -> dict[int, dict[str, tuple]]:
    """Results, the breakdown's categories and the run records, read straight off the replay."""
    n = replay.header.players
    out = {}
    for r in replay.results:
        row = {"first": (r.rank == 1, 1), "placing": (Fraction(n - r.rank, n - 1), 1), "score": (r.score, 1),
               f"first_seat_{r.seat}": (r.rank == 1, 1)}
        stack = [("", r.breakdown)]
        while stack:
            prefix, value = stack.pop()
            if isinstance(value, dict):
                stack += [(f"{prefix}.{k}" if prefix else k, v) for k, v in value.items() if k not in ("seat", "total")]
            elif type(value) in (int, float):
                row[f"score.{prefix}"] = (value, 1)
        out[r.seat] = row
    for seat in replay.seats:
        run, row = seat.run, out[seat.seat]
        walls = sorted(t[0] for t in run.timings)
        row.update({"faults": (seat.faults, 1), "forfeits": (seat.forfeit, 1), "strikes": (len(run.strikes), 1),
                    "timeouts": (sum(s["code"] == "timeout" for s in run.strikes), 1),
                    "bank_left": (run.bank_left_ms / CLOCK["bank_ms"], 1)})
        if walls:
            row["decision_ms"] = ("median", walls)
            row["decision_p99_ms"] = ("median", [walls[math.ceil(0.99 * len(walls)) - 1]])
            row["clock_used"] = ("median", [100 * w / CLOCK["decision_ms"] for w in walls])
    return out


def _median(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[math.ceil(len(ordered) / 2) - 1]  # the lower middle one


def _stored_median(pairs) -> float:
    total = sum(c for _v, c in pairs)
    seen = 0
    for v, c in pairs:
        seen += c
        if seen >= math.ceil(total / 2):
            return v
    raise AssertionError("empty samples")


def drachengold(replay) -> dict[int, dict[str, tuple]]:
    """Drachengold's own measures, recomputed from the replay's JSON by the independent code of its
    part's test (tests/games/drachengold/view/test_scorecard.py: written from the rules), in this
    file's shape (a median's samples as ("median", samples))."""
    from tests.games.drachengold.view.test_scorecard import expected

    kinds = {m.name: m.kind for m in get_game("drachengold").part("scorecard").MEASURES}
    return {seat: {name: ("median", tally) if kinds[name] == "median" else tally for name, tally in row.items()}
            for seat, row in expected(json.loads(dumps_replay(replay))).items()}


def test_every_stored_measure_is_the_one_recomputed_from_the_replays(recorded):
    compared = Counter()
    for game, replay, rows in recorded:
        expected = every_game(replay)
        own = {"treasure": treasure, "dragonflame": dragonflame, "drachengold": drachengold}.get(game)
        if own is not None:
            for seat, row in own(replay).items():
                expected[seat].update(row)
        assert set(rows) == set(expected)
        for seat, want in expected.items():
            stored = rows[seat].tallies
            assert set(stored) == set(want), (game, seat, set(stored) ^ set(want))
            for name, tally in want.items():
                if tally[0] == "median":
                    assert _stored_median(stored[name]) == pytest.approx(_median(tally[1]), rel=0.05), (game, name)
                    assert sum(c for _v, c in stored[name]) == len(tally[1])
                else:
                    num, den = stored[name]
                    assert num == pytest.approx(float(tally[0]), abs=1e-6) and den == tally[1], \
                        (game, seat, name, stored[name], tally)
                compared[game, name] += 1
    # every measure of each game was compared on some seat
    names = {g: {n for (game, n) in compared if game == g} for g in ("treasure", "dragonflame", "drachengold")}
    assert {"bust_rate", "ev_optimal", "stopped_early", "pushed_on", "ev_lost", "sets_chest", "decision_ms",
            "first_seat_3"} <= names["treasure"]
    assert {"castles_looted", "villages_burnt", "banner", "princesses", "spy_uses", "fire_wasted",
            "score.villages"} <= names["dragonflame"]
    assert {"first", "placing", "timeouts", "bank_left", "decision_p99_ms", "clock_used"} <= names["drachengold"]


def test_the_winners_figures_pool_the_first_places_of_the_match(recorded):
    for _game, replay, rows in recorded:
        firsts = [r.seat for r in replay.results if r.rank == 1]
        for name in ("score", "faults", "first"):
            num = sum(rows[s].tallies[name][0] for s in firsts)
            den = sum(rows[s].tallies[name][1] for s in firsts)
            for row in rows.values():
                assert row.winners[name] == [num, den]
