import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.games import GAMES, get_game
from ladder.ranking.matchmaking import (
    WINDOW_MAX,
    Candidate,
    TableSize,
    make_table,
    make_tables,
)
from ladder.ranking.ratings import MILLI, PROVISIONAL_GAMES

HOUSE = "house"
TABLE_SIZES = {name: TableSize.of(get_game(name)) for name in GAMES}
DG = TABLE_SIZES["drachengold"]
NOW = 10_000.0


def bot(i, owner=None, rating=1500, games=50, owed=0, last=0.0, game="drachengold", active=True):
    owner = owner if owner is not None else f"u{i}"
    return Candidate(f"b{i}", owner, game, rating * MILLI, games, owed, last, active)


def owners_ok(table, house_together=True):
    owners = [c.owner for c in table.seats if not (house_together and c.owner == HOUSE)]
    return len(owners) == len(set(owners))


population = st.lists(
    st.builds(
        lambda owner, rating, games, owed, last, active: (owner, rating, games, owed, last, active),
        st.sampled_from([HOUSE, "alice", "bob", "carol", "dave", "erin", "frank"]),
        st.integers(0, 3000),
        st.integers(0, 40),
        st.integers(0, 3),
        st.one_of(st.none(), st.floats(0, NOW)),
        st.booleans(),
    ),
    max_size=30,
)


@settings(max_examples=300)
@given(population, st.integers(0, 2**32), st.booleans(), st.sampled_from(sorted(TABLE_SIZES)))
def test_batches_respect_owners_sizes_and_book_each_bot_once(rows, seed, together, game):
    cands = [bot(i, o, r, g, w, t, game, a) for i, (o, r, g, w, t, a) in enumerate(rows)]
    sizes = TABLE_SIZES[game]
    rng = random.Random(seed)
    tables = make_tables(cands, sizes, rng, NOW, 5, house_owner=HOUSE, house_together=together)
    booked = [b for t in tables for b in t.bots]
    assert len(booked) == len(set(booked))
    for t in tables:
        assert owners_ok(t, together)
        assert sizes.minimum <= len(t.seats) <= sizes.default
        assert all(c.active and c.game == game for c in t.seats)
        assert t.seed in t.seats
        assert all(abs(c.rating - t.seed.rating) <= t.window for c in t.seats)
    if len(tables) < 5:  # the batch stopped: what is left cannot seat a minimum table
        left = {c.owner if c.owner != HOUSE or not together else c.bot
                for c in cands if c.active and c.bot not in booked}
        assert len(left) < sizes.minimum


def test_too_few_bots_gives_no_table():
    rng = random.Random(1)
    assert make_table([bot(1), bot(2)], DG, rng, NOW) is None
    assert make_table([bot(1), bot(2), bot(3, owner="u1")], DG, rng, NOW) is None  # owner collision
    assert make_table([bot(1), bot(2), bot(3, active=False)], DG, rng, NOW) is None
    assert make_table([bot(1), bot(2), bot(3, game="treasure")], DG, rng, NOW, game="drachengold") is None
    assert len(make_table([bot(1), bot(2)], TABLE_SIZES["treasure"], rng, NOW).seats) == 2


def test_table_size_default_explicit_and_shrunk_by_owners():
    cands = [bot(i) for i in range(10)]
    rng = random.Random(2)
    assert len(make_table(cands, DG, rng, NOW).seats) == DG.default
    assert len(make_table(cands, DG, rng, NOW, seats=6).seats) == 6
    assert len(make_table(cands[:3], DG, rng, NOW).seats) == 3
    with pytest.raises(ValueError):
        make_table(cands, DG, rng, NOW, seats=7)
    with pytest.raises(ValueError):
        TableSize(3, 6, 2)


def test_house_bots_share_a_table_only_when_allowed():
    starters = [bot(i, owner=HOUSE) for i in range(5)]
    rng = random.Random(3)
    table = make_table(starters, DG, rng, NOW, house_owner=HOUSE)
    assert len(table.seats) == DG.default
    assert make_table(starters, DG, rng, NOW, house_owner=HOUSE, house_together=False) is None
    assert make_table(starters, DG, rng, NOW) is None  # no house owner named: one owner, one seat


def test_placement_games_come_first():
    cands = [bot(i, last=float(i)) for i in range(20)]
    cands.append(bot(99, owed=3, last=NOW))  # just played, but still owes placement games
    for seed in range(20):
        assert make_table(cands, DG, random.Random(seed), NOW).seed.bot == "b99"


def test_seed_is_least_recently_played_and_provisional_counts_double():
    cands = [bot(i, last=NOW - i) for i in range(10)]
    assert make_table(cands, DG, random.Random(4), NOW).seed.bot == "b9"
    # a provisional bot waiting 6 outranks an established one waiting 9
    cands.append(bot(50, games=PROVISIONAL_GAMES - 1, last=NOW - 6))
    assert make_table(cands, DG, random.Random(4), NOW).seed.bot == "b50"
    # never played beats everyone without placement games owed
    cands.append(bot(60, last=None))
    assert make_table(cands, DG, random.Random(4), NOW).seed.bot == "b60"


def test_window_widens_for_an_outlier_and_stays_narrow_in_a_crowd():
    crowd = [bot(i, rating=1500 + i) for i in range(20)]
    outlier = bot(99, rating=2800, last=None)
    table = make_table([*crowd, outlier], DG, random.Random(5), NOW)
    assert table.seed is outlier and table.window > WINDOW_MAX
    assert len(table.seats) == DG.default
    table = make_table(crowd, DG, random.Random(5), NOW)
    assert table.window <= WINDOW_MAX


def test_an_unsure_seed_meets_a_spread_of_opponents():
    """A new version's rating is unsure (ladder/ranking/ratings.py): its window spans its whole +-, so its
    first tables reach opponents above and below it, not only its neighbours."""
    from dataclasses import replace

    from ladder.ranking.ratings import half_width

    field = [bot(i, rating=1000 + 50 * i, last=NOW) for i in range(21)]  # 1000 .. 2000
    sure = bot(99, rating=1500, last=None)
    unsure = replace(sure, deviation=250 * MILLI)  # +-500
    spreads = {}
    for name, seed in (("sure", sure), ("unsure", unsure)):
        ratings = []
        for s in range(40):
            table = make_table([*field, seed], DG, random.Random(s), NOW)
            assert table.seed is seed
            assert table.window >= half_width(seed.deviation)
            ratings += [c.rating for c in table.seats if c is not seed]
        spreads[name] = max(ratings) - min(ratings)
        if name == "sure":
            assert all(abs(r - 1500 * MILLI) <= WINDOW_MAX for r in ratings)
    assert spreads["unsure"] >= 900 * MILLI > spreads["sure"]


def test_opponents_come_from_near_the_seed():
    # two clusters far apart: a seed in one cluster gets its opponents from that cluster
    low = [bot(i, rating=1000 + i, last=NOW) for i in range(10)]
    high = [bot(100 + i, rating=2000 + i, last=NOW) for i in range(10)]
    seed = bot(200, rating=2005, last=None)
    for s in range(30):
        table = make_table([*low, *high, seed], DG, random.Random(s), NOW)
        assert all(c.rating >= 2000 * MILLI for c in table.seats)


def test_deterministic_for_an_rng_seed_whatever_the_input_order():
    cands = [bot(i, owner=f"u{i % 7}", rating=1000 + 37 * i, last=float(i % 5)) for i in range(40)]
    first = make_tables(cands, DG, random.Random(42), NOW, 4)
    shuffled = cands[:]
    random.Random(0).shuffle(shuffled)
    assert make_tables(shuffled, DG, random.Random(42), NOW, 4) == first
    others = [make_tables(cands, DG, random.Random(s), NOW, 4) for s in range(43, 53)]
    assert any(o != first for o in others)


def test_seats_are_shuffled():
    cands = [bot(i) for i in range(12)]
    positions = Counter()
    for s in range(200):
        table = make_table(cands, DG, random.Random(s), NOW)
        positions[table.seats.index(table.seed)] += 1
    assert set(positions) == set(range(DG.default))
    assert min(positions.values()) > 20  # about 50 each


def test_no_bot_starves_in_a_long_simulation():
    rnd = random.Random(9)
    cands = {}
    # skewed: most bots near 1500, a tenth far out at 400 or 2600
    ratings = [rnd.choice([400, 2600]) if rnd.random() < 0.1 else int(rnd.gauss(1500, 120))
               for _ in range(56)]
    for i, r in enumerate(ratings):
        cands[f"b{i}"] = bot(i, owner=f"u{i % 18}", rating=r, games=rnd.randint(0, 60), last=None)
    for i in range(4):
        cands[f"h{i}"] = Candidate(f"h{i}", HOUSE, "drachengold", 1500 * MILLI, 100)
    per_tick = 3
    last_seen, gaps, placed_at = {}, [], None
    for tick in range(400):
        if tick == 150:  # a new version arrives and owes placement games
            cands["new"] = Candidate("new", "u0", "drachengold", 1500 * MILLI, 0, 5, None)
        tables = make_tables(cands.values(), DG, rnd, float(tick), per_tick, house_owner=HOUSE)
        assert len(tables) == per_tick
        for t in tables:
            for c in t.seats:
                cands[c.bot] = replace(c, last_played=float(tick), games=c.games + 1,
                                       placement_owed=max(0, c.placement_owed - 1))
                gaps.append(tick - last_seen.get(c.bot, 0 if c.bot != "new" else 150))
                last_seen[c.bot] = tick
                if c.bot == "new" and c.placement_owed == 1:
                    placed_at = tick
    bound = math.ceil(len(cands) / per_tick)  # each tick seeds `per_tick` of the longest waiting
    for b in cands:
        gaps.append(400 - last_seen.get(b, 0))  # the wait still running at the end counts too
    assert max(gaps) <= bound
    assert placed_at - 150 < 5  # five placement games, one per tick, right away


def test_table_sizes_come_from_what_the_game_declares():
    class Declared:
        min_players, max_players, preferred_players = 2, 5, 3

    assert TableSize.of(Declared()) == TableSize(2, 5, 3)
    assert (DG.minimum, DG.maximum, DG.default) == (3, 6, 4)
    assert TABLE_SIZES["treasure"] == TableSize(2, 6, 4)


def test_priority_games_get_a_fair_share_never_all_of_the_workers():
    from ladder.ranking.matchmaking import next_class

    running = {"ladder": 0, "priority": 0}
    for _ in range(100):  # a flood of challenges and validation games, rated matches waiting too
        chosen = next_class(running_ladder=running["ladder"], running_priority=running["priority"],
                            ladder_waiting=True, priority_waiting=True)
        running[chosen] += 1
    assert running == {"ladder": 50, "priority": 50}
    assert next_class(running_ladder=0, running_priority=9, ladder_waiting=False, priority_waiting=True) == "priority"
    assert next_class(running_ladder=9, running_priority=0, ladder_waiting=True, priority_waiting=False) == "ladder"
    assert next_class(running_ladder=0, running_priority=0, ladder_waiting=False, priority_waiting=False) is None
    assert next_class(running_ladder=3, running_priority=1, ladder_waiting=True, priority_waiting=True) == "priority"
