"""User pages and personal API token management."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ladder.services import users as user_service
from ladder.web.common import db, refusals
from ladder.web.forms import ActionForm
from ladder.web.queries import user_bots, user_by_name

bp = Blueprint("users", __name__, url_prefix="/users")


@bp.get("/me")
@login_required
def me():
    return redirect(url_for(".page", username=current_user.username))


def _render(user, token: str | None = None, status: int = 200):
    is_me = current_user.is_authenticated and current_user.id == user.id
    return render_template("users/page.html", user=user, bots=user_bots(session=db(), user_id=user.id), is_me=is_me,
                           token=token, action_form=ActionForm()), status


@bp.get("/<username>")
def page(username: str):
    user = user_by_name(session=db(), username=username)
    if user is None:
        abort(404)
    return _render(user)


@bp.post("/me/token")
@login_required
def new_token():
    """A new personal API token, shown once in this response (never put in the session cookie)."""
    if not ActionForm().validate_on_submit():
        abort(400)
    with refusals() as refused:
        token = user_service.issue_api_token(session=db(), user_id=current_user.id)
    user = user_service.get_user(session=db(), user_id=current_user.id)
    return _render(user, token=None if refused else token)


@bp.post("/me/token/revoke")
@login_required
def revoke_token():
    if not ActionForm().validate_on_submit():
        abort(400)
    user_service.revoke_api_token(session=db(), user_id=current_user.id)
    flash("Your API token is revoked; scripts using it now get 401.", "ok")
    return redirect(url_for(".me"))
