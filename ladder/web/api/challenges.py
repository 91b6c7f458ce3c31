"""Challenges in the JSON API: `POST /api/v1/bots/<id>/challenges` queues an unranked match of the
token owner's sandboxed bot against the bots it names, through the bot page's own use case and
limits (ladder/services/challenges.py); described in ladder/web/api/openapi.py, docs/api.md "Challenges"."""

from __future__ import annotations

from flask import jsonify, request, url_for

from ladder.services import challenges
from ladder.services.errors import Invalid
from ladder.web.api.common import match_json, token_user
from ladder.web.common import MAX_ID, db, dispatch, settings

MAX_OPPONENTS = 12  # more than any game seats: the game's own table size says the rest


def _body() -> tuple[list[int], int | None]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or set(body) - {"opponents", "seed"}:
        raise Invalid('send a JSON object: {"opponents": [bot ids], "seed": optional whole number}')
    opponents, seed = body.get("opponents"), body.get("seed")
    if not isinstance(opponents, list) or not 0 < len(opponents) <= MAX_OPPONENTS \
            or not all(type(o) is int and 0 < o <= MAX_ID for o in opponents):
        raise Invalid(f'"opponents" is a list of 1 to {MAX_OPPONENTS} bot ids (each plays its active version)')
    if len(set(opponents)) != len(opponents):
        raise Invalid('"opponents" names a bot twice')
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise Invalid('"seed" is a whole number from 0 to 2^63 - 1')
    return opponents, seed


def challenge(bot_id: int):
    """Queue a challenge of the token owner's bot (404 for anyone else's)."""
    user = token_user("play")
    opponents, seed = _body()
    versions = challenges.opponent_versions(session=db(), bot_ids=opponents)
    match = challenges.challenge(session=db(), settings=settings(), user_id=user.id, bot_id=bot_id,
                                 opponents=versions, seed=seed)
    dispatch([match.id])
    response = jsonify(match=match_json(match), url=url_for("api.match", match_id=match.id, _external=True))
    response.status_code = 201
    return response
