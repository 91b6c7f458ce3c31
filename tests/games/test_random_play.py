"""The generic test every game passes: seeded games of the game's built-in "random" bot, at every
player count and with each value of each choice option, end cleanly and their replays verify."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ladder.games import available_games, get_game
from ladder.play import play_builtin
from ladder.replay import dumps_replay, loads_replay, verify_replay

SEEDS = range(3)


def toygame():
    """tests/toygame.py, the suite's own small game, loaded by path (tests/ is no package)."""
    if "toygame" not in sys.modules:
        spec = importlib.util.spec_from_file_location("toygame", Path(__file__).parents[1] / "toygame.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["toygame"] = module
        spec.loader.exec_module(module)
    return sys.modules["toygame"]


@pytest.fixture(autouse=True)
def toy(monkeypatch):
    toygame().register(monkeypatch)


def cases():
    games = [("toy", toygame().ToyGame())] + [(name, get_game(name)) for name in available_games()]
    for name, game in games:
        option_sets = [{}]  # the defaults, then each other value of each choice option
        for option, spec in game.options.items():
            option_sets += [{option: value} for value in spec.choices or () if value != spec.default]
        for players in range(game.min_players, game.max_players + 1):
            for options in option_sets:
                label = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
                yield pytest.param(name, players, options, id=f"{name}-{players}p-{label}")


@pytest.mark.parametrize(("game", "players", "options"), list(cases()))
def test_random_games_end_and_their_replays_verify(game, players, options):
    for seed in SEEDS:
        played = play_builtin(game, ["random"] * players, seed=seed, options=options)
        assert played.state.is_terminal()
        assert all(seat["status"] == "ok" for seat in played.seats), played.seats  # random plays legally
        ranks = [r["rank"] for r in played.results]
        assert min(ranks) == 1 and max(ranks) <= players and ranks == played.state.ranks()
        assert played.decisions == sum("decision" in e for e in played.replay["log"]) > 0
        data = dumps_replay(played.replay)
        result = verify_replay(loads_replay(data))
        assert result.ok, f"seed {seed}: {result.difference}"
        assert (result.decisions, result.events) == (played.decisions, len(played.state.events))
        if seed == SEEDS[0]:  # same seed, same game, byte for byte; and a tampered copy fails
            again = play_builtin(game, ["random"] * players, seed=seed, options=options)
            assert dumps_replay(again.replay) == data
            tampered = loads_replay(data)
            index = max(i for i, e in enumerate(tampered["log"]) if "type" in e)  # the last event
            tampered["log"][index]["data"]["tampered"] = True
            assert verify_replay(tampered).difference.startswith(f"log entry {index}: expected event")


def _wreck(value) -> None:
    if isinstance(value, dict):
        for v in list(value.values()):
            _wreck(v)
        value.clear()
    elif isinstance(value, list):
        for v in value:
            _wreck(v)
        value.clear()


def wrecking(bot_class):
    """The game's random bot, which wrecks every observation and event once it has used it."""

    class Wrecker(bot_class):
        def on_event(self, event):
            super().on_event(event)
            _wreck(event)

        def decide(self, kind, observation):
            decision = json.loads(json.dumps(super().decide(kind, observation)))  # may quote the observation
            _wreck(observation)
            return decision

    Wrecker.__name__ = bot_class.__name__  # the SDK seeds a bot's rng with its class name
    return Wrecker


@pytest.mark.parametrize("game", ["toy", *available_games()])
def test_what_a_bot_is_handed_is_its_own(game):
    """Observations are built fresh and events copied per seat: an in-process bot that wrecks all
    it is handed changes neither the game nor the log (e.g. not the options in an observation)."""
    from bots import load_builtin
    from ladder.play import play_game

    players = get_game(game).default_players
    for seed in SEEDS:
        cls = load_builtin(game, "random")
        names = ["random"] * players
        clean = play_game(game, [cls() for _ in range(players)], seed=seed, names=names)
        wrecked = play_game(game, [wrecking(cls)() for _ in range(players)], seed=seed, names=names)
        assert dumps_replay(wrecked.replay) == dumps_replay(clean.replay)
        assert wrecked.state.options == clean.state.options
