"""The web site: one blueprint per feature, server-rendered pages that work without JavaScript.

`init_app` wires the pieces every page needs: CSRF protection on every form (the JSON API, which
authenticates with a bearer token and never with the session cookie, is exempt), Flask-Login
sessions kept on the server (ladder/web/auth.py), request limits (ladder/web/limiting.py), the
request's database session, template helpers and error pages.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, jsonify, render_template, request
from flask_login import LoginManager
from flask_login.signals import user_loaded_from_cookie
from flask_wtf.csrf import CSRFError, CSRFProtect
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader
from werkzeug.middleware.proxy_fix import ProxyFix

from ladder.web.common import ago, close_db, delta_text, rating_sure_text, rating_text

csrf = CSRFProtect()
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Please log in to do that."
login_manager.login_message_category = "error"
login_manager.session_protection = "strong"


def init_app(app: Flask) -> None:
    # blueprints load here, not at import: helpers like ladder.web.steps import without Flask routes
    from ladder.web import (
        account,
        api,
        auth,
        bot_data,
        bots,
        datasets,
        game_assets,
        guide,
        health,
        held,
        leaderboard,
        live,
        lobby,
        matches,
        metrics,
        moderation,
        play,
        privacy,
        protocol,
        rating_report,
        tournaments,
        users,
    )
    from ladder.web import viewer as replay_viewer
    from ladder.web.common import IdConverter
    from ladder.web.limiting import init_limits

    app.url_map.converters["int"] = IdConverter  # before the routes: every <int:id> is bounded
    settings = app.extensions["ladder"].settings
    _session_cookies(app, settings)
    csrf.init_app(app)
    login_manager.init_app(app)
    login_manager.user_loader(auth.load_user)
    user_loaded_from_cookie.connect(auth.rotate_remembered, app)
    blueprints = (auth, account, leaderboard, bots, bot_data, matches, users, api, protocol, tournaments,
                  replay_viewer, game_assets, guide, datasets, live, play, lobby, health, metrics, moderation,
                  rating_report)
    for module in blueprints:
        app.register_blueprint(module.bp)
    app.register_blueprint(api.seats_bp)
    csrf.exempt(api.bp)
    csrf.exempt(api.seats_bp)
    api.init_app(app)
    held.init_app(app, settings.long_lived_per_process)
    privacy.init_app(app)
    init_limits(app, settings)
    metrics.init_request_metrics(app, json_lines=settings.log_format == "json")
    app.teardown_appcontext(close_db)
    app.add_template_filter(ago, "ago")
    app.add_template_filter(rating_text, "rating")
    app.add_template_filter(rating_sure_text, "rating_sure")
    app.add_template_filter(delta_text, "delta")
    app.context_processor(_template_globals)
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, _game_templates()])
    for code in (400, 403, 404, 405, 409, 413, 500):
        app.register_error_handler(code, _error_page)
    app.register_error_handler(CSRFError, _csrf_error)
    app.after_request(_security_headers)


def _session_cookies(app: Flask, settings) -> None:
    """Both cookies HttpOnly and SameSite=Lax; Secure when the settings say the site is served over
    HTTPS (on by default in production); the remember-me cookie lasts as long as a log-in may."""
    app.config.update(
        REMEMBER_COOKIE_DURATION=timedelta(days=settings.login_days),
        REMEMBER_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
    )
    secure = settings.cookies_secure or bool(app.config.get("SESSION_COOKIE_SECURE"))
    app.config.update(SESSION_COOKIE_SECURE=secure, REMEMBER_COOKIE_SECURE=secure)
    if settings.trusted_proxies:  # the client's address (for per-address limits) is in X-Forwarded-For
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies, x_proto=settings.trusted_proxies)


# Everything the pages load comes from this site; the inline SVG chart is markup, not a script.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


def _security_headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def _game_templates() -> BaseLoader:
    """Each registered game's own partials, `ladder/games/<name>/view/templates/x.html`, as
    `games/<name>/x.html` (how a game draws its steps: ladder/games/render.py)."""
    from ladder.games import GAMES, game_view_files

    folders = {}
    for name in GAMES:
        folder = game_view_files(name, "templates")
        if folder is not None:
            folders[name] = FileSystemLoader(folder)
    return PrefixLoader({"games": PrefixLoader(folders)})


def _template_globals() -> dict:
    from ladder.web.catalog import game_titles

    return {"game_titles": game_titles()}


MESSAGES = {
    400: "The request was not understood.",
    403: "You may not do that.",
    404: "There is nothing here.",
    405: "That method is not allowed here.",
    409: "That clashes with the current state.",
    413: "The upload is too large.",
    500: "Something broke on our side; it has been logged.",
}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _error_page(exc):
    code = getattr(exc, "code", 500) or 500
    message = getattr(exc, "description", None) if code not in (404, 500) else None
    if code == 413:
        from ladder.bot.packages import too_big
        from ladder.web.common import settings

        message = too_big("The upload", settings().max_upload_bytes)
    text = message or MESSAGES.get(code, "Error")
    if _wants_json():
        return jsonify(error=text, status=code), code
    if code == 413 and request.endpoint in ("bots.upload", "bots.new_version"):
        from ladder.web.bots import upload_form_after_413

        return upload_form_after_413(text)
    return render_template("error.html", code=code, message=text), code


def _csrf_error(exc: CSRFError):
    text = f"The form was refused: {exc.description} Reload the page and try again."
    return render_template("error.html", code=400, message=text), 400
