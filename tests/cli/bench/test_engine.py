from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench import engine


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[2]))  # tests/ holds the toygame package
    import toygame

    toygame.register(monkeypatch)
    return toygame


def test_lineups_are_the_greedy_style_bot_and_random(toy):
    assert engine.lineups("toy") == ["fixed", "random"]


def test_bench_counts_the_work_it_timed(toy):
    row = engine.bench_lineup("toy", "fixed", games=3, repeats=2)
    # fixed bots on the default pile of 12 with 4 seats: 4 takes of 3, then 4 bets, every game
    assert (row.game, row.bots, row.players, row.decisions_per_game) == ("toy", "4 x fixed", 4, 8)
    assert row.games_per_s > 0 and row.engine_us > 0 and row.observation_us > 0
    assert row.decisions_per_s == pytest.approx(row.games_per_s * 8)


def test_bench_engine_prints_a_row_per_game_and_line_up(toy):
    result = CliRunner().invoke(
        main, ["bench", "engine", "--game", "toy", "--games", "2", "--repeats", "1"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│ toy")]
    assert [r.split("│")[2].strip() for r in rows] == ["4 x fixed", "4 x random"]
    for row in rows:
        numbers = [c.strip().replace(",", "") for c in row.split("│")[3:-1]]
        assert len(numbers) == 5 and all(float(n) > 0 for n in numbers)
    assert "medians of 1 repeats of 2 games" in result.output
    assert "Target: engine under 20 µs per decision" in result.output
