"""The generic test every game passes: seeded games of the game's built-in "random" bot, at every
player count and with each value of each choice option, end cleanly and their replays verify."""

import json
import os

import pytest

from bots import load_builtin
from ladder.games import available_games, get_game
from ladder.play import bot_seed, play_builtin
from ladder.protocol_schema import schema_games
from ladder.protocol_schema.check import ProtocolChecker, SchemaMismatch
from ladder.replay import dumps_replay, loads_replay, verify_replay
from workers.match import protocol

SEEDS = range(3)


def toygame():
    """tests/toygame/, the suite's own small game (tests/ is on the path: pyproject's pythonpath)."""
    import toygame

    return toygame


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
        assert all(seat.status == "ok" for seat in played.seats), played.seats  # random plays legally
        ranks = [r.rank for r in played.results]
        assert min(ranks) == 1 and max(ranks) <= players and ranks == played.state.ranks()
        assert played.decisions == played.replay.decisions() > 0
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


# --- the published protocol schema (ladder/protocol_schema) -------------------------------------


def sweep_games() -> int:
    return int(os.environ.get("LADDER_SWEEP_GAMES", "0"))


def schema_seeds() -> range:
    """Seeds per case whose messages are checked: 1 by default (jsonschema is slow), one more per
    2,500 sweep games asked for (CI's sweep, .ci/run, gives 1: every message, ~80 s of CPU per seed
    for all cases)."""
    return range(max(1, sweep_games() // 2500))


def schema_stride() -> int:
    return 1 if sweep_games() else 8


def wire_messages(game: str, players: int, options: dict, seed: int):
    """Every message of one game of random bots as the protocol writes it: (name, message) pairs,
    with the answer carrying its request's kind, and for each request the default decision's answer
    and `error` message too (the default is what a faulty bot's seat plays)."""
    state = get_game(game).new_state(options, seed, players)
    bots = [load_builtin(game, "random")() for _ in range(players)]
    clock = protocol.TimeControl()
    for seat, bot in enumerate(bots):
        hello = protocol.hello(game=game, seat=seat, players=players, options=state.options,
                               bot_seed=bot_seed(seed, seat), time=clock)
        yield "hello", hello
        bot.setup(hello)
    sent, rid = 0, 0
    while True:
        for event in state.events[sent:]:
            yield "event", protocol.event(event.as_json())
            for seat, bot in enumerate(bots):
                if event.visible_to(seat):
                    bot.on_event(event.as_json())
        sent = len(state.events)
        pending = state.pending()
        if pending is None:
            break
        rid += 1
        observation = state.observation(pending.seat)
        yield "request", protocol.request(rid, pending.kind, observation)
        default = state.default_decision()
        yield "answer", (pending.kind, {"id": rid, "decision": default})
        yield "error", protocol.error(rid, "illegal", "a refused answer", default)
        decision = json.loads(json.dumps(bots[pending.seat].decide(pending.kind, observation)))
        yield "answer", (pending.kind, {"id": rid, "decision": decision})
        state.apply(pending.seat, decision)
    results = [{"seat": i, "score": s, "rank": r, "status": "ok"}
               for i, (s, r) in enumerate(zip(state.scores(), state.ranks(), strict=True))]
    for seat in range(players):
        yield "end", protocol.end(results, seat)


def test_every_game_ships_a_protocol_schema():
    missing = [g for g in available_games() if g != "toy" and g not in schema_games()]  # toy: the tests' own
    assert not missing, f"add ladder/games/<game>/schema.json for {missing} (see ladder/protocol_schema)"


def schema_cases():
    return [c for c in cases() if c.values[0] != "toy"]


@pytest.mark.parametrize(("game", "players", "options"), schema_cases())
def test_every_message_of_random_games_matches_the_published_schema(game, players, options):
    checker = ProtocolChecker(game)
    seen: set[tuple[str, str]] = set()
    count = 0
    for seed in schema_seeds():
        for name, message in wire_messages(game, players, options, seed):
            # jsonschema is slow: the first message of each name and kind or event type, then a
            # stride of the rest (every message, with LADDER_SWEEP_GAMES set)
            kind = message[0] if name == "answer" else message.get("kind") or message.get("event", {}).get("type", "")
            count += 1
            if (name, kind) in seen and count % schema_stride():
                continue
            seen.add((name, kind))
            if name == "answer":
                checker.answer(*message)
            else:
                getattr(checker, name)(message)
    assert {n for n, _ in seen} == {"hello", "request", "answer", "error", "event", "end"}
    assert {k for n, k in seen if n == "answer"} <= set(get_game(game).decision_kinds)


def test_the_schema_check_catches_drift():
    """A field the engine would add, or one it would drop, fails the check: the schemas are strict."""
    checker = ProtocolChecker("treasure")
    messages = list(wire_messages("treasure", 2, {}, 0))
    request = next(m for n, m in messages if n == "request")
    extra = {**request, "observation": {**request["observation"], "new_field": 1}}
    with pytest.raises(SchemaMismatch, match="new_field"):
        checker.request(extra)
    asked = {**request["observation"]["request"], "can_stop": "yes"}  # a changed type inside the request
    with pytest.raises(SchemaMismatch, match="at request/can_stop: 'yes' is not of type 'boolean'"):
        checker.request({**request, "observation": {**request["observation"], "request": asked}})
    event = next(m for n, m in messages if n == "event" and m["event"]["type"] == "flip")
    dropped = {"type": "event", "event": {"type": "flip", "data": {"seat": 0, "square": [0, 0]}}}
    with pytest.raises(SchemaMismatch, match="kind"):
        checker.event(dropped)
    with pytest.raises(SchemaMismatch, match=r"no 'event\.unheard_of'"):
        checker.event({"type": "event", "event": {"type": "unheard_of", "data": {}}})
    checker.event(event)


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
