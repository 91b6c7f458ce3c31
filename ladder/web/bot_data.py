"""A bot's data folder on its page, for its owner only (docs/bots.md, "Bot data"): download the
latest version as a zip, replace it with an uploaded zip, reset it. Anyone else gets 404 from every
route here: the folder is not even known to exist. The views are thin over ladder/services/botdata.py."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, url_for
from flask_login import current_user, login_required

from ladder.services import botdata
from ladder.services.errors import NotFound
from ladder.web.common import db, refusals, settings, store, user_id
from ladder.web.forms import ActionForm, DataUploadForm

bp = Blueprint("bot_data", __name__, url_prefix="/bots")


def owner_context(bot_id: int) -> dict:
    """What the bot page shows its owner of the folder (ladder/web/bots.py's page)."""
    form = DataUploadForm()
    cap = settings().bot_data_cap
    form.file.description = f"a .zip of the folder; at most {cap.describe()} unpacked"
    return {"bot_data": botdata.info(session=db(), bot_id=bot_id, user_id=user_id(), cap=cap),
            "data_form": form}


def zip_response(bot_id: int, version: int, data: bytes) -> Response:
    response = Response(data, mimetype="application/zip")
    response.headers["Content-Disposition"] = f'attachment; filename="bot-{bot_id}-data-v{version}.zip"'
    response.headers["X-Bot-Data-Version"] = str(version)
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/<int:bot_id>/data")
def download(bot_id: int):
    try:
        version, data = botdata.download(session=db(), bot_id=bot_id, user_id=user_id(), store=store())
    except NotFound:
        abort(404)
    return zip_response(bot_id, version, data)


@bp.post("/<int:bot_id>/data")
@login_required
def replace(bot_id: int):
    form = DataUploadForm()
    if not form.validate_on_submit():
        try:  # the owner hears what was wrong with the form; anyone else, that there is no such page
            botdata.info(session=db(), bot_id=bot_id, user_id=current_user.id, cap=settings().bot_data_cap)
        except NotFound:
            abort(404)
        flash("; ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(url_for("bots.page", bot_id=bot_id))
    with refusals() as refused:
        version = botdata.replace(session=db(), bot_id=bot_id, user_id=current_user.id, store=store(),
                                  cap=settings().bot_data_cap, data=form.file.data.stream.read())
    if not refused:
        flash(f"The bot's data is now version {version}: its next matches start from it.", "ok")
    return redirect(url_for("bots.page", bot_id=bot_id))


@bp.post("/<int:bot_id>/data/reset")
@login_required
def reset(bot_id: int):
    if not ActionForm().validate_on_submit():
        abort(400)
    with refusals() as refused:
        version = botdata.reset(session=db(), bot_id=bot_id, user_id=current_user.id, store=store(),
                                cap=settings().bot_data_cap)
    if not refused:
        flash(f"The bot's data is empty now (version {version}).", "ok")
    return redirect(url_for("bots.page", bot_id=bot_id))
