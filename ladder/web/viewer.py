"""The replay viewer's data: a match's frames as JSON for ladder/web/static/viewer.js.

GET /matches/<id>/frames.json[?view=public|all|seat&seat=N]. A finished match's replay never
changes, so the answer carries an ETag and may be cached (privately for a seat's view); it is
gzipped when the browser accepts it (a few hundred KB of JSON shrinks about thirtyfold). The
service keeps each document, so a second look costs a database read and a hash.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from ladder.services import viewer as service
from ladder.services.errors import Forbidden, Invalid, NotFound
from ladder.web.common import db, user_id

bp = Blueprint("viewer", __name__, url_prefix="/matches")


def _error(message: str, code: int):
    response = jsonify(error=message, status=code)
    response.status_code = code
    return response


@bp.get("/<int:match_id>/frames.json")
def frames(match_id: int):
    view = request.args.get("view", "public")
    seat_arg = request.args.get("seat")
    seat = None
    if seat_arg is not None:
        if not seat_arg.isdigit() or len(seat_arg) > 3:
            return _error("seat must be a small whole number", 400)
        seat = int(seat_arg)
    try:
        document = service.match_frames(session=db(), match_id=match_id, viewer_id=user_id(), view=view, seat=seat)
    except Invalid as exc:
        return _error(str(exc), 400)
    except (NotFound, Forbidden):  # someone else's seat looks like no seat at all
        return _error("There is nothing here.", 404)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    response = Response(document.gzipped if gzipped else document.json(), mimetype="application/json")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.vary.add("Cookie")
    response.set_etag(document.etag + ("-gz" if gzipped else ""))  # two encodings, two representations
    response.headers["Cache-Control"] = ("private" if view == "seat" else "public") + ", max-age=3600"
    return response.make_conditional(request)


@bp.app_context_processor
def _viewer_globals() -> dict:
    """`has_viewer(game)` for the match page: only games with a frames module get the viewer."""
    return {"has_viewer": lambda game: service.viewer_module(str(game)) is not None}
