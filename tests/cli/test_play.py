import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import select

from ladder.cli import main
from ladder.models import Match, MatchStatus, Seat
from ladder.play import default_bot_names, play_builtin
from ladder.replay import load_replay, verify_replay, write_replay


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))  # tests/ holds toygame.py
    import toygame

    toygame.register(monkeypatch)
    return toygame


def run(*args):
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})
    return result


def test_help_lists_the_commands():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("play", "demo", "replay", "bench"):
        assert command in result.output


def test_play_json_matches_the_game(toy):
    result = run("play", "--game", "toy", "--seed", "9", "--bots", "random,fixed,random", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    expected = play_builtin("toy", ["random", "fixed", "random"], seed=9)
    assert printed["game"] == "toy" and printed["seed"] == 9
    assert printed["options"] == {"pile": 12, "bonus": 2, "style": "plain"}
    assert [(r["seat"], r["bot"], r["score"], r["rank"]) for r in printed["results"]] == [
        (r.seat, r.bot, r.score, r.rank) for r in expected.results
    ]


def test_play_table_shows_scores_ranks_and_breakdown(toy):
    result = run("play", "--game", "toy", "--seed", "4", "--bots", "fixed,random", "--option", "pile=20")
    assert result.exit_code == 0, result.output
    expected = play_builtin("toy", ["fixed", "random"], seed=4, options={"pile": 20})
    lines = result.output.splitlines()
    assert "Toy Nim" in result.output and "pile=20" in result.output
    for r in expected.results:
        row = next(line for line in lines if f"│ {r.bot} " in line and f" {r.seat} │" in line)
        cells = [c.strip() for c in row.split("│")[1:-1]]
        taken = r.breakdown["taken"]
        assert cells[:4] == [str(r.seat), r.bot, str(r.score), str(r.rank)]
        assert f"taken {taken}" in cells[4]


def test_one_bot_name_fills_every_seat_and_players_default(toy):
    result = run("play", "--game", "toy", "--bots", "fixed", "--json")
    assert [r["bot"] for r in json.loads(result.output)["results"]] == ["fixed"] * 3  # toy default: 3
    result = run("play", "--game", "toy", "--players", "5", "--json")
    assert len(json.loads(result.output)["results"]) == 5


def test_play_writes_a_replay_that_verifies(toy, tmp_path):
    out = tmp_path / "g.json"
    result = run("play", "--game", "toy", "--seed", "2", "--replay", str(out))
    assert result.exit_code == 0, result.output
    assert verify_replay(load_replay(out)).ok and load_replay(out)["seed"] == 2


def test_many_games_json_lines_and_indexed_replays(toy, tmp_path):
    out = tmp_path / "g.json.gz"
    result = run("play", "--game", "toy", "--seed", "5", "--games", "3", "--json", "--replay", str(out))
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.output.splitlines()]
    assert [o["seed"] for o in objects] == [5, 6, 7]
    for index, o in enumerate(objects):
        path = tmp_path / f"g-{index}.json.gz"
        assert o["replay"] == str(path)
        assert load_replay(path)["seed"] == 5 + index


def test_many_games_summary_per_bot(toy):
    result = run("play", "--game", "toy", "--seed", "1", "--games", "4", "--bots", "fixed,random")
    assert result.exit_code == 0, result.output
    wins = {"fixed": 0, "random": 0}
    for seed in range(1, 5):
        for r in play_builtin("toy", ["fixed", "random"], seed=seed).results:
            wins[r.bot] += r.rank == 1
    assert "4 games" in result.output
    for bot in ("fixed", "random"):
        row = next(line for line in result.output.splitlines() if f"│ {bot} " in line)
        cells = [c.strip() for c in row.split("│")[1:-1]]
        assert cells[1:3] == ["4", str(wins[bot])]


def test_faults_show_a_status(toy):
    result = run("play", "--game", "toy", "--bots", "fixed,crash", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "crash x" in result.output
    assert "seat 1 (crash): crash" in result.output and "RuntimeError: boom" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "toy", "--option", "size=3"], "unknown option 'size' for toy"),
        (["--game", "toy", "--option", "pile=1"], "allowed range is 3..60"),
        (["--game", "toy", "--option", "pile"], "write it as key=value"),
        (["--game", "toy", "--bots", "fixed,smart"], "no built-in bot 'smart' for toy"),
        (["--game", "toy", "--players", "9"], "toy takes 2-5 players, not 9"),
        (["--game", "toy", "--players", "3", "--bots", "fixed,random"], "names 2 bots for 3 players"),
    ],
)
def test_play_errors_exit_2_with_a_message(toy, args, message):
    result = run("play", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_demo_logs_public_events_then_the_table(toy):
    result = run("demo", "--game", "toy", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("start") and "pile=12" in lines[0]
    took = [line for line in lines if line.startswith("took")]
    played = play_builtin("toy", default_bot_names("toy", 3), seed=3)  # the game's default line-up
    assert len(took) == sum(getattr(e, "type", None) == "took" for e in played.replay.log)
    assert not any(line.startswith("secret") for line in lines)  # private events stay private
    assert "Toy Nim" in result.output


def test_replay_verify_ok_and_mismatch(toy, tmp_path):
    replay = play_builtin("toy", ["random", "random"], seed=6).replay.to_json()
    good = write_replay(replay, tmp_path / "good.json")
    result = run("replay", "verify", str(good))
    assert result.exit_code == 0
    assert result.output.startswith("OK toy seed 6:") and len(result.output.splitlines()) == 1
    replay["results"][0]["score"] += 5
    bad = write_replay(replay, tmp_path / "bad.json")
    result = run("replay", "verify", str(bad))
    assert result.exit_code == 1
    assert "MISMATCH toy seed 6: results[0].score: expected" in result.output


def test_replay_verify_malformed_and_missing(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema_version": 7}')
    result = run("replay", "verify", str(broken))
    assert result.exit_code == 1 and "newer than this ladder reads" in result.output
    result = run("replay", "verify", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "does not exist" in result.output


def test_bench_engine_rejects_an_unknown_game():
    result = run("bench", "engine", "--game", "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


def test_record_stores_each_game_in_the_settings_database(db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test", "COLUMNS": "200"}
    done = CliRunner().invoke(main, ["play", "--game", "treasure", "--bots", "careful,random", "--seed", "4",
                                     "--games", "3", "--record", "--json"], env=env)
    assert done.exit_code == 0, done.output
    lines = [json.loads(line) for line in done.output.splitlines()]
    assert [line["seed"] for line in lines] == [4, 5, 6]

    matches = session.exec(select(Match).order_by(Match.id)).all()
    assert [(m.seed, m.status, m.ranked) for m in matches] == [(s, MatchStatus.FINISHED, False) for s in (4, 5, 6)]
    for match, line in zip(matches, lines, strict=True):
        seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(Seat.seat)).all()
        assert [(s.score, s.rank) for s in seats] == [(r["score"], r["rank"]) for r in line["results"]]

    table = CliRunner().invoke(main, ["play", "--game", "treasure", "--bots", "careful,random", "--seed", "7",
                                      "--record"], env=env)
    assert table.exit_code == 0, table.output
    assert f"recorded as match {matches[-1].id + 1} in the ladder's database" in table.output


def test_record_refuses_a_bot_in_two_seats_and_writes_nothing(db_url, session, tmp_path):
    env = {"DATABASE_URL": db_url, "LADDER_INSTANCE_DIR": str(tmp_path), "LADDER_ENV": "test"}
    done = CliRunner().invoke(main, ["play", "--game", "treasure", "--bots", "careful", "--players", "2",
                                     "--record"], env=env)
    assert done.exit_code == 2 and "repeats a name" in done.output, done.output

    assert session.exec(select(Match)).all() == []
