"""`ladder tournament`: local bots, duplicate seated, played through the match runner in a pool."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.tournament import entrant_names
from ladder.replay import load_replay, verify_replay
from ladder.tournaments.model import Entrant, MatchSpec
from ladder.tournaments.standings import PlayedMatch, SeatResult, standing_order, standings


def run(*args):
    # no COLUMNS: the output is not a terminal, as when written to a file, and each standings row is
    # one line (rich wrapped the tables at 80 columns; test_a_duplicate_round_robin reads a row's line)
    return CliRunner().invoke(main, ["tournament", *args], env={"COLUMNS": None})


def report(out):
    return json.loads((out / "tournament.json").read_text())


def test_a_duplicate_round_robin_plays_every_deal_from_every_seat(tmp_path):
    out = tmp_path / "t"
    result = run("builtin:careful", "builtin:random", "builtin:random", "--game", "treasure", "--deals", "2",
                 "--sandbox", "none", "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = report(out)
    assert [e["name"] for e in data["entrants"]] == ["careful", "random", "random#2"]
    matches = data["matches"]
    assert len(matches) == 2 * 6 and all("results" in m for m in matches)  # 3 seats: all 6 orders per deal
    for deal in (0, 1):
        at = [m for m in matches if m["deal"] == deal]
        assert len({m["seed"] for m in at}) == 1
        for name in ("careful", "random", "random#2"):
            assert Counter(m["seats"].index(name) for m in at) == {0: 2, 1: 2, 2: 2}
    replay = load_replay(matches[0]["replay"])
    assert verify_replay(replay).ok and replay["seed"] == matches[0]["seed"]
    assert [r["bot"] for r in replay["results"]] == matches[0]["seats"]
    assert [r["rank"] for r in replay["results"]] == [r["rank"] for r in matches[0]["results"]]
    # the standings are the mean of the recorded ranks, and are printed with their intervals
    rows = {r["name"]: r for r in data["standings"]}
    ranks = [r["rank"] for m in matches for name, r in zip(m["seats"], m["results"], strict=True) if name == "careful"]
    assert rows["careful"]["rank"]["mean"] == pytest.approx(sum(ranks) / len(ranks))
    assert rows["careful"]["rank"]["low"] <= rows["careful"]["rank"]["mean"] <= rows["careful"]["rank"]["high"]
    assert "Mean rank [95% CI]" in result.output and "Crosstable" in result.output
    assert "matches" in result.output and "12/12" in result.output  # the progress bar's last state
    line = next(x for x in result.output.splitlines() if "│ careful " in x)
    assert f"{rows['careful']['rank']['mean']:.2f} [" in line and line.count("│") == 8  # the whole row
    assert len(data["crosstable"]) == 6 and len(data["deals"]) == 2


def test_random_seating_plays_as_many_matches_on_fresh_seeds(tmp_path):
    out = tmp_path / "t"
    result = run("builtin:careful", "builtin:random", "--game", "treasure", "--deals", "3", "--no-duplicate",
                 "--sandbox", "none", "--jobs", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    matches = report(out)["matches"]
    assert len(matches) == 6 and len({m["seed"] for m in matches}) == 6


def test_deals_come_from_a_fresh_secret_seed_unless_one_is_given(tmp_path):
    """#23: with the old default seed 1 the deals were 1 + deal * 1,000,003, a handful of
    candidates a sandboxed bot could try against its own cards to rebuild every hidden one. Now
    each event draws a 62-bit secret seed (recorded, so `--seed` repeats its deals)."""
    def deals(out, *extra):
        result = run("builtin:careful", "builtin:random", "--game", "treasure", "--deals", "2", "--sandbox", "none",
                     "--jobs", "1", "--out", str(out), *extra)
        assert result.exit_code == 0, result.output
        data = report(out)
        assert f"seed {data['seed']}" in result.output
        return data["seed"], sorted({(m["deal"], m["seed"]) for m in data["matches"]})

    first_seed, first = deals(tmp_path / "a")
    second_seed, second = deals(tmp_path / "b")
    assert first_seed != second_seed and {s for _, s in first}.isdisjoint(s for _, s in second)
    assert all(seed >= 1 << 32 for _, seed in first + second)  # nothing a bot could count up to
    assert deals(tmp_path / "c", "--seed", str(first_seed)) == (first_seed, first)  # repeatable on request


def test_a_swiss_event_reseats_by_standing(tmp_path):
    out = tmp_path / "t"
    result = run("builtin:careful", "builtin:careful", "builtin:random", "builtin:random", "--game", "treasure",
                 "--players", "2", "--format", "swiss", "--rounds", "2", "--deals", "1", "--sandbox", "none",
                 "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = report(out)
    assert len(data["matches"]) == 2 * 2 * 2
    first = [as_played(m) for m in data["matches"] if m["round"] == 0]
    order = standing_order(standings([Entrant(e["name"], e["name"]) for e in data["entrants"]], first,
                                     seed=data["seed"]))
    second = [m for m in data["matches"] if m["round"] == 1]
    assert {frozenset(m["seats"]) for m in second} == {frozenset(order[:2]), frozenset(order[2:])}
    assert {m["deal"] for m in second} == {1}


def as_played(m):
    spec = MatchSpec(m["index"], m["round"], m["table"], m["deal"], m["seed"], tuple(m["seats"]), m["order"])
    return PlayedMatch(spec, tuple(SeatResult(r["rank"], r["score"], r["forfeited"]) for r in m["results"]))


def test_a_bot_that_crashes_forfeits_and_ranks_last(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(3)\n")
    out = tmp_path / "t"
    result = run(str(crash), "builtin:random", "--game", "treasure", "--deals", "1", "--sandbox", "none",
                 "--jobs", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = report(out)
    rows = {r["name"]: r for r in data["standings"]}
    assert rows["crash"]["forfeits"] == 2 and rows["crash"]["rank"]["mean"] == 2
    assert rows["random"]["wins"] == 2 and data["excluded"] == []
    assert (out / "entrants" / "0" / "crash.py").read_text() == crash.read_text()  # frozen copy


@pytest.mark.parametrize("args, message", [
    (["builtin:careful", "builtin:nope"], "nope"),
    (["builtin:careful", "builtin:random", "--players", "9"], "2-6 players"),
    (["builtin:careful", "builtin:random", "--option", "nonsense=1"], "nonsense"),
    (["builtin:careful", "missing.py"], "no bot at"),
    (["builtin:careful", "builtin:random", "--rounds", "2"], "--rounds is for"),
])
def test_bad_input_is_a_usage_error_that_plays_nothing(tmp_path, args, message):
    out = tmp_path / "t"
    result = run(*args, "--game", "treasure", "--sandbox", "none", "--out", str(out))
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (out / "tournament.json").exists()


def test_a_folder_with_results_is_never_overwritten(tmp_path):
    (tmp_path / "old.json").write_text("{}")
    result = run("builtin:careful", "builtin:random", "--game", "treasure", "--sandbox", "none",
                 "--out", str(tmp_path))
    assert result.exit_code == 2 and "not empty" in result.output


def test_a_small_strict_tournament(tmp_path, strict_sandbox):
    out = tmp_path / "t"
    result = run("builtin:careful", "builtin:random", "--game", "treasure", "--deals", "1", "--sandbox",
                 strict_sandbox, "--jobs", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = report(out)
    assert data["sandbox"] == "strict" and len(data["matches"]) == 2
    for match in data["matches"]:
        replay = load_replay(match["replay"])
        assert replay["sandbox"] == "strict" and all(s["status"] == "ok" for s in replay["seats"])


def test_entrant_names_are_short_and_unique():
    assert entrant_names(["builtin:greedy", "a/mybot.py", "b/mybot.py", "c/pkg/", "d.zip"]) == [
        "greedy", "mybot", "mybot#2", "pkg", "d"]


def test_a_swiss_field_that_splits_into_tables_the_game_cannot_seat_is_refused(tmp_path):
    result = run("builtin:greedy", "builtin:random", "builtin:trader", "builtin:bargainer", "--players", "3",
                 "--format", "swiss", "--sandbox", "none", "--out", str(tmp_path / "t"))
    assert result.exit_code == 2 and "tables of 2" in result.output and "3-6 players" in result.output
