"""Sign up, log in, log out. Passwords are hashed and checked by the users service (argon2id)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_login import UserMixin, current_user, login_required, login_user, logout_user

from ladder.services import users as user_service
from ladder.web.common import db, refusals
from ladder.web.forms import LogInForm, SignUpForm

bp = Blueprint("auth", __name__, url_prefix="/auth")


class SiteUser(UserMixin):
    """What the session remembers of a user: never the model itself (it carries hashes)."""

    def __init__(self, user) -> None:
        self.id = user.id
        self.username = user.username
        self.is_admin = user.is_admin


def load_user(raw_id: str) -> SiteUser | None:
    try:
        user = db().get(user_service.User, int(raw_id))
    except (TypeError, ValueError):
        return None
    return SiteUser(user) if user is not None and not user.is_system else None


def _safe_next(target: str | None) -> str:
    """Only same-site paths: an open redirect after log-in is a phishing tool."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("leaderboard.index")


def _start_session(user, remember: bool = False) -> None:
    session.clear()  # a fresh session at log-in: nothing planted before it survives
    login_user(SiteUser(user), remember=remember)


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if current_user.is_authenticated:
        return redirect(url_for("users.me"))
    form = SignUpForm()
    if form.validate_on_submit():
        with refusals() as refused:
            user = user_service.sign_up(session=db(), data={
                "username": form.username.data, "password": form.password.data, "email": form.email.data or None})
        if not refused:
            _start_session(user)
            flash(f"Welcome, {user.username}! Upload a bot to join the ladder.", "ok")
            return redirect(url_for("bots.upload"))
    return render_template("auth/signup.html", form=form), 400 if form.is_submitted() else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LogInForm()
    if form.validate_on_submit():
        user = user_service.authenticate(session=db(), username=form.username.data, password=form.password.data)
        if user is not None:
            _start_session(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        flash("Wrong user name or password.", "error")
        return render_template("auth/login.html", form=form), 401
    return render_template("auth/login.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    logout_user()
    session.clear()
    flash("You are logged out.", "ok")
    return redirect(url_for("leaderboard.index"))
