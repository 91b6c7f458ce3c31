"""The moderators' pages (admins only; a 404 for everyone else): the audit log and the collusion
report, and the POST actions of the moderator panels on every bot and user page
(templates/admin/_bot_panel.html, _user_panel.html). Thin: each action is one call of
ladder/services/moderation.py or voiding.py, which write the audit log."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user

from ladder.services import audit, moderation, voiding
from ladder.services import bots as bot_service
from ladder.services import collusion as collusion_service
from ladder.services.audit import Actor
from ladder.services.errors import Invalid
from ladder.services.users import user_of
from ladder.web.common import MAX_ID, db, int_arg, refusals, text_arg

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


def _reason() -> str:
    return (request.form.get("reason") or "")[:audit.MAX_REASON + 1]


def _until() -> datetime | None:
    raw = (request.form.get("until") or "").strip()
    if not raw:
        return None
    try:
        return datetime.fromisoformat(raw[:32]).replace(tzinfo=UTC)
    except ValueError:
        raise Invalid("the end must be a date and time like 2026-12-31T18:00 (UTC)") from None


def _done(target: str, message: str, refused: list):
    if not refused:
        flash(message, "ok")
    return redirect(target)


def _bot_url(bot_id: int) -> str:
    return url_for("bots.page", bot_id=bot_id)


@bp.post("/bots/<int:bot_id>/state")
def bot_state(bot_id: int):
    actor = admin_actor()
    action = request.form.get("action", "")
    with refusals() as refused:
        moderation.set_bot_state(session=db(), actor=actor, bot_id=bot_id, action=action, reason=_reason())
    return _done(_bot_url(bot_id), f"Bot {bot_id}: {action}d.", refused)


@bp.post("/bots/<int:bot_id>/rename")
def bot_rename(bot_id: int):
    actor = admin_actor()
    with refusals() as refused:
        moderation.rename_bot(session=db(), actor=actor, bot_id=bot_id, name=request.form.get("name", "")[:80],
                              reason=_reason())
    return _done(_bot_url(bot_id), "Renamed.", refused)


@bp.post("/bots/<int:bot_id>/hide-name")
def bot_hide_name(bot_id: int):
    actor = admin_actor()
    with refusals() as refused:
        moderation.hide_bot_name(session=db(), actor=actor, bot_id=bot_id, reason=_reason())
    return _done(_bot_url(bot_id), "The name is hidden everywhere.", refused)


@bp.post("/bots/<int:bot_id>/void")
def bot_void(bot_id: int):
    actor = admin_actor()
    with refusals() as refused:
        done = voiding.void_matches(session=db(), actor=actor, reason=_reason(), bot_id=bot_id)
    return _done(_bot_url(bot_id), "" if refused else f"{len(done.match_ids)} matches voided; ratings rewritten.",
                 refused)


@bp.post("/versions/<int:version_id>/retire")
def version_retire(version_id: int):
    actor = admin_actor()
    version = bot_service.version_of(session=db(), version_id=version_id) or abort(404)
    with refusals() as refused:
        moderation.retire_version(session=db(), actor=actor, version_id=version_id, reason=_reason())
    return _done(_bot_url(version.bot_id), f"Version {version.number} retired.", refused)


def _user_url(user_id: int) -> str:
    user = user_of(session=db(), user_id=user_id) or abort(404)
    return url_for("users.page", username=user.username)


@bp.post("/users/<int:user_id>/suspend")
def user_suspend(user_id: int):
    actor = admin_actor()
    ban = request.form.get("ban") == "y"
    with refusals() as refused:
        moderation.suspend_user(session=db(), actor=actor, user_id=user_id, reason=_reason(), until=_until(),
                                ban=ban)
    return _done(_user_url(user_id), "Banned." if ban else "Suspended.", refused)


@bp.post("/users/<int:user_id>/unsuspend")
def user_unsuspend(user_id: int):
    actor = admin_actor()
    with refusals() as refused:
        moderation.lift_suspension(session=db(), actor=actor, user_id=user_id, reason=_reason())
    return _done(_user_url(user_id), "The suspension is lifted.", refused)


@bp.post("/users/<int:user_id>/rename")
def user_rename(user_id: int):
    actor = admin_actor()
    with refusals() as refused:
        moderation.rename_user(session=db(), actor=actor, user_id=user_id,
                               username=request.form.get("username", "")[:80], reason=_reason())
    return _done(_user_url(user_id), "Renamed.", refused)


@bp.post("/users/<int:user_id>/hide-name")
def user_hide_name(user_id: int):
    actor = admin_actor()
    with refusals() as refused:
        moderation.hide_user_name(session=db(), actor=actor, user_id=user_id, reason=_reason())
    return _done(_user_url(user_id), "The name is hidden everywhere.", refused)


@bp.post("/users/<int:user_id>/void")
def user_void(user_id: int):
    actor = admin_actor()
    with refusals() as refused:
        done = voiding.void_matches(session=db(), actor=actor, reason=_reason(), user_id=user_id)
    return _done(_user_url(user_id), "" if refused else f"{len(done.match_ids)} matches voided; ratings rewritten.",
                 refused)


@bp.post("/matches/<int:match_id>/void")
def match_void(match_id: int):
    actor = admin_actor()
    with refusals() as refused:
        voiding.void_matches(session=db(), actor=actor, reason=_reason(), match_ids=[match_id])
    return _done(url_for("matches.page", match_id=match_id), "Voided; ratings rewritten.", refused)


@bp.post("/matches/<int:match_id>/replay")
def match_replay(match_id: int):
    actor = admin_actor()
    hidden = request.form.get("action") == "hide"
    with refusals() as refused:
        moderation.set_replay_hidden(session=db(), actor=actor, match_id=match_id, hidden=hidden, reason=_reason())
    return _done(url_for("matches.page", match_id=match_id), "Replay hidden." if hidden else "Replay public.",
                 refused)


@bp.get("/collusion")
def collusion():
    admin_actor()
    games = collusion_service.games_with_negotiations()
    game = text_arg("game", games) or games[0]
    report = collusion_service.collusion_report(session=db(), game=game,
                                                matches=int_arg("matches", collusion_service.DEFAULT_MATCHES, 10,
                                                                20_000))
    return render_template("admin/collusion.html", report=report, games=games)


@bp.app_context_processor
def _moderator_globals() -> dict:
    """`is_moderator` for the bot and user pages: they include the moderator panels for admins."""
    return {"is_moderator": is_admin}
