"""The ladder's games as a dataset: /datasets lists each game's daily dumps (Parquet in a zip,
written by the scheduler: ladder/services/dumps.py) and serves them. Thin: the page only reads
files; a name that is not a dump of a registered game is a 404 before anything touches the disk."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, send_file

from ladder.services.dumps import find_dump, list_dumps
from ladder.web.catalog import game_titles

bp = Blueprint("datasets", __name__, url_prefix="/datasets")


def _root():
    return current_app.extensions["ladder"].settings.dumps_root


@bp.get("/")
def index():
    return render_template("datasets/index.html", dumps=list_dumps(_root()), titles=game_titles())


@bp.get("/<game>/<filename>")
def download(game: str, filename: str):
    dump = find_dump(_root(), game, filename)
    if dump is None:
        abort(404)
    # a day's dump never changes once written: cacheable for as long as anyone likes
    return send_file(dump.path, mimetype="application/zip", as_attachment=True, download_name=dump.filename,
                     max_age=86400, conditional=True, etag=True)
