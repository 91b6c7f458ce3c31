"""The moderators' pages (admins only; a 404 for everyone else): the audit log and the collusion
report, and the POST actions of the moderator panels on every bot and user page
(templates/admin/_bot_panel.html, _user_panel.html). Thin: each action is one call of
ladder/services/moderation.py or voiding.py, which write the audit log."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import current_user

from ladder.services import audit
from ladder.services.audit import Actor
from ladder.web.common import MAX_ID, db, int_arg

bp = Blueprint("moderation", __name__, url_prefix="/admin")


def is_admin() -> bool:
    return bool(current_user.is_authenticated and current_user.is_admin)


def admin_actor() -> Actor:
    """The acting admin; 404 for anyone else (a moderator page does not exist for them)."""
    if not is_admin():
        abort(404)
    return Actor(current_user.username, current_user.id)


@bp.get("/log")
def log():
    admin_actor()
    before = int_arg("before", None, 1, MAX_ID)
    rows = audit.entries(session=db(), limit=100, before=before)
    return render_template("admin/log.html", rows=rows, older=rows[-1].id if len(rows) == 100 else None)


@bp.app_context_processor
def _moderator_globals() -> dict:
    """`is_moderator` for the bot and user pages: they include the moderator panels for admins."""
    return {"is_moderator": is_admin}
