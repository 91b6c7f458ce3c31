"""What the API's views share: the token on the request (its user, its scopes), the JSON error
answer, and the shapes more than one view answers with (a match, a leaderboard's page)."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, g, jsonify

from ladder.models import Match, MatchPublic
from ladder.ranking.ratings import half_width, is_uncertain, to_points
from ladder.services import pages
from ladder.services.errors import ServiceError
from ladder.services.tokens import authenticate as authenticate_token
from ladder.services.tokens import bearer
from ladder.web.common import db, status_for, user_id


def dump(model: type, row: Any) -> dict[str, Any]:
    return model.model_validate(row, from_attributes=True).model_dump(mode="json")


def error(status: int, message: str) -> Response:
    response = jsonify(error=message, status=status)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="ladder"'
    return response


def authenticate(header: str) -> Response | None:
    """The request's token, if it sends one (g.api_user, g.api_token); a 401 for a bad one."""
    if not header:
        return None
    token = bearer(header)
    found = authenticate_token(session=db(), token=token) if token is not None else None
    if found is None:
        return error(401, "the API token is missing, malformed or revoked")
    g.api_user, g.api_token = found.user, found.token
    return None


def refused(exc: ServiceError) -> Response:
    db().rollback()
    return error(status_for(exc), str(exc))


def token_user(scope: str = "read"):
    user = g.get("api_user")
    if user is None:
        abort(error(401, "this endpoint needs a personal API token: Authorization: Bearer <token>"))
    if scope not in g.api_token.scope_set:
        abort(error(403, f"this token lacks the {scope!r} scope; create one with it on your account page"))
    return user


def reader_id() -> int | None:
    """Whose private data an answer may carry (their bots' logs, in a replay or a rejection's
    cause): the token's user only when the token has the read scope. An upload-only token reads
    what the public reads, as docs/api.md promises."""
    token = g.get("api_token")
    return user_id() if token is None or "read" in token.scope_set else None


def match_json(match: Match, held: bool = False) -> dict[str, Any]:
    """A match as the public sees it: the seed only once finished (and not held: an order of a
    duplicate deal still being played), a failure in public words."""
    return {**dump(MatchPublic, match), "seed": pages.public_seed(match, held),
            "failure_reason": pages.public_failure_reason(match.failure_reason)}


def sureness(deviation: int) -> dict[str, Any]:
    """How sure a rating is, in the API's words (docs/ratings.md, "How sure a rating is"): the
    deviation, the +- of its 95% interval, and whether the site shows it with "?"."""
    return {"deviation": to_points(deviation), "plus_minus": to_points(half_width(deviation)),
            "uncertain": is_uncertain(deviation)}


def leaderboard_json(game: str, board: pages.LeaderboardPage) -> Response:
    """A leaderboard's page as JSON (the sandboxed ladder's, or the open one's)."""
    rows = [{
        "rank": r.rank, "bot_id": r.bot_id, "bot": r.bot_name, "owner": r.owner_name, "starter": r.house,
        "rating": to_points(r.rating), "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
        "provisional": r.provisional, "last_played_at": r.last_played_at.isoformat() if r.last_played_at else None,
        "boss": r.boss, **sureness(r.deviation),
    } for r in board.rows]
    b = board.boss
    boss = None if b is None else {"bot_id": b.bot_id, "bot": b.name, "rank": b.rank,
                                   "rating": None if b.rating is None else to_points(b.rating)}
    return jsonify(game=game, page=board.page, per_page=board.per_page, total=board.total, pages=board.pages,
                   rows=rows, boss=boss)
