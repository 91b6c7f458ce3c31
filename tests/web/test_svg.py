"""The rating chart: an x axis of rated-match numbers with ticks, y labels that never collide."""

from __future__ import annotations

import itertools
import re

from ladder.ranking.ratings import INITIAL_RATING, MILLI
from ladder.web.svg import rating_chart, ticks


def _labels(svg: str, axis: str) -> list[tuple[float, int]]:
    coord = "y" if axis == "y" else "x"
    return [(float(c), int(v)) for c, v in
            re.findall(rf'<text class="{axis}" [^>]*?{coord}="([\d.]+)"[^>]*>(-?\d+)</text>', svg)]


def test_ticks_are_round_evenly_spaced_and_few():
    assert ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert ticks(1483.2, 1531.7) == [1490, 1500, 1510, 1520, 1530]
    assert ticks(0, 1) == [0, 1]
    assert len(ticks(0, 12345)) <= 6


def test_chart_has_numbered_x_axis_and_y_labels_apart():
    rating = INITIAL_RATING
    points = []
    for i in range(37):
        rating += (7 if i % 3 else -11) * MILLI
        points.append((100 + i, rating))
    svg = str(rating_chart(points, lambda m: f"/matches/{m}", first=4, start=INITIAL_RATING))
    xs = _labels(svg, "x")
    assert [v for _, v in xs] == ticks(3, 40)  # match numbers 3 (the start) .. 40
    assert all(b[0] - a[0] >= 40 for a, b in itertools.pairwise(xs))  # x labels do not touch
    ys = _labels(svg, "y")
    assert len(ys) >= 2
    assert all(abs(b[0] - a[0]) >= 14 for a, b in itertools.pairwise(ys))  # 11 px text: no overlap
    assert svg.count('class="tick"') == len(xs) + len(ys)
    assert "rated match 4 (#100)" in svg and "rated match number" in svg
    assert svg.count("<circle") == 37


def test_a_flat_single_point_history_still_draws_axes():
    svg = str(rating_chart([(5, INITIAL_RATING)], lambda m: f"/m/{m}"))
    assert [v for _, v in _labels(svg, "x")] == [0, 1]
    assert len(_labels(svg, "y")) >= 2
