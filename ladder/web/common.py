"""What every blueprint shares: the request's database session, settings, the acting user,
dispatching queued matches, and turning a service refusal into an HTTP answer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from flask import abort, current_app, flash, g
from flask_login import current_user
from sqlmodel import Session

from ladder.config import Settings
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError

STATUS_OF = {NotFound: 404, Forbidden: 403, Invalid: 400, Conflict: 409}


def state():
    return current_app.extensions["ladder"]


def settings() -> Settings:
    return state().settings


def db() -> Session:
    """The request's session: opened on first use, closed at teardown (see web.init_app). Its reads
    start deferred transactions (ladder/db.py), so a page never waits for a worker's write lock."""
    if "db" not in g:
        g.db = state().sessions()
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    session = g.pop("db", None)
    if session is not None:
        session.close()


def user_id() -> int | None:
    """The logged-in user's id, or None for a visitor (API views set g.api_user instead)."""
    api_user = g.get("api_user")
    if api_user is not None:
        return api_user.id
    return current_user.id if current_user.is_authenticated else None


def dispatch(match_ids: list[int]) -> None:
    """Hand freshly committed matches to the workers when a dispatcher is plugged in."""
    hook = state().dispatch
    if hook is not None and match_ids:
        try:
            hook(list(match_ids))
        except Exception:  # the broker being down must not lose the upload: the scheduler finds them
            current_app.logger.exception("dispatching matches %s failed; they stay queued", match_ids)


def status_for(exc: ServiceError) -> int:
    for kind, status in STATUS_OF.items():
        if isinstance(exc, kind):
            return status
    return 400


@contextmanager
def refusals(*, flash_message: bool = True) -> Iterator[list[ServiceError]]:
    """Catch a service refusal inside a form view: flash its message and let the view re-render.

    NotFound and Forbidden are not form errors: they abort with 404/403 so that nobody learns
    more about someone else's bot than a missing page tells.
    """
    caught: list[ServiceError] = []
    try:
        yield caught
    except (NotFound, Forbidden) as exc:
        db().rollback()
        abort(status_for(exc))
    except ServiceError as exc:
        db().rollback()
        caught.append(exc)
        if flash_message:
            flash(str(exc), "error")


def require_owner(owner_id: int) -> None:
    """404 for visitors and for other users: a bot's private parts do not exist for them."""
    if user_id() != owner_id:
        abort(404)


def ago(when: datetime | None, now: datetime | None = None) -> str:
    """'3 min ago' style text for tables; full timestamps go in the title attribute."""
    if when is None:
        return "never"
    now = now or datetime.now(UTC)
    seconds = int((now - when).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return "just now" if seconds < 10 else f"{seconds} s ago"


def rating_text(milli: int | None) -> str:
    """Ratings are stored in milli-points; pages show whole points."""
    return "—" if milli is None else f"{round(milli / 1000):d}"
