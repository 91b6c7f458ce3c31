"""The JSON API under /api/v1 (docs/api.md; its OpenAPI document: openapi.py). Reads are public;
writes need a personal API token in `Authorization: Bearer <token>`. The session cookie never
authorises anything here, which is why both blueprints are exempt from CSRF.

Every route of the API is in the tables below, with the query parameters it takes: any other (a
typo, a filter it does not have) is refused with a 400 naming it, never silently ignored. The
views are plain functions, one module per feature, that know nothing of the blueprint:

- `api` (/api/v1): meta.py (the index, the document), leaderboards.py (with each game's ratings
  accuracy report), leagues.py (leagues and seasons), bots.py, matches.py, scorecards.py,
  bot_data.py, challenges.py, events.py, moderation.py, live.py, remote.py (remote bots'
  challenges and the open ladder's lobby);
- `seats` (/api/v1/seats): a remote seat's lines over a websocket (seat_socket.py) or an HTTP long
  poll (seat_poll.py), with their own checks before the handshake (seat_lines.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, Response, request

from ladder.services.errors import ServiceError
from ladder.web.api import (
    bot_data,
    bots,
    challenges,
    common,
    events,
    leaderboards,
    leagues,
    live,
    matches,
    meta,
    moderation,
    remote,
    scorecards,
    seat_poll,
    seat_socket,
)


@dataclass(frozen=True)
class Route:
    """One route: its methods, its rule (below the blueprint's prefix), its view (whose name is the
    endpoint url_for knows) and the query parameters it takes, by method when they differ."""

    methods: str  # "GET", or "GET POST"
    rule: str
    view: Callable[..., Any]
    query: tuple[str, ...] | Mapping[str, tuple[str, ...]] = field(default=())

    @property
    def endpoint(self) -> str:
        return self.view.__name__

    def takes(self, method: str) -> tuple[str, ...]:
        return self.query.get(method, ()) if isinstance(self.query, Mapping) else self.query


PAGE = ("page", "per_page")

API = (
    Route("GET", "/", meta.index),
    Route("GET", "/openapi.json", meta.openapi),
    Route("GET", "/games", leaderboards.games),
    Route("GET", "/leaderboards/<game>", leaderboards.leaderboard, PAGE),
    Route("GET", "/leaderboards/<game>/open", leaderboards.open_leaderboard, PAGE),
    Route("GET", "/games/<game>/leagues", leagues.leagues),
    Route("GET", "/games/<game>/seasons", leagues.seasons),
    Route("GET", "/seasons/<int:season_id>", leagues.season),
    Route("GET", "/leaderboards/<game>/accuracy", leaderboards.accuracy),
    Route("GET", "/bots/<int:bot_id>", bots.bot),
    Route("GET", "/bots/<int:bot_id>/versions", bots.versions),
    Route("GET", "/versions/<int:version_id>", bots.version),
    Route("GET", "/me", bots.me),
    Route("POST", "/bots", bots.upload),
    Route("POST", "/bots/<int:bot_id>/versions", bots.upload_version),
    Route("GET", "/matches", matches.matches, ("game", "bot", "owner", "status", "since", "until", "before", "limit")),
    Route("GET", "/matches/<int:match_id>", matches.match),
    Route("GET", "/matches/<int:match_id>/replay", matches.replay),
    Route("GET", "/matches/<int:match_id>/seats/<int:seat>/log", matches.seat_log),
    Route("GET", "/bots/<int:bot_id>/scorecard", scorecards.scorecard),
    Route("GET", "/bots/<int:bot_id>/scorecard/versions/<int:number>", scorecards.version_scorecard),
    Route("GET", "/bots/<int:bot_id>/scorecard/opponents/<int:opponent_id>", scorecards.opponent_scorecard),
    Route("GET", "/bots/<int:bot_id>/data", bot_data.bot_data),
    Route("PUT", "/bots/<int:bot_id>/data", bot_data.replace_bot_data),
    Route("DELETE", "/bots/<int:bot_id>/data", bot_data.reset_bot_data),
    Route("POST", "/bots/<int:bot_id>/challenges", challenges.challenge),
    Route("GET", "/events", events.events, ("limit",)),
    Route("GET", "/events/<int:event_id>", events.event),
    Route("GET", "/admin/log", moderation.admin_log, ("limit", "before")),
    Route("GET", "/admin/collusion", moderation.admin_collusion, ("game", "matches", "top")),
    Route("GET", "/live", live.live, ("game",)),
    Route("GET", "/live/<int:match_id>", live.live_match, ("after", "wait")),
    Route("POST", "/remote/challenges", remote.remote_challenge),
    Route("POST", "/bots/<int:bot_id>/open-ladder", remote.open_ladder_by_id),
    Route("POST", "/remote/open-ladder", remote.open_ladder_by_name),
    Route("POST", "/lobby/<int:bot_id>", remote.lobby_wait, ("wait",)),
    Route("DELETE", "/lobby/<int:bot_id>", remote.lobby_leave),
)

SEATS = (
    Route("GET POST", "/<int:match_id>/<int:seat>/lines", seat_poll.lines,
          {"GET": ("after", "conn", "wait"), "POST": ("conn",)}),
)
SEAT_SOCKET = Route("GET", "/<int:match_id>/<int:seat>/ws", seat_socket.connect, ("received",))

bp = Blueprint("api", __name__, url_prefix="/api/v1")
seats_bp = Blueprint("seats", __name__, url_prefix="/api/v1/seats")

for blueprint, routes in ((bp, API), (seats_bp, SEATS)):
    for route in routes:
        blueprint.add_url_rule(route.rule, route.endpoint, route.view, methods=route.methods.split())
seat_socket.sock.route(SEAT_SOCKET.rule, bp=seats_bp)(SEAT_SOCKET.view)  # flask-sock's own wrapper

TAKES = {f"{blueprint.name}.{route.endpoint}": route for blueprint, routes in ((bp, API), (seats_bp, SEATS))
         for route in routes} | {f"seats.{SEAT_SOCKET.endpoint}": SEAT_SOCKET}


def query_parameters(endpoint: str | None, method: str) -> tuple[str, ...]:
    """The query parameters `endpoint` takes with `method`; none for an endpoint of no table."""
    route = TAKES.get(endpoint or "")
    return route.takes(method) if route is not None else ()


@bp.before_request
def _authenticate() -> Response | None:
    return common.authenticate(request.headers.get("Authorization", ""))


@bp.before_request
def _known_parameters() -> Response | None:
    allowed = query_parameters(request.endpoint, request.method)
    for name in request.args:
        if name not in allowed:
            takes = f"it takes {', '.join(allowed)}" if allowed else "it takes none"
            return common.error(400, f"unknown query parameter {name[:40]!r} for {request.path[:80]}: {takes}")
        if len(request.args.getlist(name)) > 1:
            return common.error(400, f"the query parameter {name!r} is given more than once")
    return None


bp.register_error_handler(ServiceError, common.refused)


@seats_bp.before_request
def _before_handshake() -> Response | None:
    return seat_socket.before_handshake(query_parameters(request.endpoint, request.method))


seats_bp.teardown_request(seat_socket.give_back_unused)


def init_app(app: Flask) -> None:
    """The websocket's server options and extension (before the blueprints are registered)."""
    seat_socket.init_app(app)
