"""Remote bots in the JSON API (docs/remote.md): a challenge with the token owner's remote bot,
opting a remote bot in or out of the open ladder, and the lobby a client waits in. Thin over
ladder/services/outside.py and ladder/services/lobby.py; the state is in the database, so any web
process answers any client.

`POST /api/v1/lobby/<bot>` is a heartbeat and a long poll: it says the bot waits, then answers as
soon as the scheduler has paired it (at most `wait` seconds later) with its match, seat and the
websocket to connect to; the client asks again after each answer, so a client that goes away is
out of the lobby within lobby.EXPIRY_S.
"""

from __future__ import annotations

import time

from flask import jsonify, request, url_for

from ladder.games import OptionError
from ladder.services import lobby, outside
from ladder.services.errors import Invalid, NotFound
from ladder.services.limits import check_challenge
from ladder.web.api.common import match_json, token_user
from ladder.web.catalog import game_titles
from ladder.web.common import db, dispatch, int_arg, settings
from ladder.web.held import held
from ladder.web.limiting import _address

MAX_WAIT_S = 25  # below lobby.EXPIRY_S: a held request is a heartbeat that keeps its bot waiting
POLL_S = 0.5  # how often a held request looks at its entry


def remote_challenge():
    """Queue a challenge with the token owner's remote bot in seat 0 (created on first use)."""
    user = token_user("play")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise Invalid('send a JSON object: {"game": ..., "bot": ..., "against": ["house/careful"]}')
    game, name, against = body.get("game"), body.get("bot"), body.get("against")
    if not isinstance(game, str) or game not in game_titles():
        raise NotFound(f"unknown game {str(game)[:40]!r}")
    if not isinstance(name, str) or not isinstance(against, list) or not 0 < len(against) <= 12 \
            or not all(isinstance(a, str) and 0 < len(a) <= 80 and "\x00" not in a for a in against):
        raise Invalid('"bot" is your remote bot\'s name; "against" a list of owner/name (a starter bot: '
                      "house/careful)")
    seed, options = body.get("seed"), body.get("options")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise Invalid('"seed" is a whole number from 0 to 2^63 - 1')
    if options is not None and not isinstance(options, dict):
        raise Invalid('"options" is an object of the game\'s options')
    if "\x00" in name:
        raise Invalid("a bot name has no NUL")
    opponents = outside.opponent_versions(session=db(), game=game, names=against)
    check_challenge(session=db(), settings=settings(), user_id=user.id, version_ids=opponents)
    try:
        match, seat = outside.remote_challenge(session=db(), user_id=user.id, game=game, bot_name=name,
                                               against=against, options=options, seed=seed,
                                               sandbox=settings().sandbox_mode, settings=settings())
    except OptionError as exc:
        raise Invalid(str(exc)) from None
    dispatch([match.id])
    response = jsonify(match=match_json(match), seat=seat,
                       connect=url_for("seats.connect", match_id=match.id, seat=seat))
    response.status_code = 201
    return response


# --- the open ladder -----------------------------------------------------------------------------


def _open_flag(body: object) -> bool:
    if not isinstance(body, dict) or type(body.get("open")) is not bool:
        raise Invalid('send a JSON object: {"open": true} or {"open": false}')
    return body["open"]


def _bot_json(bot) -> dict:
    return {"id": bot.id, "name": bot.name, "game": bot.game, "remote": bot.remote, "open_ladder": bot.open_ladder}


def open_ladder_by_id(bot_id: int):
    """Opt the token owner's remote bot in or out of the open ladder; 404 for anyone else's."""
    user = token_user("play")
    flag = _open_flag(request.get_json(silent=True))
    bot = lobby.set_open(session=db(), user_id=user.id, bot_id=bot_id, open_ladder=flag)
    return jsonify(bot=_bot_json(bot))


def open_ladder_by_name():
    """The same by game and name, the remote bot created on first use (what `ladder connect --open` calls)."""
    user = token_user("play")
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


def lobby_wait(bot_id: int):
    """Wait in the lobby (a heartbeat), held up to `wait` seconds until the bot is paired."""
    user = token_user("play")
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


def lobby_leave(bot_id: int):
    """Stop waiting; a match already made is still played."""
    user = token_user("play")
    lobby.leave(session=db(), user_id=user.id, bot_id=bot_id)
    return "", 204
