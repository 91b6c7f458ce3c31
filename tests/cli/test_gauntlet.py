"""`ladder gauntlet`: a house bot against outside bots, every seat order, intervals over deals."""

import json
from pathlib import Path

from click.testing import CliRunner

from bots import builtin_names
from ladder.cli import main
from ladder.cli.gauntlet import SETS, TARGET, _bar, lineup
from ladder.games import available_games, get_game


def run(*args):
    return CliRunner().invoke(main, ["gauntlet", *args], env={"COLUMNS": "200"})


def test_it_plays_every_seat_order_and_reports_the_share_above(tmp_path):
    out = tmp_path / "g.json"
    result = run("builtin:careful", "--game", "treasure", "--against", "builtin:random", "--against", "builtin:memory",
                 "--fillers", "builtin:random", "--players", "3", "--deals", "2", "--sandbox", "none", "--jobs", "2",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [r["outsider"] for r in data["rows"]] == ["builtin:random", "builtin:memory"]
    assert len(data["matches"]) == 2 * 2 * 6 and all(m["ranks"] for m in data["matches"])
    for row in data["rows"]:
        assert row["games"] == 12 and row["failed"] == 0
        assert row["above"] + row["ties"] <= 12 and row["low"] <= row["share"] <= row["high"]
    for index, row in enumerate(data["rows"]):  # recounted from the matches themselves
        mine = [m for m in data["matches"] if m["outsider"] == index]
        assert row["above"] == sum(m["ranks"][m["house_seat"]] < m["ranks"][m["outsider_seat"]] for m in mine)
        assert all(m["seats"][m["house_seat"]] == "builtin:careful" for m in mine)
    assert "careful finishing above" in result.output and "Share [95%]" in result.output
    # no --seed: a fresh secret one, printed and recorded (as `ladder tournament`: no deal a bot could guess)
    assert data["seed"] >= 1 << 32 and f"seed {data['seed']}" in result.output


def test_a_missing_bot_is_a_usage_error_before_any_match(tmp_path):
    result = run("builtin:careful", "--game", "treasure", "--against", str(tmp_path / "nope.py"),
                 "--fillers", "builtin:random", "--players", "3", "--sandbox", "none")
    assert result.exit_code == 2 and "nope.py" in result.output


def test_every_set_lists_outside_bots_that_exist_for_each_game_and_a_boss_of_its_own():
    for name, manifest_file in SETS.items():
        manifest = json.loads(manifest_file.read_text())
        assert set(manifest) == set(available_games()) - {"toy"}, name  # every real game has both sets
        for game in manifest:
            outsiders, fillers, players = lineup(game, manifest_file)
            assert outsiders and all(Path(p).is_file() for p in outsiders), (name, game)
            assert all(f.removeprefix("builtin:") in builtin_names(game) for f in fillers)
            assert len(fillers) <= players - 2, (name, game)  # the house, the outsider, then fillers
            get_game(game).check_players(players)
            assert get_game(game).boss in builtin_names(game)


def test_the_held_out_set_is_not_the_gauntlet():
    """A boss is tuned against the gauntlet and judged against the held-out bots: no bot in both."""
    games = json.loads(SETS["heldout"].read_text())
    for game in games:
        tuned = {Path(p).name for p in lineup(game, SETS["gauntlet"])[0]}
        held = {Path(p).name for p in lineup(game, SETS["heldout"])[0]}
        assert len(held) >= 2 and not tuned & held, game  # issue #47: at least two held out per game


def test_the_bar_marks_the_boss_target():
    bar = _bar(0.3, 0.2, 0.4, width=20)
    assert bar.index("|") == int(TARGET * 20) and bar.count("█") == 6


def test_the_held_out_set_plays_at_its_own_table(tmp_path):
    out = tmp_path / "h.json"
    result = run("builtin:careful", "--game", "treasure", "--set", "heldout", "--deals", "1", "--sandbox", "none",
                 "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    held = lineup("treasure", SETS["heldout"])[0]
    assert data["players"] == 2 and [r["outsider"] for r in data["rows"]] == held
    assert all(len(m["seats"]) == 2 and m["ranks"] for m in data["matches"]) and len(data["matches"]) == 2 * len(held)
    assert "0 ... | 65% ... 1" in result.output
