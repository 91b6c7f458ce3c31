"""The JSON API under /api/v1 (docs/api.md): reads are public; uploads need a personal API token in
`Authorization: Bearer <token>`. The session cookie never authorises a write here, which is why
this blueprint can be exempt from CSRF."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, current_app, g, jsonify, request, url_for

from ladder.models import BotPublic, BotVersionPublic, Match, MatchPublic, MatchStatus, SeatPublic, UserPublic
from ladder.ranking.ratings import to_points
from ladder.replay import dumps_replay
from ladder.services import bots as bot_service
from ladder.services import pages
from ladder.services.builds import build_logs
from ladder.services.errors import Forbidden, NotFound, ServiceError
from ladder.services.event_hold import held_ids
from ladder.services.limits import check_upload
from ladder.services.match_lists import MatchFilter, list_matches
from ladder.services.rejections import rejection_causes
from ladder.services.tokens import authenticate as authenticate_token
from ladder.services.tokens import bearer
from ladder.services.uploads import upload_bot
from ladder.services.users import get_user_by_name
from ladder.web.common import MAX_ID, db, dispatch, int_arg, settings, status_for, text_arg, user_id
from ladder.web.matches import load_replay_for
from ladder.web.queries import game_titles, user_bots, version_of

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _dump(model: type, row: Any) -> dict[str, Any]:
    return model.model_validate(row, from_attributes=True).model_dump(mode="json")


@bp.before_request
def _authenticate() -> Response | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    token = bearer(header)
    found = authenticate_token(session=db(), token=token) if token is not None else None
    if found is None:
        return _error(401, "the API token is missing, malformed or revoked")
    g.api_user, g.api_token = found.user, found.token
    return None


# The query parameters each endpoint takes; any other (a typo, a filter it does not have) is a 400
# naming it, never silently ignored. An endpoint not listed takes none.
QUERY_PARAMETERS = {
    "api.leaderboard": ("page", "per_page"),
    "api.matches": ("game", "bot", "owner", "status", "since", "until", "before", "limit"),
    "api.events": ("limit",),
    "api.admin_log": ("limit", "before"),
    "api.admin_collusion": ("game", "matches", "top"),
}


@bp.before_request
def _known_parameters() -> Response | None:
    allowed = QUERY_PARAMETERS.get(request.endpoint or "", ())
    for name in request.args:
        if name not in allowed:
            takes = f"it takes {', '.join(allowed)}" if allowed else "it takes none"
            return _error(400, f"unknown query parameter {name[:40]!r} for {request.path[:80]}: {takes}")
        if len(request.args.getlist(name)) > 1:
            return _error(400, f"the query parameter {name!r} is given more than once")
    return None


def _error(status: int, message: str) -> Response:
    response = jsonify(error=message, status=status)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="ladder"'
    return response


@bp.errorhandler(ServiceError)
def _refused(exc: ServiceError):
    db().rollback()
    return _error(status_for(exc), str(exc))


def _token_user(scope: str = "read"):
    user = g.get("api_user")
    if user is None:
        abort(_error(401, "this endpoint needs a personal API token: Authorization: Bearer <token>"))
    if scope not in g.api_token.scope_set:
        abort(_error(403, f"this token lacks the {scope!r} scope; create one with it on your account page"))
    return user


def _reader_id() -> int | None:
    """Whose private data an answer may carry (their bots' logs, in a replay or a rejection's
    cause): the token's user only when the token has the read scope. An upload-only token reads
    what the public reads, as docs/api.md promises."""
    token = g.get("api_token")
    return user_id() if token is None or "read" in token.scope_set else None


def _match(match: Match, held: bool = False) -> dict[str, Any]:
    """A match as the public sees it: the seed only once finished (and not held: an order of a
    duplicate deal still being played), a failure in public words."""
    return {**_dump(MatchPublic, match), "seed": pages.public_seed(match, held),
            "failure_reason": pages.public_failure_reason(match.failure_reason)}


def _versions(versions: list, owner_id: int) -> list[dict[str, Any]]:
    """Versions as JSON. Why one was rejected is its owner's (as on the bot's web page): others get
    `rejection_reason` null; with the owner's token, a rejected one also carries `cause`, the end of
    its validation game's stderr (the bot's log is its owner's, so nobody else gets it), and a built
    one `build`, the compiler's output."""
    viewer = g.get("api_user")
    mine = viewer is not None and viewer.id == owner_id
    causes = rejection_causes(session=db(), versions=versions, owner_id=owner_id,
                              viewer_id=_reader_id() if viewer is not None else None)
    built = build_logs(session=db(), versions=versions) if mine and _reader_id() is not None else {}
    return [{**_dump(BotVersionPublic, v), **({} if mine else {"rejection_reason": None}),
             **({"cause": causes[v.id]} if v.id in causes else {}),
             **({"build": asdict(built[v.id])} if v.id in built else {})} for v in versions]


@bp.get("/")
def index():
    return jsonify(version=1, docs=url_for("guide.doc_api_guide", _external=True), endpoints=sorted(
        f"{','.join(sorted(r.methods - {'HEAD', 'OPTIONS'}))} {r.rule}"
        for r in current_app.url_map.iter_rules() if r.endpoint.startswith("api.")))


@bp.get("/openapi.json")
def openapi():
    """This API as an OpenAPI 3.1 document (ladder/web/openapi.py)."""
    from ladder.web.openapi import document

    return jsonify(document())


@bp.get("/games")
def games():
    return jsonify(games=[{"name": n, "title": t, "leaderboard": url_for(".leaderboard", game=n, _external=True)}
                          for n, t in game_titles().items()])


@bp.get("/leaderboards/<game>")
def leaderboard(game: str):
    if game not in game_titles():
        raise NotFound(f"unknown game {game!r}")
    board = pages.leaderboard(session=db(), game=game, page=int_arg("page", 1, 1, 10**6),
                              per_page=int_arg("per_page", 50, 1, pages.MAX_PER_PAGE))
    return leaderboard_json(game, board)


def leaderboard_json(game: str, board: pages.LeaderboardPage) -> Response:
    """A leaderboard's page as JSON (the sandboxed ladder's, or the open one's: ladder/web/seats.py)."""
    rows = [{
        "rank": r.rank, "bot_id": r.bot_id, "bot": r.bot_name, "owner": r.owner_name, "starter": r.house,
        "rating": to_points(r.rating), "games": r.games, "wins": r.wins, "win_rate": r.win_rate,
        "provisional": r.provisional, "last_played_at": r.last_played_at.isoformat() if r.last_played_at else None,
        "boss": r.boss,
    } for r in board.rows]
    b = board.boss
    boss = None if b is None else {"bot_id": b.bot_id, "bot": b.name, "rank": b.rank,
                                   "rating": None if b.rating is None else to_points(b.rating)}
    return jsonify(game=game, page=board.page, per_page=board.per_page, total=board.total, pages=board.pages,
                   rows=rows, boss=boss)


@bp.get("/bots/<int:bot_id>")
def bot(bot_id: int):
    data = pages.bot_page(session=db(), bot_id=bot_id, history=50, recent=20)
    rating = data.rating
    return jsonify(
        bot=_dump(BotPublic, data.bot), owner=data.owner.username,
        rating=None if rating is None else {"rating": to_points(rating.rating), "games": rating.games,
                                            "wins": rating.wins},
        versions=_versions(data.versions, data.bot.owner_id),
        history=[{"match_id": p.match_id, "before": to_points(p.before), "after": to_points(p.after),
                  "at": p.at.isoformat()} for p in data.history],
        recent_matches=[{"match_id": r.match.id, "kind": r.match.kind, "status": r.match.status,
                         "rank": r.seat.rank, "score": r.seat.score, "seats": r.seats} for r in data.recent],
        head_to_head=[{"opponent_id": h.opponent_id, "opponent": h.opponent_name, "meetings": h.meetings,
                       "wins": h.wins, "losses": h.losses, "ties": h.ties} for h in data.head_to_head],
        boss=None if data.boss is None else {
            "bot_id": data.boss.boss_id, "bot": data.boss.boss_name, "meetings": data.boss.meetings,
            "above": data.boss.above, "below": data.boss.below, "ties": data.boss.ties, "beaten": data.boss.beaten},
    )


@bp.get("/bots/<int:bot_id>/versions")
def versions(bot_id: int):
    bot = bot_service.get_bot(session=db(), bot_id=bot_id)
    return jsonify(versions=_versions(bot_service.list_versions(session=db(), bot_id=bot_id), bot.owner_id))


@bp.get("/versions/<int:version_id>")
def version(version_id: int):
    row = version_of(session=db(), version_id=version_id)
    if row is None:
        raise NotFound(f"no bot version {version_id}")
    return jsonify(version=_versions([row], bot_service.get_bot(session=db(), bot_id=row.bot_id).owner_id)[0])


def _time_arg(name: str) -> datetime | None:
    raw = text_arg(name, max_length=40)
    if raw is None:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        abort(400, f"{name} must be an ISO 8601 time, e.g. 2026-11-25T18:00:00Z or 2026-11-25")
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _owner_arg() -> int | None:
    owner = text_arg("owner", max_length=64)
    if owner is None:
        return None
    if owner == "me":
        return _token_user().id
    user = get_user_by_name(session=db(), username=owner)
    if user is None:
        abort(400, f"owner must be 'me' (with a token) or a user's name; there is no user {owner!r}")
    return user.id


@bp.get("/matches")
def matches():
    """The newest matches, filtered (bot, owner, game, status, time) and paged by id."""
    limit = int_arg("limit", 50, 1, 200)
    where = MatchFilter(game=text_arg("game", game_titles()), bot_id=int_arg("bot", None, 1, MAX_ID),
                        owner_id=_owner_arg(), status=text_arg("status", [s.value for s in MatchStatus]),
                        since=_time_arg("since"), until=_time_arg("until"), before=int_arg("before", None, 1, MAX_ID))
    rows = list_matches(session=db(), where=where, limit=limit)
    following = None
    if len(rows) == limit:  # maybe more: the same query from below the last id
        following = url_for(".matches", **{**request.args.to_dict(), "before": rows[-1].id}, _external=True)
    held = held_ids(db(), [m.id for m in rows])
    return jsonify(matches=[_match(m, m.id in held) for m in rows], next=following)


@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    view = pages.match_detail(session=db(), match_id=match_id)
    seats = [{**_dump(SeatPublic, s.seat), "bot": s.bot_name, "owner": s.owner_name, "version": s.version_number,
              "rating_delta": None if s.rating_delta is None else to_points(s.rating_delta), "person": s.person}
             for s in view.seats]
    replay = url_for(".replay", match_id=match_id, _external=True) if view.has_replay else None
    return jsonify(match=_match(view.match, view.held), seats=seats, replay=replay)


@bp.get("/matches/<int:match_id>/replay")
def replay(match_id: int):
    view = pages.match_detail(session=db(), match_id=match_id)
    viewer = _reader_id()
    data = load_replay_for(match_id, {s.seat.seat for s in view.seats if viewer is not None and s.owner_id == viewer})
    if data is None:
        raise NotFound(f"match {match_id} has no replay")
    return Response(dumps_replay(data), mimetype="application/json")


@bp.get("/matches/<int:match_id>/seats/<int:seat>/log")
def seat_log(match_id: int, seat: int):
    try:
        log = pages.bot_log(session=db(), match_id=match_id, seat=seat, viewer_id=_token_user().id)
    except Forbidden:
        raise NotFound(f"no log of seat {seat} of match {match_id} for you") from None
    return jsonify(match_id=match_id, seat=seat, text=log.text if log else "", truncated=bool(log and log.truncated))


@bp.get("/me")
def me():
    user = _token_user()
    return jsonify(user=_dump(UserPublic, user), bots=[
        {**_dump(BotPublic, b.bot), "rating": to_points(b.rating.rating) if b.rating else None,
         "active_version": b.active.number if b.active else None} for b in user_bots(session=db(), user_id=user.id)])


def _upload(bot_id: int | None):
    user = _token_user("upload")
    check_upload(session=db(), settings=settings(), user_id=user.id)
    file = request.files.get("file")
    if file is None:
        return _error(400, "send the bot as a multipart form field named 'file'")
    name, game = request.form.get("name", "").strip(), request.form.get("game", "").strip()
    if bot_id is not None:
        existing = bot_service.get_bot(session=db(), bot_id=bot_id)
        name, game = existing.name, game or existing.game
    if not name or not game:
        return _error(400, "the form needs 'name' and 'game' fields")
    result = upload_bot(session=db(), settings=settings(), owner_id=user.id, name=name, game=game,
                        code=file.stream.read(settings().max_upload_bytes + 1), filename=file.filename,
                        description=request.form.get("description", ""), bot_id=bot_id)
    if result.match is not None:
        dispatch([result.match.id])
    status = 200 if not result.created else 422 if result.version.status == "rejected" else 201
    return jsonify(
        bot=_dump(BotPublic, result.bot), version=_dump(BotVersionPublic, result.version),
        validation_match=result.match.id if result.match else None, note=result.note,
        url=url_for("bots.page", bot_id=result.bot.id, _external=True),
    ), status


@bp.post("/bots")
def upload():
    """Upload a bot (a new bot, or a new version of your bot with that name and game)."""
    return _upload(None)


@bp.post("/bots/<int:bot_id>/versions")
def upload_version(bot_id: int):
    return _upload(bot_id)


from ladder.web import api_bot_data, api_challenges, api_events, api_moderation  # noqa: E402,F401  (their routes join this blueprint)
