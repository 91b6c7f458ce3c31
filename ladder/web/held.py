"""One budget for the requests that stay open (docs/operations.md, "Long-lived requests").

A seat's long poll and websocket, a lobby wait, a live view's poll and a person's table each hold
their request open for seconds to a whole match. Each takes a place in this process's one budget
before it waits; past the budget it is answered at once: 429 with `retry_ms` (and Retry-After),
and its client asks again then (docs/remote.md says how a program backs off). One budget over all
of them, so no mix of kinds adds up to more than the process can hold; under the threaded server
it stays below the thread count, so pages always keep threads of their own. `ladder web` serves
with gevent (ladder/cli/serve.py), where a held request costs a greenlet, not a thread, and the
budget is a bound on memory and sockets rather than on threads.

The size is the setting `long_lived_per_process` when that is not 0, else the server's that runs the
app (`LADDER_LONG_LIVED` in the app's config, set by `ladder web`), else UNSAID_DEFAULT.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, Response, abort, current_app, jsonify

RETRY_MS = 2000  # past the budget: when to ask again
# a server whose size nobody said: the development server (and the tests' servers), werkzeug's,
# which starts a thread per connection and has no pool to keep free; `ladder web` always says
UNSAID_DEFAULT = 32


class Budget:
    """How many long-lived requests this process holds now, out of `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self._lock = threading.Lock()

    def try_take(self) -> bool:
        with self._lock:
            if self.held >= self.limit:
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.held = max(0, self.held - 1)


def init_app(app: Flask, setting: int) -> None:
    limit = setting or app.config.get("LADDER_LONG_LIVED") or UNSAID_DEFAULT
    app.extensions["ladder_long_lived"] = Budget(int(limit))


def budget() -> Budget:
    return current_app.extensions["ladder_long_lived"]


def refusal(what: str, **extra: object) -> Response:
    """The answer past the budget: 429, `retry_ms` and Retry-After (and `extra` fields)."""
    response = jsonify(error=f"this server holds as many waiting requests as it may; {what} again in "
                             f"{RETRY_MS // 1000} s", status=429, retry_ms=RETRY_MS,
                       retry_after=RETRY_MS // 1000, **extra)
    response.status_code = 429
    response.headers["Retry-After"] = str(RETRY_MS // 1000)
    response.headers["Cache-Control"] = "no-store"
    return response


@contextmanager
def held(what: str) -> Iterator[None]:
    """A place in the budget for the request's whole wait; past the budget, abort with the 429."""
    places = budget()
    if not places.try_take():
        abort(refusal(what))
    try:
        yield
    finally:
        places.give_back()


def take_or_refuse(what: str, **extra: object) -> Response | None:
    """None when a place is taken (its taker gives it back: a websocket when its connection ends),
    else the 429 to answer."""
    return None if budget().try_take() else refusal(what, **extra)
