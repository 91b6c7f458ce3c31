"""What every blueprint shares: the request's database session, settings, the relay, the acting
user, dispatching queued matches, and turning a service refusal into an HTTP answer."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from flask import abort, current_app, flash, g, request
from flask_login import current_user
from sqlmodel import Session
from werkzeug.routing import IntegerConverter

from ladder.config import Settings
from ladder.ranking.ratings import half_width, is_uncertain, to_points
from ladder.relay.backends import Relay, relay_for
from ladder.services.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError

STATUS_OF = {NotFound: 404, Forbidden: 403, Invalid: 400, Conflict: 409}
MAX_ID = 2**31 - 1  # ids are INTEGER columns: PostgreSQL's int4 (SQLite takes up to 2**63 - 1)


NO_ID = -1  # what an out-of-range id in a URL becomes: no row has it, so the view answers 404


class IdConverter(IntegerConverter):
    """`<int:...>` in every route. Werkzeug's own converter takes any number of digits, and a
    database asked for id 2**63 fails (OverflowError on SQLite, "out of range" on PostgreSQL): a
    500 from a URL. Here a number above MAX_ID becomes NO_ID, which the view looks up and does not
    find (404). Refusing it in the converter instead would answer 405 to a POST whose path also
    fits a GET route (Werkzeug checks the method before the converter)."""

    def to_python(self, value: str) -> int:
        if len(value) > len(str(MAX_ID)):  # never int() a 5,000-digit string (that raises ValueError)
            return NO_ID
        number = super().to_python(value)
        return number if number <= MAX_ID else NO_ID


def int_arg(name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query parameter in low..high, `default` when absent; anything else is a 400
    that says which parameter and what it takes (never a silent default, never a 500)."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw) if len(raw) <= 20 else None
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        abort(400, f"{name} must be a whole number in {low}..{high}")
    return value


def text_arg(name: str, choices: Collection[str] | None = None, max_length: int = 200) -> str | None:
    """A text query parameter (None when absent or empty): 400 when it holds NUL or control
    characters (PostgreSQL refuses NUL in text), is too long, or is not one of `choices`."""
    raw = request.args.get(name)
    if not raw:
        return None
    if len(raw) > max_length or any(ord(c) < 32 for c in raw):
        abort(400, f"{name} must be at most {max_length} characters without control characters")
    if choices is not None and raw not in choices:
        abort(400, f"{name} must be one of {', '.join(sorted(choices))}")
    return raw


def state():
    return current_app.extensions["ladder"]


def settings() -> Settings:
    return state().settings


def relay() -> Relay:
    """The app's one relay: Redis with REDIS_URL, else the app's own (migrated) database engine. A
    test may put one in app.config["LADDER_RELAY"] (or in app.extensions["ladder_relay"])."""
    extensions = current_app.extensions
    if "ladder_relay" not in extensions:
        extensions["ladder_relay"] = current_app.config.get("LADDER_RELAY") or relay_for(settings(),
                                                                                         engine=state().engine)
    return extensions["ladder_relay"]


def store():
    """The app's store of blobs (ladder/storage), opened once with the app."""
    return state().store


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
def refusals(*, flash_message: bool = True, forbidden_is_form_error: bool = False) -> Iterator[list[ServiceError]]:
    """Catch a service refusal inside a form view: flash its message and let the view re-render.

    NotFound and Forbidden are not form errors: they abort with 404/403 so that nobody learns
    more about someone else's bot than a missing page tells (`forbidden_is_form_error`: a refusal
    the user should read, such as a sign-up from a banned address, is flashed instead).
    """
    caught: list[ServiceError] = []
    try:
        yield caught
    except Forbidden as exc:
        db().rollback()
        if not forbidden_is_form_error:
            abort(403)
        caught.append(exc)
        if flash_message:
            flash(str(exc), "error")
    except NotFound as exc:
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
    return "—" if milli is None else f"{round(to_points(milli)):d}"


def rating_sure_text(rating) -> str:
    """A rating with how sure it is, as every page shows it: "1523 ±84", "1500? ±600" while its
    interval is wide (ladder.ranking.ratings.is_uncertain). `rating` is anything with `rating` and
    `deviation` (a Rating row, a leaderboard row)."""
    if rating is None:
        return "—"
    mark = "?" if is_uncertain(rating.deviation) else ""
    return f"{rating_text(rating.rating)}{mark} ±{rating_text(half_width(rating.deviation))}"


def delta_text(milli: int | None) -> str:
    """A rating change in points with its sign, one decimal."""
    return "—" if milli is None else f"{to_points(milli):+.1f}"
