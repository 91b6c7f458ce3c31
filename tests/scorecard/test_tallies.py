"""Stored tallies: encoding, merging and the figure shown (ladder/scorecard/tallies.py)."""

from __future__ import annotations

import pytest

from ladder.scorecard.tallies import encode, merge, merge_all, quantile, round2, value


@pytest.mark.parametrize(("raw", "rounded"), [(0, 0.0), (7, 7.0), (99, 99.0), (123.4, 120.0), (0.01234, 0.012),
                                              (-56.7, -57.0), (1950, 2000.0)])
def test_samples_keep_two_significant_figures(raw, rounded):
    assert round2(raw) == rounded


def test_a_median_tally_is_counts_of_rounded_samples_and_merges_by_adding_them():
    a = encode("median", (3, 1, 3, 250.4))
    assert a == [[1.0, 1], [3.0, 2], [250.0, 1]]
    b = encode("median", (3, 40))
    assert merge("median", a, b) == [[1.0, 1], [3.0, 3], [40.0, 1], [250.0, 1]]
    assert value("median", merge("median", a, b)) == 3.0  # 6 samples: the lower middle one
    assert quantile([[1.0, 98], [500.0, 2]], 0.99) == 500.0


def test_rates_means_and_totals_add_numerators_and_denominators():
    assert merge("rate", encode("rate", (1, 4)), encode("rate", (2, 2))) == [3, 6]
    assert value("rate", [3, 6]) == 0.5 and value("mean", [0, 0]) is None and value("total", None) is None
    merged = merge_all({"x": "total", "m": "median"}, [{"x": [2, 1], "m": [[1.0, 1]]}, {"x": [4, 1]},
                                                     {"unknown": [1, 1]}])
    assert merged == {"x": [6, 2], "m": [[1.0, 1]]}
    assert encode("mean", (0.1234567891, 3)) == [0.123457, 3]


def test_merging_samples_equals_counting_them_all_again_and_leaves_both_sides_unchanged():
    """The bisecting merge (a sum's hundreds of pairs, a match's few) against the plain recount:
    equal values added, zeros (a voided match taken back out) dropped, sorted; inputs untouched."""
    import copy
    import random

    rng = random.Random(11)
    for _ in range(300):
        big = sorted({round2(rng.uniform(0, 500)): 0 for _ in range(rng.randint(0, 200))})
        a = [[v, rng.randint(1, 9)] for v in big]
        b = [[v, c] for v, c in a if rng.random() < 0.05]  # some values both sides have
        b = [[v, -c if rng.random() < 0.5 else c] for v, c in b]  # some taken back out exactly
        b += [[round2(rng.uniform(0, 500)), rng.randint(1, 3)] for _ in range(rng.randint(0, 6))]
        b = sorted({v: c for v, c in b}.items())
        b = [[v, c] for v, c in b]
        counts: dict[float, int] = {}
        for v, c in (*a, *b):
            counts[v] = counts.get(v, 0) + c
        expected = [[v, counts[v]] for v in sorted(counts) if counts[v]] or None
        before = copy.deepcopy((a, b))
        assert merge("median", a, b) == expected
        assert merge("median", b, a) == expected
        assert (a, b) == before


def test_merging_rows_at_once_is_merging_them_one_measure_at_a_time():
    """merge_all inlines merge: over random rows of every kind (floats, negated rows that cancel,
    missing and unknown names) it gives what folding merge over each measure gives."""
    import random

    rng = random.Random(5)
    kinds = {"r": "rate", "m": "mean", "t": "total", "d": "median"}
    for _ in range(500):
        rows = []
        for _ in range(rng.randint(0, 6)):
            row = {}
            for name, kind in kinds.items():
                if rng.random() < 0.7:
                    if kind == "median":
                        row[name] = [[v, rng.choice([1, 2, -1])] for v in sorted(rng.sample([0.5, 1.0, 2.0, 30.0], 2))]
                    else:
                        row[name] = [rng.choice([0, 1, 2.5, -1, 0.1]), rng.choice([0, 1, -1, 3])]
            if rng.random() < 0.2:
                row["unknown"] = [1, 1]
            rows.append(row)
        expected = {}
        for name, kind in kinds.items():
            total = None
            for row in rows:
                total = merge(kind, total, row.get(name))
            if total is not None:
                expected[name] = total
        assert merge_all(kinds, rows) == expected
