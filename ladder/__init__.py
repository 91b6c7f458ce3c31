"""The dragon bot ladder.

`create_app(config)` builds the web site. Nothing heavy happens at import time: the engine rules,
replays and the CLI import this package too, so Flask and SQLAlchemy load inside the factory only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from flask import Flask

    from ladder.config import Settings


def create_app(config: Settings | Mapping[str, Any] | None = None) -> Flask:
    """The Flask app for `config`.

    `config` is a `Settings`, or a mapping whose lowercase keys are `Settings` fields (read over an
    empty environment: tests pass everything in) and whose uppercase keys are Flask settings
    (`TESTING`, `WTF_CSRF_ENABLED`, `LADDER_DISPATCH`, ...). None reads the environment.

    `LADDER_DISPATCH` is an optional callable `dispatch(match_ids)` called after a view committed
    new queued matches (the Celery side plugs `run_match.delay` in); without it the scheduler finds
    them in the queue. The site never runs bot code itself.
    """
    from flask import Flask

    from ladder.config import Settings
    from ladder.db import make_engine, session_factory
    from ladder.storage import open_store
    from ladder.web import init_app

    flask_config: dict[str, Any] = {}
    if isinstance(config, Settings):
        settings = config
    elif config is None:
        settings = Settings.from_env()
    else:
        fields = {k: v for k, v in config.items() if k.islower()}
        flask_config = {k: v for k, v in config.items() if not k.islower()}
        settings = fields.pop("settings", None) or Settings.from_env({}, **fields)

    app = Flask(__name__, instance_path=str(settings.instance_dir.resolve()), template_folder="web/templates",
                static_folder="web/static")
    app.config.update(
        SECRET_KEY=settings.secret_key,
        # the form's own check gives the clear message; this only stops absurd bodies early
        MAX_CONTENT_LENGTH=settings.max_upload_bytes + (256 << 10),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # secure (HTTPS-only) cookies would lock everyone out of a plain-HTTP deployment such as
        # docker compose on localhost; a site behind TLS passes SESSION_COOKIE_SECURE=True in `config`
        REMEMBER_COOKIE_HTTPONLY=True,
        LEADERBOARD_PAGE_SIZE=50,
    )
    app.config.update(flask_config)
    engine = flask_config.get("LADDER_ENGINE") or make_engine(settings)
    dispatch: Callable[[list[int]], None] | None = app.config.get("LADDER_DISPATCH")
    app.extensions["ladder"] = LadderState(settings, engine, session_factory(engine), dispatch, open_store(settings))
    init_app(app)
    return app


class LadderState:
    """What the views need from the app: settings, the engine and its session factory, dispatch, the
    store of blobs (ladder/storage)."""

    def __init__(self, settings, engine, sessions, dispatch, store) -> None:
        self.store = store
        self.settings = settings
        self.engine = engine
        self.sessions = sessions
        self.dispatch = dispatch
