"""Live matches in the JSON API (docs/api.md): GET /api/v1/live[?game=], the matches being
played; GET /api/v1/live/<id>?after=&wait=, a match's raw public messages (workers/queue/live.py
lists them), a long poll that waits in the same budget as the match page's viewer (ladder/web/live.py)."""

from __future__ import annotations

from flask import request, url_for

from ladder.services import live as service
from ladder.services.errors import Invalid, NotFound
from ladder.web.catalog import game_titles
from ladder.web.common import db, int_arg, relay, settings
from ladder.web.live import client_address, cursor_arg, no_store_json, no_wait, waiting


def live():
    """The matches being played now, newest first, with where to follow each."""
    game = request.args.get("game") or None
    if game is not None and game not in game_titles():
        return no_store_json({"error": f"no game {game[:40]!r}; see /api/v1/games", "status": 404}, 404)
    playing = service.live_matches(session=db(), game=game, limit=100)
    return no_store_json({"matches": [{**service.live_match_json(m),
                                       "page": url_for("matches.page", match_id=m.match.id, _external=True),
                                       "feed": url_for("api.live_match", match_id=m.match.id, _external=True)}
                                      for m in playing]})


def live_match(match_id: int):
    """A match's public messages after `after` (a long poll with wait=N seconds)."""
    after = cursor_arg("after") or "0"
    wait = min(int_arg("wait", 0, 0, 60), settings().live_wait_seconds)  # the site's cap, whatever is asked
    with waiting().slot(client_address()) if wait else no_wait() as may_wait:
        try:
            payload = service.live_messages(session=db(), relay=relay(), match_id=match_id, after=after,
                                            wait=float(wait) if may_wait else 0.0)
        except Invalid as exc:
            return no_store_json({"error": str(exc), "status": 400}, 400)
        except NotFound:
            return no_store_json({"error": "There is nothing here.", "status": 404}, 404)
    return no_store_json(payload)
