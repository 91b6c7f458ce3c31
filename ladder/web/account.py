"""The account page: change the password, log out everywhere, and the personal API tokens (named,
scoped, several per user, each revocable, with its last use).

Every response here is `Cache-Control: no-store`: a new token is shown once, in this page, and no
browser or proxy cache may keep a copy of it.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ladder.services import logins, tokens
from ladder.services import users as user_service
from ladder.web.auth import end_session, remembered, start_session
from ladder.web.common import db, refusals
from ladder.web.forms import ActionForm, PasswordChangeForm, TokenForm

bp = Blueprint("account", __name__, url_prefix="/account")


@bp.after_request
def _no_store(response):
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Pragma"] = "no-cache"  # HTTP/1.0 caches
    return response


def _render(*, token_form: TokenForm | None = None, password_form: PasswordChangeForm | None = None,
            new_token: str | None = None, status: int = 200):
    user = user_service.get_user(session=db(), user_id=current_user.id)
    return render_template(
        "account/page.html", user=user, tokens=tokens.list_tokens(session=db(), user_id=user.id),
        logins=logins.count(session=db(), user_id=user.id), token_form=token_form or TokenForm(),
        password_form=password_form or PasswordChangeForm(), action_form=ActionForm(), new_token=new_token,
    ), status


@bp.get("/")
@login_required
def page():
    return _render()


@bp.post("/tokens")
@login_required
def new_token():
    """A new token, shown once in this response (never put in the session cookie)."""
    form = TokenForm()
    if not form.validate_on_submit():
        return _render(token_form=form, status=400)
    with refusals() as refused:
        row, token = tokens.create(session=db(), user_id=current_user.id, name=form.name.data,
                                   scopes=form.scopes.data)
    if refused:
        return _render(token_form=form, status=400)
    flash(f"Token {row.name!r} created. Copy it now: it is not shown again.", "ok")
    return _render(new_token=token, token_form=TokenForm(formdata=None))  # an empty form for the next one


@bp.post("/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int):
    if not ActionForm().validate_on_submit():
        abort(400)
    with refusals() as refused:
        row = tokens.revoke(session=db(), user_id=current_user.id, token_id=token_id)
    if not refused:
        flash(f"Token {row.name!r} is revoked; scripts using it now get 401.", "ok")
    return redirect(url_for(".page"))


@bp.post("/password")
@login_required
def change_password():
    """A new password ends every log-in of the account (other browsers too) and revokes its API
    tokens; this browser gets a fresh log-in."""
    form = PasswordChangeForm()
    if not form.validate_on_submit():
        return _render(password_form=form, status=400)
    with refusals() as refused:
        user = user_service.change_password(session=db(), user_id=current_user.id, old=form.current.data,
                                            new=form.password.data)
    if refused:
        return _render(password_form=form, status=400)
    tokens.revoke_all(session=db(), user_id=user.id)  # whoever had the old password may have made one
    start_session(user, remember=remembered())
    flash("Your password is changed; every other browser logged in as you is logged out, and your API "
          "tokens are revoked.", "ok")
    return redirect(url_for(".page"))


@bp.post("/logout-everywhere")
@login_required
def logout_everywhere():
    if not ActionForm().validate_on_submit():
        abort(400)
    logins.end_all(session=db(), user_id=current_user.id)
    tokens.revoke_all(session=db(), user_id=current_user.id)  # a token is a log-in too, for scripts
    end_session()
    flash("Every log-in of your account is ended, this one too, and your API tokens are revoked.", "ok")
    return redirect(url_for("auth.login"))
