"""The open ladder's lobby on the web (docs/remote.md, "The open ladder"): opting a remote bot in
or out (API and its page), and the lobby a client waits in. Thin over ladder/services/lobby.py;
the state is in the database, so any web process answers any client.

`POST /api/v1/lobby/<bot>` is a heartbeat and a long poll: it says the bot waits, then answers as
soon as the scheduler has paired it (at most `wait` seconds later) with its match, seat and the
websocket to connect to; the client asks again after each answer, so a client that goes away is
out of the lobby within lobby.EXPIRY_S.
"""

from __future__ import annotations

import time

from flask import Blueprint, abort, flash, jsonify, redirect, request, url_for
from flask_login import current_user, login_required

from ladder.services import lobby, outside
from ladder.services.errors import Invalid, NotFound
from ladder.web import api
from ladder.web.common import db, int_arg, refusals, settings
from ladder.web.forms import ActionForm
from ladder.web.held import held
from ladder.web.limiting import _address
from ladder.web.queries import game_titles

bp = Blueprint("lobby", __name__, url_prefix="/bots")

MAX_WAIT_S = 25  # below lobby.EXPIRY_S: a held request is a heartbeat that keeps its bot waiting
POLL_S = 0.5  # how often a held request looks at its entry


def _open_flag(body: object) -> bool:
    if not isinstance(body, dict) or type(body.get("open")) is not bool:
        raise Invalid('send a JSON object: {"open": true} or {"open": false}')
    return body["open"]


def _bot_json(bot) -> dict:
    return {"id": bot.id, "name": bot.name, "game": bot.game, "remote": bot.remote, "open_ladder": bot.open_ladder}


@api.bp.post("/bots/<int:bot_id>/open-ladder")
def open_ladder_by_id(bot_id: int):
    """Opt the token owner's remote bot in or out of the open ladder; 404 for anyone else's."""
    user = api._token_user("play")
    flag = _open_flag(request.get_json(silent=True))
    bot = lobby.set_open(session=db(), user_id=user.id, bot_id=bot_id, open_ladder=flag)
    return jsonify(bot=_bot_json(bot))


@api.bp.post("/remote/open-ladder")
def open_ladder_by_name():
    """The same by game and name, the remote bot created on first use (what `ladder connect --open` calls)."""
    user = api._token_user("play")
    body = request.get_json(silent=True)
    flag = _open_flag(body)
    game, name = body.get("game"), body.get("bot")
    if not isinstance(game, str) or game not in game_titles():
        raise NotFound(f"unknown game {str(game)[:40]!r}")
    if not isinstance(name, str) or "\x00" in name:
        raise Invalid('"bot" is your remote bot\'s name')
    mine = outside.remote_bot(session=db(), user_id=user.id, game=game, name=name, settings=settings())
    bot = lobby.set_open(session=db(), user_id=user.id, bot_id=mine.bot.id, open_ladder=flag)
    return jsonify(bot=_bot_json(bot))


@api.bp.post("/lobby/<int:bot_id>")
def lobby_wait(bot_id: int):
    """Wait in the lobby (a heartbeat), held up to `wait` seconds until the bot is paired."""
    user = api._token_user("play")
    hold = int_arg("wait", 0, 0, MAX_WAIT_S)
    # a held request takes a place in the process's budget of held requests (ladder/web/held.py):
    # past it, 429 with retry_ms, and the client asks again then (docs/remote.md). The heartbeat
    # is written first, so a refused wait still keeps the bot in the lobby.
    state = _lobby_state(user.id, bot_id)
    if hold > 0 and state.status != "matched":
        db().commit()
        with held("wait in the lobby"):
            end = time.monotonic() + hold
            while state.status != "matched" and time.monotonic() < end:
                time.sleep(POLL_S)
                state = _lobby_state(user.id, bot_id)
                db().commit()
    body = {**state.as_json(), "held": hold > 0}
    if state.status == "matched":
        body["connect"] = url_for("seats.connect", match_id=state.match_id, seat=state.seat)
    return jsonify(body)


def _lobby_state(user_id: int, bot_id: int):
    return lobby.wait(session=db(), user_id=user_id, bot_id=bot_id, address=_address(),
                      per_user=settings().remote_seats_per_user, per_address=settings().remote_seats_per_address)


@api.bp.delete("/lobby/<int:bot_id>")
def lobby_leave(bot_id: int):
    """Stop waiting; a match already made is still played."""
    user = api._token_user("play")
    lobby.leave(session=db(), user_id=user.id, bot_id=bot_id)
    return "", 204


api.QUERY_PARAMETERS["api.lobby_wait"] = ("wait",)


# --- the bot's page: its owner's switch ---------------------------------------------------------------


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
