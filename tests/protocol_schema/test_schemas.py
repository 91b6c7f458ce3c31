"""The schemas themselves: valid draft 2020-12, strict everywhere, every field described, and a
decision and request shape for each decision kind the game declares. (Whether the engine's
messages match them: tests/games/test_random_play.py.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from ladder.games import get_game
from ladder.protocol_schema import envelope_schema, game_schema, kinds, schema_games


def documents() -> list[tuple[str, dict[str, Any]]]:
    return [("envelope", envelope_schema())] + [(g, game_schema(g)) for g in schema_games()]


def nodes(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from nodes(value, f"{path}/{i}")


def test_drachengold_and_treasure_have_schemas():
    assert {"drachengold", "treasure"} <= set(schema_games())


@pytest.mark.parametrize(("name", "doc"), documents(), ids=[n for n, _ in documents()])
def test_a_schema_is_valid_and_strict_and_describes_every_field(name, doc):
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    loose, undescribed = [], []
    for path, node in nodes(doc["$defs"], "$defs"):
        if path.endswith("/properties"):
            continue  # the map of property names, not a schema
        if node.get("type") == "object" or (isinstance(node.get("type"), list) and "object" in node["type"]):
            strict = node.get("additionalProperties") is False and set(node.get("required", [])) <= set(
                node.get("properties", {}))
            seat_map = isinstance(node.get("additionalProperties"), dict) and "propertyNames" in node
            open_payload = name == "envelope" and "properties" not in node  # a game schema describes it
            bot_sent = name == "envelope" and path in ("$defs/ready", "$defs/answer")  # extra fields ignored
            if not (strict or seat_map or open_payload or bot_sent):
                loose.append(path)
        if "/properties/" in path and path.rsplit("/", 2)[-2] == "properties" and not node.get("description") \
                and "$ref" not in node:
            undescribed.append(path)
    assert not loose, f"objects that would let drift through: {loose}"
    assert not undescribed, f"fields without a description (docs/protocol.md shows it): {undescribed}"


@pytest.mark.parametrize("game", schema_games())
def test_every_decision_kind_has_a_request_and_a_decision_shape(game):
    doc, declared = game_schema(game), set(get_game(game).decision_kinds)
    assert set(kinds(doc, "decision")) == declared
    assert set(kinds(doc, "request")) == declared
    asked = {r["$ref"].rsplit(".", 1)[1] for r in doc["$defs"]["observation"]["properties"]["request"]["oneOf"]}
    assert asked == declared
    assert {"options", "observation"} <= set(doc["$defs"]) and kinds(doc, "event")
    assert set(doc["$defs"]["options"]["properties"]) == set(get_game(game).options)


# Options that reach every decision kind (Drachengold's magic needs the advanced rules, divide and
# choose the strategic split); one game each is enough, the rules' own tests go further.
REFUSAL_CASES = [
    ("drachengold", 4, {"rules": "advanced-a"}, {"magic", "attack", "vote", "theft_victim", "theft_pick",
                                                 "market_offer", "market_answer"}),
    ("drachengold", 3, {"split": "strategic"}, {"divide", "choose"}),
    ("treasure", 3, {}, {"move_spider"}), ("dragonflame", 3, {}, {"play", "attack", "flame"})]


@pytest.mark.parametrize(("game", "players", "options", "kinds"), REFUSAL_CASES,
                         ids=[f"{c[0]}-{c[1]}p" for c in REFUSAL_CASES])
def test_a_decision_without_a_field_its_schema_requires_is_refused(game, players, options, kinds):
    # A Drachengold magic decision {"bogus": 1} was played as "no card", though decision.magic
    # requires "card": what the schema requires, the engine must too (a refused decision is a
    # strike, docs/protocol.md "Faults"). Every required field of every decision of a random game.
    from bots import load_builtin
    from ladder.play import bot_seed
    from workers.match import protocol

    required = {name: set(shape.get("required", ())) for name, shape in game_schema(game)["$defs"].items()}
    state = get_game(game).new_state(get_game(game).resolve_options(options), 5, players)
    bots = [load_builtin(game, "random")() for _ in range(players)]
    for seat, bot in enumerate(bots):
        bot.setup(protocol.hello(game=game, seat=seat, players=players, options=state.options,
                                 bot_seed=bot_seed(5, seat), time=protocol.TimeControl()))
    tried, sent = set(), 0
    while (pending := state.pending()) is not None:
        for event in state.events[sent:]:
            for seat, bot in enumerate(bots):
                if event.visible_to(seat):
                    bot.on_event(event.as_json())
        sent = len(state.events)
        decision = json.loads(json.dumps(bots[pending.seat].decide(pending.kind, state.observation(pending.seat))))
        for field in required[f"decision.{pending.kind}"] & set(decision):
            lacking = {key: value for key, value in decision.items() if key != field}
            assert state.validate(pending.seat, lacking) is not None, (pending.kind, lacking)
            assert state.validate(pending.seat, {**lacking, "bogus": 1}) is not None, (pending.kind, lacking)
            tried.add(pending.kind)
        state.apply(pending.seat, decision)
    assert tried >= kinds
