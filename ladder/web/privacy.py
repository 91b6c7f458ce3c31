"""`Cache-Control: private, no-store` on every answer that may hold what only its reader may see.

Whatever is served to a signed-in user (a session cookie) or to an API token may carry its owner's
own things: a seat's log, a bot page's owner-only parts, a match page with the owner's stderr, a
person's table, the account page, a bot's data. No cache between (a proxy, a CDN) and no later
user of the same browser may keep it, so such an answer is marked private and not stored, unless
its view chose a Cache-Control of its own (a replay seat view, public assets). Answers to nobody
in particular (anonymous pages) are left as their views made them.
"""

from __future__ import annotations

from flask import Flask, g
from flask_login import current_user

PRIVATE = "private, no-store"


def _owner_only(response):
    if "Cache-Control" in response.headers:
        return response
    if g.get("api_user") is not None or current_user.is_authenticated:
        response.headers["Cache-Control"] = PRIVATE
        response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    app.after_request(_owner_only)
