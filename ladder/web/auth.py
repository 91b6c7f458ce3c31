"""Sign up, log in, log out. Passwords are hashed and checked by the users service (argon2id).

A log-in is a row on the server (ladder/services/logins.py): the cookies carry its random key, so
log-out and a password change end it for every copy of the cookie. How often log-ins and sign-ups
may be tried is limited in ladder/web/limiting.py, before any password is hashed.
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_login import UserMixin, current_user, login_required, login_user, logout_user

from ladder.services import logins, signups
from ladder.services import users as user_service
from ladder.web.common import db, refusals, settings
from ladder.web.forms import LogInForm, SignUpForm

bp = Blueprint("auth", __name__, url_prefix="/auth")


class SiteUser(UserMixin):
    """What the session remembers of a user: never the model itself (it carries hashes). Its id for
    Flask-Login is the log-in's cookie value ("<user id>.<key>"); `id` stays the user's id."""

    def __init__(self, user, cookie_id: str) -> None:
        self.id = user.id
        self.username = user.username
        self.is_admin = user.is_admin
        self.cookie_id = cookie_id

    def get_id(self) -> str:
        return self.cookie_id


def load_user(cookie_id: str) -> SiteUser | None:
    user = logins.user_for(session=db(), cookie_id=cookie_id)
    return SiteUser(user, cookie_id) if user is not None else None


def rotate_remembered(_app, user: SiteUser) -> None:
    """A remember-me cookie brought a browser back: give the log-in a new key and the browser a new
    cookie, so the old cookie (and any copy of it) stops working now."""
    fresh_id = logins.rotate(session=db(), cookie_id=user.get_id(), days=settings().login_days)
    if fresh_id is None:
        return  # ended between loading and here: the next request finds no log-in
    user.cookie_id = fresh_id
    login_user(user, remember=True, duration=timedelta(days=settings().login_days), fresh=False)


def _safe_next(target: str | None) -> str:
    """Only same-site paths: an open redirect after log-in is a phishing tool."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("leaderboard.index")


def start_session(user, remember: bool = False) -> None:
    """A fresh log-in for this browser; nothing planted in the session before it survives."""
    session.clear()
    days = settings().login_days
    cookie_id = logins.start(session=db(), user_id=user.id, remember=remember, days=days)
    login_user(SiteUser(user, cookie_id), remember=remember, duration=timedelta(days=days))


def end_session() -> None:
    """Log this browser out: the log-in ends on the server, both cookies are dropped."""
    if current_user.is_authenticated:
        logins.end(session=db(), cookie_id=current_user.get_id())
    logout_user()
    session.clear()
    session["_remember"] = "clear"  # Flask-Login deletes the remember-me cookie after this request


def remembered() -> bool:
    return current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in request.cookies


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if current_user.is_authenticated:
        return redirect(url_for("users.me"))
    form = SignUpForm()
    if form.validate_on_submit():
        config = settings()
        place = signups.SignupPlace(signups.address_hash(signups.address_key(config.secret_key),
                                                         request.remote_addr or "unknown"),
                                    config.accounts_per_address, config.signup_address_days)
        with refusals(forbidden_is_form_error=True) as refused:
            user = user_service.sign_up(session=db(), data={
                "username": form.username.data, "password": form.password.data, "email": form.email.data or None},
                deny_list=config.name_deny_list, place=place)
        if not refused:
            start_session(user)
            flash(f"Welcome, {user.username}! Upload a bot to join the ladder.", "ok")
            return redirect(url_for("bots.upload"))
    return render_template("auth/signup.html", form=form), 400 if form.is_submitted() else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LogInForm()
    if form.validate_on_submit():
        user = user_service.authenticate(session=db(), username=form.username.data, password=form.password.data)
        notice = user_service.suspension_notice(user) if user is not None else None
        if notice is not None:  # the right password: they may learn why they cannot log in
            flash(notice, "error")
            return render_template("auth/login.html", form=form), 403
        if user is not None:
            start_session(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        flash("Wrong user name or password.", "error")
        return render_template("auth/login.html", form=form), 401
    return render_template("auth/login.html", form=form)


@bp.post("/logout")
@login_required
def logout():
    end_session()
    flash("You are logged out.", "ok")
    return redirect(url_for("leaderboard.index"))
