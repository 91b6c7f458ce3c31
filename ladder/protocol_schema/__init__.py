"""The bot protocol as JSON Schema (draft 2020-12): docs/protocol.md in machine-readable form.

Two kinds of files, both plain JSON kept in the repository and served by the site
(/protocol/schema.json and /protocol/<game>.schema.json):

- `envelope.schema.json` (here): every line of the conversation, game-independent (hello, ready,
  request, answer, event, error, end), as workers/match/protocol.py writes and reads them.
- `schema.json` in each game's package (ladder/games/<game>/schema.json): that game's payloads as
  `$defs`: `options` (hello.options), `observation` (request.observation, whose `request` entry
  is one of the `request.<kind>` shapes), `decision.<kind>` for each decision kind, and
  `event.<type>` for each event's `data`. Adding a game's schema is that one file: the site,
  `ladder protocol docs` and the schema test of the random-game sweep find it by itself (then
  `ladder protocol docs --write docs/protocol.md` adds its field reference to the page; the docs
  test fails until it is there). The tests require a schema for every registered game, a
  `request.<kind>` and `decision.<kind>` for each of its `decision_kinds`, an `options` matching
  its options, and a description on every field.

Every object is strict (additionalProperties false, required fields listed), so the sweep test
(tests/games/test_random_play.py) fails when the engine sends a field the schema does not know.
The checker that uses `jsonschema` is in `ladder.protocol_schema.check`.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from typing import Any

ENVELOPE_FILE = "envelope.schema.json"
GAME_FILE = "schema.json"


@functools.cache
def envelope_schema() -> dict[str, Any]:
    return json.loads(importlib.resources.files(__package__).joinpath(ENVELOPE_FILE).read_text(encoding="utf-8"))


def _schema_file(game: str):
    from ladder.games import GAMES, game_files

    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}")
    folder = game_files(game)
    return folder.joinpath(GAME_FILE) if folder is not None else None


@functools.cache
def game_schema(game: str) -> dict[str, Any]:
    """The game's schema.json; KeyError for an unknown game, FileNotFoundError when it has none."""
    path = _schema_file(game)
    if path is None:
        raise FileNotFoundError(f"{game} is one module: it ships no {GAME_FILE}")
    return json.loads(path.read_text(encoding="utf-8"))


def schema_games() -> list[str]:
    """The available games that ship a schema.json (every game should)."""
    from ladder.games import available_games

    return [game for game in available_games() if (path := _schema_file(game)) is not None and path.is_file()]


def kinds(doc: dict[str, Any], prefix: str) -> list[str]:
    """The names after `prefix.` among a schema's $defs, e.g. kinds(doc, "decision")."""
    return [name.split(".", 1)[1] for name in doc["$defs"] if name.startswith(prefix + ".")]
