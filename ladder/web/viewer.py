"""The replay viewer's data: a match's frames as JSON for ladder/web/static/viewer.js.

GET /matches/<id>/frames.json[?view=public|all|seat&seat=N]. A finished match's replay never
changes, so the answer carries an ETag and may be cached (privately for a seat's view); it is
gzipped when the browser accepts it (a few hundred KB of JSON shrinks about twentyfold).
"""

from __future__ import annotations

import gzip
import hashlib
import json

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
        payload = service.match_frames(session=db(), match_id=match_id, viewer_id=user_id(), view=view, seat=seat)
    except Invalid as exc:
        return _error(str(exc), 400)
    except (NotFound, Forbidden):  # someone else's seat looks like no seat at all
        return _error("There is nothing here.", 404)
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    response = Response(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    response.headers["Cache-Control"] = ("private" if view == "seat" else "public") + ", max-age=3600"
    response.vary.add("Cookie")
    response = response.make_conditional(request)
    if response.status_code == 200 and "gzip" in request.headers.get("Accept-Encoding", ""):
        response.set_data(gzip.compress(body, compresslevel=6))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
    return response


@bp.app_context_processor
def _viewer_globals() -> dict:
    """`has_viewer(game)` for the match page: only games with a frames module get the viewer."""
    return {"has_viewer": lambda game: service.viewer_module(str(game)) is not None}
