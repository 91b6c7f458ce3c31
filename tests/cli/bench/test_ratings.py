"""`ladder bench ratings` on a small fixed ladder (the long run is the command's, docs/ratings.md):
the history it plays is the ladder's kind (a late bot, a second version), rated as the ladder
rates, and each method's coverage is counted on the same ratings."""

from __future__ import annotations

from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench.ratings import METHODS, bradley_terry, coverage, play_ladder, roster
from ladder.ranking.ratings import recompute


def test_a_small_seeded_ladder_replays_as_the_ladder_rates_it(quick_boss):
    lad = play_ladder(game="drachengold", matches=60, seed=3, bootstrap_every=5)
    assert len(lad.history) == 60 and len(lad.points) == sum(len(m) for m in lad.history)
    played = {e.player for m in lad.history for e in m}
    assert {b.name for b in roster("drachengold")} == played  # the late bot and the upgraded one played
    assert ("upgraded", 2) in {(e.player, e.version) for m in lad.history for e in m}
    late = next(i for i, m in enumerate(lad.history) if any(e.player == "late" for e in m))
    assert late >= 18  # it arrives at 30% of the matches
    # the stored-looking history replays to the same ratings and deviations (ranks after forfeits)
    replay = recompute([(i, [(e.player, e.rank, False, e.version) for e in m]) for i, m in enumerate(lad.history)])
    assert [c.after for m in replay.matches for c in m.changes] == [e.after for m in lad.history for e in m]
    assert [c.deviation_before for m in replay.matches for c in m.changes] == [
        e.deviation_before for m in lad.history for e in m]
    found, spread = coverage([lad])
    assert [c.method for c in found] == list(METHODS)
    assert all(0 <= c.inside <= c.points for c in found) and found[0].points == len(lad.points)
    assert 0 < found[2].points < found[0].points  # the bootstrap is taken at every 5th game only
    assert spread > 50


def test_bradley_terry_levels_by_hand():
    even = bradley_terry([("a", "b", 1.0), ("a", "b", 0.0)] * 3)
    assert abs(even["a"] - even["b"]) < 1e-6
    # a wins 3 of 4 against b: with one virtual draw each against an anchor at 0, the fit puts a
    # above b, symmetric around their mean
    levels = bradley_terry([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    assert levels["a"] > 0 > levels["b"] and abs(levels["a"] + levels["b"]) < 1e-6


def test_the_command_prints_the_report_and_the_coverage(quick_boss):
    result = CliRunner().invoke(main, ["bench", "ratings", "--matches", "30", "--ladders", "1",
                                       "--bootstrap-every", "0", "--last", "20", "--every", "10"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "prediction over the last 20 matches" in out and "naive 0.6931" in out
    assert "propagation" in out and "glicko" in out and "drachengold seed 0: 10/30 matches" in out
