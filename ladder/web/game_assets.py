"""A game's own static files, `ladder/games/<name>/view/static/x`, served as `/games/<name>/x`.

How a game draws itself in the replay viewer (its viewer.js and viewer.css) lives in its package,
like its templates, so adding a game never touches the site's static folder. Only registered games
are looked up, and send_from_directory refuses any path that leaves the folder.
"""

from __future__ import annotations

from flask import Blueprint, abort, send_from_directory

from ladder.games import game_view_files

bp = Blueprint("game_assets", __name__, url_prefix="/games")


@bp.get("/<game>/<path:filename>")
def file(game: str, filename: str):
    folder = game_view_files(game, "static")
    if folder is None:
        abort(404)
    return send_from_directory(folder, filename, max_age=3600)
