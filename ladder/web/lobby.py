"""The open ladder on a remote bot's page (docs/remote.md, "The open ladder"): its owner's switch
and what the page shows them. Thin over ladder/services/lobby.py; the API's side (opting in by
API, the lobby a client waits in) is ladder/web/api/remote.py.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_login import current_user, login_required

from ladder.services import lobby
from ladder.web.common import db, refusals
from ladder.web.forms import ActionForm

bp = Blueprint("lobby", __name__, url_prefix="/bots")

def owner_context(bot) -> dict:
    """What the bot page shows the owner of a remote bot (ladder/web/bots.py's page)."""
    if not bot.remote:
        return {}
    return {"lobby_entry": lobby.entry_of(session=db(), bot_id=bot.id), "lobby_form": ActionForm()}


@bp.post("/<int:bot_id>/open-ladder")
@login_required
def switch(bot_id: int):
    """Opt in or out from the bot's page (`open=1` or `open=0`); 404 for anyone but the owner."""
    if not ActionForm().validate_on_submit():
        abort(400)
    wanted = request.form.get("open")
    if wanted not in ("0", "1"):
        abort(400)
    with refusals() as refused:
        bot = lobby.set_open(session=db(), user_id=current_user.id, bot_id=bot_id, open_ladder=wanted == "1")
    if not refused:
        flash(f"{bot.name} is {'on' if bot.open_ladder else 'off'} the open ladder.", "ok")
    return redirect(url_for("bots.page", bot_id=bot_id))
