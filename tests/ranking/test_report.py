"""The accuracy report's figures (ladder/ranking/report.py), recomputed here by hand for small
fixed histories."""

from __future__ import annotations

import math

from ladder.ranking.ratings import MILLI
from ladder.ranking.report import (
    SETTLE_MIN_GAMES,
    SETTLE_TAIL,
    Entry,
    calibration,
    games_to_settle,
    prediction,
    report,
    settling,
    versions_of,
)


def e(player, before, rank, *, version=1, deviation=100, after=None):
    after = before if after is None else after
    return Entry(player, version, rank, before * MILLI, deviation * MILLI, after * MILLI)


HISTORY = [
    [e("a", 1500, 1), e("b", 1500, 2)],
    [e("a", 1600, 2), e("b", 1400, 1), e("c", 1500, 2)],
]


def test_prediction_by_hand():
    p_ab = 1 / (1 + 10 ** (-200 / 400))  # a (1600) above b (1400): b won
    p_ac = 1 / (1 + 10 ** (-100 / 400))  # a above c: tied
    p_bc = 1 / (1 + 10 ** (100 / 400))  # b (1400) above c (1500): b won
    losses = [math.log(2), -math.log(1 - p_ab), -0.5 * math.log(p_ac) - 0.5 * math.log(1 - p_ac), -math.log(p_bc)]
    got = prediction(HISTORY)
    assert (got.matches, got.pairs, got.decided_pairs) == (2, 4, 3)
    assert math.isclose(got.log_loss, sum(losses) / 4)
    assert math.isclose(got.accuracy, 0.5 / 3)  # the even pair counts half; both upsets count nothing
    assert got.naive_log_loss == math.log(2) and got.naive_accuracy == 0.5
    last = prediction(HISTORY[-1:])
    assert math.isclose(last.log_loss, sum(losses[1:]) / 3) and last.accuracy == 0
    empty = prediction([])
    assert empty.log_loss is None and empty.accuracy is None  # nothing to score: no division by zero


def run(player, afters, *, version=1, befores=None, deviations=None):
    """One version's entries: its rating after each game (and before, and the deviation before)."""
    befores = befores or [1500] * len(afters)
    deviations = deviations or [100] * len(afters)
    return [Entry(player, version, 1, b * MILLI, d * MILLI, a * MILLI)
            for a, b, d in zip(afters, befores, deviations, strict=True)]


def test_games_to_settle_by_hand():
    settles = run("a", [1000] * 10 + [1500] * 70)  # inside the band from the rating after game 11
    assert games_to_settle(settles) == 11
    # the run must start before the tail (the level's own games): 10 + 19 inside before a tail of 50
    assert games_to_settle(run("a", [1000] * 10 + [1500] * 69)) is None
    swings = run("b", [1300, 1700] * 40)  # the level is 1500 and every rating is 200 away
    assert games_to_settle(swings) is None
    nearly = run("c", [1000] * 10 + ([1500] * 19 + [1000]) * 3 + [1500] * 80)  # runs of 19, then settles
    assert games_to_settle(nearly) == 71
    short = run("d", [1500] * (SETTLE_MIN_GAMES - 1))
    versions = versions_of([[x] for x in settles + swings + nearly + short])
    found = settling(versions, [("a", 1), ("b", 1), ("c", 1), ("d", 1)])
    assert (found.versions, found.settled, found.too_few, found.games) == (3, 2, 1, (11, 71))
    assert found.median == 41 and math.isclose(found.p90, 11 + 0.9 * 60)


def test_calibration_by_hand():
    # the level (mean of the last 50 afters) is 1500; 20 ratings before the tail are checked
    befores = [1500 + 90] * 5 + [1500 + 160] * 5 + [1500 + 300] * 5 + [1500 - 100] * 5
    deviations = [50] * 5 + [75] * 5 + [100] * 5 + [250] * 5  # +- 100, 150, 200, 500
    entries = run("a", [1500] * (20 + SETTLE_TAIL), befores=befores + [1500] * SETTLE_TAIL,
                  deviations=deviations + [60] * SETTLE_TAIL)
    found = calibration(versions_of([[x] for x in entries]))
    assert found.ratings == 20
    # +-100 holds 90 (in); +-150 misses 160 (out); +-200 misses 300 (out); +-500 holds 100 (in)
    assert [(b.ratings, b.inside) for b in found.buckets] == [(10, 5), (5, 0), (0, 0), (5, 5)]
    assert found.inside == 10 and found.coverage == 0.5


def test_the_whole_report_of_a_short_history_has_no_division_by_zero():
    rep = report(HISTORY, last=1000, new_versions=[("a", 1), ("zzz", 9)])
    assert rep.matches == 2 and rep.prediction.pairs == 4
    assert rep.settling.versions == 0 and rep.settling.too_few == 1 and rep.settling.median is None
    assert rep.calibration.ratings == 0 and rep.calibration.coverage is None
    assert report([], last=10, new_versions=[]).prediction.log_loss is None
