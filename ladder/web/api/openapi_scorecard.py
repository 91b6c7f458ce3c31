"""The scorecard's paths of the OpenAPI document (ladder/web/api/openapi.py; the routes are
ladder/web/api/scorecards.py), kept beside it so that module stays a reading of the contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

NULLABLE_STR = {"anyOf": [{"type": "string"}, {"type": "null"}]}
Helper = Callable[..., dict[str, Any]]


def _obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


def scorecard_paths(bot_id: dict[str, Any], _get: Helper, _id: Helper) -> dict[str, Any]:
    """A bot's scorecard (ladder/web/api/scorecards.py; docs/scorecard.md): public, as its page.
    `_get` and `_id` are openapi.py's helpers of the same names."""
    figures = {"type": "object", "description": "measure name -> its figures (docs/scorecard.md)"}
    versions = _obj(bot_id={"type": "integer"}, game={"type": "string"}, version={"type": "integer"},
                    matches={"type": "integer"}, measures=figures)
    return {
        "/api/v1/bots/{bot_id}/scorecard": _get(_obj(
            bot_id={"type": "integer"}, game={"type": "string"}, matches={"type": "integer"},
            latest_version={"anyOf": [{"type": "object"}, {"type": "null"}]},
            matches_by_players={"type": "object"}, measures=figures,
            definitions={"type": "object", "description": "measure name -> label, definition, kind, unit, doc"},
            opponents={"type": "array", "items": {"type": "object"}}),
            "a bot's scorecard: every measure over all its matches, its latest version, per table size and the "
            "winners at its tables, and its most met opponents with the margin", bot_id, errors=(404,)),
        "/api/v1/bots/{bot_id}/scorecard/versions/{number}": _get(
            versions, "one version's scorecard", bot_id, _id("number", "the version's number"), errors=(404,)),
        "/api/v1/bots/{bot_id}/scorecard/opponents/{opponent_id}": _get(_obj(
            bot_id={"type": "integer"}, opponent_id={"type": "integer"}, game={"type": "string"},
            matches={"type": "integer"}, opponent_name=NULLABLE_STR, measures=figures),
            "every measure against one opponent: the bot's, the opponent's in the same matches, the margin", bot_id,
            _id("opponent_id", "the opponent's bot id"), errors=(404,)),
    }


