"""Request rates (Flask-Limiter) and the 429 answer for every limit.

Counted by Flask-Limiter, in Redis when REDIS_URL is set (every web process and host shares the
counts) and in this process's memory otherwise:
- failed log-ins, per address and per user name: checked BEFORE the view runs, so an attempt past
  the limit costs no argon2 hash; only failures count (a 401), so a user who types the password
  right is never held up by their own successes;
- sign-ups per address (successful ones), failed password changes per user;
- API requests per token and per address.
The limits that must be exact across processes (uploads per day, challenges in flight) are database
counts in ladder/services/limits.py; both kinds end in `too_many` below: 429, `Retry-After`, and a
sentence (an HTML page, or JSON under /api/).
"""

from __future__ import annotations

import hashlib
import math
import time

from flask import Flask, current_app, jsonify, render_template, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_login import current_user

from ladder.config import Settings
from ladder.services.limits import LimitExceeded
from ladder.services.tokens import bearer


def _address() -> str:
    return request.remote_addr or "unknown"


def _account() -> str:
    return "name:" + (request.form.get("username") or "").strip().lower()[:64]


def _signed_in_user() -> str:
    return f"user:{current_user.id}" if current_user.is_authenticated else f"addr:{_address()}"


def _api_token() -> str:
    # the parsed token (padding the header makes no new key), as a digest, so no token is ever a key
    # in Redis; it is not looked up (that is the view's work)
    token = bearer(request.headers.get("Authorization")) or request.headers.get("Authorization", "")
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def _failed(response) -> bool:
    return response.status_code in (400, 401)


def _created(response) -> bool:
    return response.status_code == 302


def init_limits(app: Flask, settings: Settings) -> Limiter:
    """A limiter for this app (tests build many apps; each gets its own counts) and its limits on
    the views of the auth, account and api blueprints, which must be registered already."""
    limiter = Limiter(
        key_func=_address, app=app, storage_uri=settings.ratelimit_storage, strategy="moving-window",
        key_prefix="ladder", headers_enabled=False,
        # Redis down: count in memory for a while rather than refuse every log-in or answer 500
        in_memory_fallback_enabled=True,
    )
    login = [
        limiter.limit(settings.login_failures_per_address, key_func=_address, methods=["POST"],
                      deduct_when=_failed, scope="login-address",
                      error_message="Too many failed log-ins from your address."),
        limiter.limit(settings.login_failures_per_account, key_func=_account, methods=["POST"],
                      deduct_when=_failed, scope="login-account",
                      error_message="Too many failed log-ins for this user name."),
    ]
    _wrap(app, "auth.login", *login)
    _wrap(app, "auth.signup", limiter.limit(
        settings.signup_rate, key_func=_address, methods=["POST"], deduct_when=_created, scope="signup",
        error_message="Too many accounts were created from your address."))
    _wrap(app, "account.change_password", limiter.limit(
        settings.login_failures_per_account, key_func=_signed_in_user, methods=["POST"], deduct_when=_failed,
        scope="password-change", error_message="Too many failed password changes."))
    # the remote seats' endpoints (websocket handshakes, long polls) count with the API: one
    # allowance per token and per address over both, so no client gets more by using the other
    # the API, and the remote seats' endpoints (websocket handshakes, long polls) with limits of
    # the same kind, per token and per address, at their own rate (a seat polled over HTTP makes
    # about two requests a decision)
    kinds = (("api", settings.api_rate, "API requests"), ("seats", settings.seat_rate, "seat requests"))
    for name, rate, what in kinds:
        limiter.shared_limit(rate, key_func=_address, scope=f"{name}-address",
                             error_message=f"Too many {what} from your address.")(app.blueprints[name])
        limiter.shared_limit(rate, key_func=_api_token, scope=f"{name}-token",
                             exempt_when=lambda: "Authorization" not in request.headers,
                             error_message=f"Too many {what} with this token.")(app.blueprints[name])
    app.extensions["ladder_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, too_many)
    app.register_error_handler(LimitExceeded, too_many)
    return limiter


def _wrap(app: Flask, endpoint: str, *limits) -> None:
    view = app.view_functions[endpoint]
    for limit in limits:
        view = limit(view)
    app.view_functions[endpoint] = view


def _retry_after(exc: Exception) -> int:
    if isinstance(exc, LimitExceeded):
        return exc.retry_after
    limiter: Limiter = current_app.extensions["ladder_limiter"]
    current = limiter.current_limit
    return max(1, math.ceil(current.reset_at - time.time())) if current is not None else 60


def too_many(exc: Exception):
    """429 with Retry-After and a sentence saying what was hit and when to try again."""
    wait = _retry_after(exc)
    text = str(exc) if isinstance(exc, LimitExceeded) else exc.description
    if isinstance(exc, RateLimitExceeded):
        text = f"{text} Try again in {_seconds(wait)}."
    if request.path.startswith("/api/"):
        response = jsonify(error=text, status=429, retry_after=wait, retry_ms=wait * 1000)
    else:
        response = current_app.make_response(render_template("error.html", code=429, message=text))
    response.status_code = 429
    response.headers["Retry-After"] = str(wait)
    return response


def _seconds(wait: int) -> str:
    if wait < 120:
        return f"{wait} s"
    return f"{math.ceil(wait / 60)} min" if wait < 7200 else f"{wait // 3600} h"
