"""`ladder bench collusion` on a small fixed set (the long run is the command's, docs/ratings.md):
the sock puppets are flagged within 20 shared matches, honest house bots are not."""

from __future__ import annotations

from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench.collusion import false_alarms, honest_names, power


def test_the_sock_puppets_are_flagged_within_20_shared_matches(quick_boss):
    found = power(trials=3, within=20, honest_between=2, seed=5)
    assert all(k is not None and k <= 20 for k in found.first_flagged), found


def test_honest_house_bots_raise_no_alarm_on_a_fixed_set(quick_boss):
    alarms = false_alarms(reports=1, matches=20, seed=3)
    house = len(honest_names())  # every pair of them is tested
    assert house >= 8 and alarms.pairs == house * (house - 1) // 2 and alarms.flagged == 0, alarms.strongest


def test_the_command_prints_both_figures(quick_boss):
    result = CliRunner().invoke(main, ["bench", "collusion", "--reports", "1", "--matches", "10", "--trials", "1",
                                       "--within", "3"])
    assert result.exit_code == 0, result.output
    assert "false alarms: " in result.output and "sock puppets: flagged in 1 of 1 trials" in result.output
