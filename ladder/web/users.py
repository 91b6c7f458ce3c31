"""User pages (API tokens and the password are on the account page: ladder/web/account.py)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_login import current_user, login_required

from ladder.services import bots as bot_service
from ladder.services.users import get_user_by_name
from ladder.web.common import db

bp = Blueprint("users", __name__, url_prefix="/users")


@bp.get("/me")
@login_required
def me():
    return redirect(url_for(".page", username=current_user.username))


def _render(user, status: int = 200):
    is_me = current_user.is_authenticated and current_user.id == user.id
    return render_template("users/page.html", user=user, bots=bot_service.user_bots(session=db(), user_id=user.id),
                           is_me=is_me), status


@bp.get("/<username>")
def page(username: str):
    user = get_user_by_name(session=db(), username=username)
    if user is None:
        abort(404)
    return _render(user)
