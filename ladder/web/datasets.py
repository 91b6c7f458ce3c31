"""The ladder's games as a dataset: /datasets lists each game's daily dumps (Parquet in a zip,
written by the scheduler into the store: ladder/services/dumps.py) and streams them. Thin: the page
only reads blobs; a name that is not a dump of a registered game is a 404 before the store is asked."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request

from ladder.services.dumps import find_dump, list_dumps
from ladder.storage import BlobMissing, chunks
from ladder.web.catalog import game_titles

bp = Blueprint("datasets", __name__, url_prefix="/datasets")


def _store():
    return current_app.extensions["ladder"].store


@bp.get("/")
def index():
    return render_template("datasets/index.html", dumps=list_dumps(_store()), titles=game_titles())


@bp.get("/<game>/<filename>")
def download(game: str, filename: str):
    store = _store()
    dump = find_dump(store, game, filename)
    if dump is None:
        abort(404)
    # a day's dump never changes once written: its name and size are its version, cacheable for long
    etag = f"{dump.filename}-{dump.size}"
    if request.if_none_match.contains(etag):
        return Response(status=304, headers={"ETag": f'"{etag}"'})
    try:
        body = store.open(dump.key)
    except BlobMissing:  # pruned between the look-up and the read
        abort(404)
    return Response(chunks(body), mimetype="application/zip", headers={
        "Content-Disposition": f"attachment; filename={dump.filename}", "Content-Length": str(dump.size),
        "Cache-Control": "public, max-age=86400", "ETag": f'"{etag}"'})
