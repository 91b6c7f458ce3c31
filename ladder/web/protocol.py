"""The bot protocol's JSON Schemas, published for bot authors (docs/protocol.md links here):
/protocol/schema.json (every message) and /protocol/<game>.schema.json (a game's payloads)."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify

from ladder.protocol_schema import envelope_schema, game_schema, schema_games

bp = Blueprint("protocol", __name__, url_prefix="/protocol")


@bp.get("/schema.json")
def envelope():
    return _schema(envelope_schema())


@bp.get("/<game>.schema.json")
def game(game: str):
    if game not in schema_games():
        abort(404)
    return _schema(game_schema(game))


def _schema(doc: dict):
    response = jsonify(doc)
    response.mimetype = "application/schema+json"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
