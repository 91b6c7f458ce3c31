"""The schedule: duplicate seating puts every entrant in every seat of every deal."""

import itertools
from collections import Counter

import pytest

from ladder.tournaments.model import (
    MAX_MATCHES,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    TournamentError,
    TournamentSpec,
    round_robin,
    schedule_size,
    seat_orders,
    split_sizes,
    swiss_round,
    table_sizes,
    williams,
)


def field(n):
    return tuple(Entrant(f"k{i}", f"bot{i}") for i in range(n))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_member_takes_every_seat_equally_often(n):
    orders = seat_orders(n)
    assert all(sorted(o) == list(range(n)) for o in orders)
    for seat in range(n):
        counts = Counter(order[seat] for order in orders)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1


@pytest.mark.parametrize("n", [4, 5, 6])
def test_balanced_orders_put_everyone_directly_after_everyone_equally_often(n):
    orders = williams(n)
    assert len(orders) == (n if n % 2 == 0 else 2 * n)
    follows = Counter((o[i], o[i + 1]) for o in orders for i in range(n - 1))
    assert len(follows) == n * (n - 1) and len(set(follows.values())) == 1


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_around_the_table_everyone_sits_directly_after_everyone_equally_often(n):
    """Turns go round: the last seat is followed by the first. One Williams square of 4 puts each
    member after the one two places on twice per deal and after the others once; the seat orders
    a tournament plays must not."""
    orders = seat_orders(n)
    assert len(set(orders)) == len(orders)
    follows = Counter((o[s], o[(s + 1) % n]) for o in orders for s in range(n))
    assert len(follows) == n * (n - 1) and len(set(follows.values())) == 1
    square = Counter((o[s], o[(s + 1) % 4]) for o in williams(4) for s in range(4))
    assert sorted(set(square.values())) == [1, 2]  # why one square is not enough


def test_small_tables_play_all_orders_and_big_ones_a_balanced_set():
    assert len(seat_orders(3)) == 6 and len(set(seat_orders(3))) == 6
    assert [len(seat_orders(n)) for n in (4, 5, 6)] == [12, 20, 30]
    assert len(seat_orders(4, max_orders=24)) == 24


def test_a_duplicate_round_robin_plays_each_deal_from_each_seat_at_every_table():
    spec = TournamentSpec("drachengold", field(5), table_size=4, deals=3, seed=42)
    matches = round_robin(spec)
    assert len(matches) == 5 * 3 * 12 == schedule_size(spec)
    assert [m.index for m in matches] == list(range(len(matches)))
    # every table meets every deal, and all tables share the deal's seed
    seeds = {}
    for m in matches:
        assert seeds.setdefault(m.deal, m.seed) == m.seed
    assert len(set(seeds.values())) == 3
    tables = {frozenset(m.seats) for m in matches}
    assert len(tables) == 5
    for table in tables:
        for deal in range(3):
            at = [m.seats for m in matches if frozenset(m.seats) == table and m.deal == deal]
            for key in table:
                assert sorted(seats.index(key) for seats in at) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]  # 12 orders


def test_random_seating_plays_as_many_matches_each_on_its_own_seed():
    dup = round_robin(TournamentSpec("g", field(4), table_size=4, deals=5, seed=1))
    rnd = round_robin(TournamentSpec("g", field(4), table_size=4, deals=5, seed=1, duplicate=False))
    assert len(rnd) == len(dup) == 60
    assert len({m.seed for m in rnd}) == 60 and all(m.order == -1 for m in rnd)
    assert len({m.seats for m in rnd}) > 1
    assert rnd == round_robin(TournamentSpec("g", field(4), table_size=4, deals=5, seed=1, duplicate=False))


def test_swiss_seats_neighbours_in_the_standing_and_plays_new_deals_each_round():
    spec = TournamentSpec("g", field(10), table_size=4, deals=2, format=SWISS, rounds=3, seed=5)
    standing = [f"k{i}" for i in (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)]
    first = swiss_round(spec, 0, standing)
    second = swiss_round(spec, 1, standing, start=len(first))
    assert second[0].index == len(first)
    tables = {}
    for m in second:
        tables.setdefault(m.table, set()).update(m.seats)
    assert [tables[t] for t in sorted(tables)] == [{"k9", "k8", "k7", "k6"}, {"k5", "k4", "k3"}, {"k2", "k1", "k0"}]
    assert {m.deal for m in first} == {0, 1} and {m.deal for m in second} == {2, 3}
    assert len(first) == len(second) == 2 * (12 + 6 + 6)
    assert schedule_size(spec) == 3 * len(first)
    assert swiss_round(spec, 0, standing) == first  # the first round's shuffle is seeded


def test_split_sizes():
    assert split_sizes(8, 4) == [4, 4]
    assert split_sizes(10, 4) == [4, 3, 3]
    assert split_sizes(5, 3) == [3, 2]
    with pytest.raises(TournamentError):
        split_sizes(5, 2)


@pytest.mark.parametrize("kwargs, message", [
    (dict(entrants=field(3), table_size=4), "cannot fill"),
    (dict(entrants=field(4) + field(1), table_size=4), "twice"),
    (dict(entrants=field(4), table_size=4, format="knockout"), "unknown format"),
    (dict(entrants=field(4), table_size=4, deals=0), "at least 1"),
    (dict(entrants=field(4), table_size=4, rounds=2, format=ROUND_ROBIN), "one round"),
])
def test_a_bad_spec_says_what_is_wrong(kwargs, message):
    with pytest.raises(TournamentError, match=message):
        TournamentSpec("g", **{"deals": 1, **kwargs})


def test_a_schedule_too_big_is_refused():
    with pytest.raises(TournamentError, match="more than"):
        round_robin(TournamentSpec("g", field(12), table_size=4, deals=MAX_MATCHES // 100))


def test_table_sizes_name_every_size_an_event_seats():
    assert table_sizes(TournamentSpec("g", field(5), table_size=4, deals=1)) == [4]
    assert table_sizes(TournamentSpec("g", field(10), table_size=4, deals=1, format=SWISS)) == [3, 4]


def test_deal_seeds_are_keyed_and_a_secret_replaces_the_seed_as_their_key():
    """The seeds were base + deal * 1,000,003: one public seed gave every deal. Keyed (HMAC), no
    deal's seed tells another's; with a secret (the site's events) the spec's seed plays no part."""
    spec = TournamentSpec("g", field(3), table_size=3, deals=4, seed=42)
    seeds = sorted({m.deal: m.seed for m in round_robin(spec)}.items())
    gaps = {b - a for (_, a), (_, b) in itertools.pairwise(seeds)}
    assert len(seeds) == 4 and len(gaps) == 3 and all(0 <= s < 1 << 63 for _, s in seeds)
    assert round_robin(spec) == round_robin(TournamentSpec("g", field(3), table_size=3, deals=4, seed=42))
    keyed = [TournamentSpec("g", field(3), table_size=3, deals=4, seed=base, secret=b"k" * 32) for base in (1, 2)]
    assert {m.seed for m in round_robin(keyed[0])} == {m.seed for m in round_robin(keyed[1])}
    assert not {m.seed for m in round_robin(keyed[0])} & {s for _, s in seeds}
    assert "k" * 8 not in repr(keyed[0])  # the secret stays out of logs and tracebacks
