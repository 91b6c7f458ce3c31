"""`ladder gauntlet`: a house bot against outside bots, every seat order, intervals over deals."""

import json
from pathlib import Path

from click.testing import CliRunner

from bots import builtin_names
from ladder.cli import main
from ladder.cli.gauntlet import GAUNTLET_DIR, lineup
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


def test_every_game_s_gauntlet_lists_outside_bots_that_exist_and_a_boss_of_its_own():
    manifest = json.loads((GAUNTLET_DIR / "gauntlet.json").read_text())
    assert set(manifest) <= set(available_games())
    for game in manifest:
        outsiders, fillers = lineup(game)
        assert outsiders and all(Path(p).is_file() for p in outsiders), game
        assert all(f.removeprefix("builtin:") in builtin_names(game) for f in fillers)
        assert get_game(game).boss in builtin_names(game)
