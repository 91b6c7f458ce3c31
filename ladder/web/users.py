"""User pages (API tokens and the password are on the account page: ladder/web/account.py)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_login import current_user, login_required

from ladder.web.common import db
from ladder.web.queries import user_bots, user_by_name

bp = Blueprint("users", __name__, url_prefix="/users")


@bp.get("/me")
@login_required
def me():
    return redirect(url_for(".page", username=current_user.username))


def _render(user, status: int = 200):
    is_me = current_user.is_authenticated and current_user.id == user.id
    return render_template("users/page.html", user=user, bots=user_bots(session=db(), user_id=user.id),
                           is_me=is_me), status


@bp.get("/<username>")
def page(username: str):
    user = user_by_name(session=db(), username=username)
    if user is None:
        abort(404)
    return _render(user)
