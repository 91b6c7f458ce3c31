"""The first set of gauntlet bots (bots/gauntlet/: patient, hardball, accepter for Drachengold,
treasure_outsider for Treasure of the Dragons; issue #24): outside bots that the house bots are
measured against. Each plays seeded games in the strict sandbox at the default clock, at 3 to 6
players and under the advanced rules and the strategic split, beside house bots and itself, and
must finish every game without a single refused answer, takeover or forfeit: a gauntlet bot that
faults would make the house bot look better than it is."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.replay import load_replay

GAUNTLET = Path(__file__).parents[2] / "bots" / "gauntlet"

# (game, options, seats): "me" is the gauntlet bot; some tables seat it twice (it must agree with
# itself too). Seeds differ so the tables see different deals.
DRACHENGOLD_TABLES = [
    ({}, ["me", "builtin:greedy", "builtin:trader"]),
    ({"rules": "advanced-a"}, ["builtin:strong", "me", "builtin:greedy", "builtin:trader"]),
    ({"rules": "advanced-b", "split": "strategic"}, ["builtin:trader", "me", "builtin:greedy", "me", "builtin:strong"]),
    ({"rules": "advanced-a", "split": "negotiation"}, ["me", "builtin:bargainer", "builtin:greedy", "builtin:trader",
                                                      "builtin:strong", "me"]),
]
CASES = [(bot, "drachengold", options, seats, seed)
         for bot in ("patient", "hardball", "accepter")
         for seed, (options, seats) in enumerate(DRACHENGOLD_TABLES, start=11)]
CASES += [("treasure_outsider", "treasure", {}, ["me", "builtin:search"], 5),
          ("treasure_outsider", "treasure", {}, ["builtin:careful", "me", "builtin:memory", "builtin:search"], 6),
          ("treasure_outsider", "treasure", {}, ["me", "builtin:random", "me", "builtin:careful", "builtin:search",
                                                 "builtin:memory"], 7)]


@pytest.mark.parametrize(("bot", "game", "options", "seats", "seed"), CASES,
                         ids=[f"{c[0]}-{len(c[3])}p-{'-'.join(c[2].values()) or 'basic'}" for c in CASES])
def test_a_gauntlet_bot_finishes_seeded_games_without_a_fault(strict_sandbox, tmp_path, bot, game, options, seats,
                                                              seed):
    path = str(GAUNTLET / f"{bot}.py")
    bots = [path if s == "me" else s for s in seats]
    replay_path = tmp_path / "match.json"
    args = ["match", *bots, "--game", game, "--seed", str(seed), "--sandbox", strict_sandbox,
            "--replay", str(replay_path), "--json"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    # exit 1 whenever a bot given as a file faulted
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert [r["status"] for r in printed["results"]] == ["ok"] * len(seats), printed["results"]
    replay = load_replay(replay_path)
    assert all(replay["options"].get(k) == v for k, v in options.items()), replay["options"]
    mine = [i for i, s in enumerate(seats) if s == "me"]
    for seat in mine:
        record = replay["seats"][seat]
        assert record["strikes"] == [] and record["takeover"] is None and not record["forfeit"], record
        assert "Traceback" not in record["stderr"], record["stderr"][-2000:]
        decisions = [e for e in replay["log"] if "decision" in e and e["seat"] == seat]
        assert decisions and not any(e.get("fault") for e in decisions)
    assert replay["log"][-1]["type"] in ("game_over", "game_end")
