"""Live matches on the site: the match page's live viewer, the lists of matches being played, and
the waiting places the API's /api/v1/live shares. The web tier only reads the relay
(ladder/services/live.py); workers play.

- GET /matches/<id>/live.json?cursor=&attempt=&have=&wait=1: the viewer's long poll (viewer.js):
  the frames it lacks, waiting up to live_wait_seconds for news when it has everything (`attempt`
  is the id of the start message its frames come from: another one, and they start over);
- GET /api/v1/live[?game=] and /api/v1/live/<id>?after=&wait=: the API's two views of them
  (ladder/web/api/live.py), whose long poll waits in the same places as the viewer's (docs/api.md).

A waiting poll takes a place in the process's one budget of long-lived requests
(ladder/web/held.py): past it a poll is answered at once, 429 with `retry_ms`, and the viewer asks
again then; an address holding live_waiting_per_address waiting polls gets 429 for another.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request

from ladder.services import live as service
from ladder.services.errors import NotFound
from ladder.web.common import db, int_arg, relay, settings
from ladder.web.held import budget, refusal

bp = Blueprint("live", __name__)

RETRY_MS = 2000  # an address over its share: when to ask again
CURSOR = re.compile(r"^[0-9-]{1,40}$")  # what relay ids look like (a sequence number, or Redis's ms-seq)


# --- the feeds and the caps, one per app ---------------------------------------------------------

def feeds() -> service.Feeds:
    if "ladder_live_feeds" not in current_app.extensions:
        current_app.extensions["ladder_live_feeds"] = service.Feeds(relay())
    return current_app.extensions["ladder_live_feeds"]


class Waiting:
    """How many live polls wait right now in this process, in all and per address."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self.by_address: Counter[str] = Counter()

    @contextmanager
    def slot(self, address: str) -> Iterator[bool]:
        """A place for this poll to wait (yields True), in the process's budget and within the
        address's share; past either, the poll is refused at once with 429 and `retry_ms`."""
        config = settings()
        with self._lock:
            if self.by_address[address] >= config.live_waiting_per_address:
                text = (f"This address already has {config.live_waiting_per_address} live views waiting; "
                        f"close one, or try again in {RETRY_MS // 1000} s.")
                response = no_store_json({"error": text, "status": 429, "retry_after": RETRY_MS // 1000}, 429)
                response.headers["Retry-After"] = str(RETRY_MS // 1000)
                abort(response)
            if not budget().try_take():
                abort(refusal("ask"))
            self.total += 1
            self.by_address[address] += 1
        try:
            yield True
        finally:
            budget().give_back()
            with self._lock:
                self.total -= 1
                self.by_address[address] -= 1
                if self.by_address[address] <= 0:
                    del self.by_address[address]


@bp.record_once
def _count_waiting(state) -> None:
    state.app.extensions["ladder_live_waiting"] = Waiting()


def waiting() -> Waiting:
    return current_app.extensions["ladder_live_waiting"]


def client_address() -> str:
    return request.remote_addr or "?"


# --- the match page's viewer ---------------------------------------------------------------------

def cursor_arg(name: str) -> str | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    if not CURSOR.match(raw):
        abort(400, f"{name} must be a relay id (digits and '-', up to 40)")
    return raw


def no_store_json(payload: dict[str, Any], status: int = 200) -> Response:
    response = jsonify(payload)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"  # the live end moves
    return response


@bp.get("/matches/<int:match_id>/live.json")
def frames(match_id: int):
    cursor = cursor_arg("cursor")
    attempt = cursor_arg("attempt") or ""
    have = int_arg("have", 0, 0, 10**7)
    wants_wait = int_arg("wait", 0, 0, 1) == 1
    with waiting().slot(client_address()) if wants_wait else no_wait() as may_wait:
        try:
            answer = service.live_frames(session=db(), feeds=feeds(), match_id=match_id, cursor=cursor,
                                         attempt=attempt, have=have,
                                         wait=settings().live_wait_seconds if may_wait else 0.0)
        except NotFound:
            return no_store_json({"error": "There is nothing here.", "status": 404}, 404)
    return no_store_json(answer.to_json())


@contextmanager
def no_wait() -> Iterator[bool]:
    yield False


@bp.app_context_processor
def _live_globals() -> dict:
    """`live_now(game=None)`: the matches being played, for the home page and each game's page."""
    return {"live_now": lambda game=None: service.live_matches(session=db(), game=game, limit=10)}
