"""The held-out outsiders (bots/heldout/): each plays whole games at every table size without a
fault or a refused decision, in process (the SDK's own decide path), and each runs as a bot process
through `ladder match` (its file as an upload, the protocol on its pipes)."""

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots import load_builtin
from bots.sdk import Bot
from ladder.cli import main
from ladder.games import get_game
from ladder.play import play_game

HELDOUT = Path(__file__).parents[3] / "bots" / "heldout"
BOTS = sorted(p for p in HELDOUT.glob("*.py"))
# played at every table size by their own tests (test_outsiders_dg.py, _dg2.py, _df3.py), on a cut clock:
# their searches stop by time, and at the full 0.3 s a decision these games would take minutes
OWN_TESTS = {"drachengold_pivot", "drachengold_rollout", "drachengold_hardline", "drachengold_sampler",
             "dragonflame_induction", "dragonflame_playout"}


def game_of(path: Path) -> str:
    return path.stem.split("_")[0]


def bot_class(path: Path) -> type[Bot]:
    spec = importlib.util.spec_from_file_location(f"heldout_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (cls,) = [v for v in vars(module).values()
              if isinstance(v, type) and issubclass(v, Bot) and v.__module__ == module.__name__]
    return cls


def test_there_are_at_least_two_outsiders_for_every_game_and_the_set_lists_only_them():
    from ladder.games import GAMES

    per_game = {g: [p.name for p in BOTS if game_of(p) == g] for g in GAMES}
    assert all(len(files) >= 2 for files in per_game.values()), per_game
    assert {game_of(p) for p in BOTS} <= set(GAMES)
    listed = json.loads((HELDOUT / "heldout.json").read_text())
    for game, entry in listed.items():
        assert len(entry["bots"]) >= 2 and set(entry["bots"]) <= set(per_game[game]), (game, entry)


def tables(game: str) -> list[tuple[int, dict]]:
    """Every table size; for Drachengold also the advanced rules and the strategic split."""
    g = get_game(game)
    out = [(n, {}) for n in range(g.min_players, g.max_players + 1)]
    if game == "drachengold":
        out += [(4, {"rules": "advanced-a"}), (3, {"rules": "advanced-b", "split": "strategic"}),
                (5, {"split": "strategic"})]
    return out


@pytest.mark.parametrize("path", [p for p in BOTS if p.stem not in OWN_TESTS], ids=lambda p: p.stem)
def test_it_plays_every_table_size_without_a_fault(path):
    game = game_of(path)
    cls = bot_class(path)
    for number, (players, options) in enumerate(tables(game)):
        # two seats of the outsider (so it meets itself too), the rest the game's fallback bot (random
        # Treasure players take hundreds of turns to empty the cave): a different seat each size
        seats = [load_builtin(game, get_game(game).fallback_bot)() for _ in range(players)]
        first = number % players
        for seat in (first, (first + 1) % players):
            seats[seat] = cls()
        played = play_game(game, seats, seed=4100 + number, options=options)
        assert played.faults == [], (players, options, played.faults[:3])
        assert played.state.pending() is None
        ours = [r for r in played.replay.seats if isinstance(seats[r.seat], cls)]
        assert len(ours) == 2 and all(r.status == "ok" and not r.forfeit for r in ours)


@pytest.mark.parametrize("path", BOTS, ids=lambda p: p.stem)
def test_it_runs_as_a_bot_process_through_ladder_match(path, tmp_path):
    game = game_of(path)
    others = ["builtin:random"] * (get_game(game).min_players - 1)
    result = CliRunner().invoke(main, ["match", str(path), *others, "--game", game, "--seed", "12",
                                       "--sandbox", "none", "--replay", str(tmp_path / "r.json"), "--json"])
    assert result.exit_code == 0, result.output
    seat = json.loads((tmp_path / "r.json").read_text())["seats"][0]
    assert seat["status"] == "ok" and seat["strikes"] == [] and seat["takeover"] is None, seat["stderr"][-2000:]
