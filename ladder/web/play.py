"""'Play it yourself' (docs/play.md): start a match with "me" at a seat, then play it in the page.

The start form is on /play/<game> (linked from each game's page). The table is /play/match/<id>:
play.js long-polls `updates` for what the worker wrote for the seat (events, requests, the end),
each drawn here (a request as the game's own form, ladder/games/forms.py), and posts each form to
`answer`. Thin views over ladder/services/person_seat.py; the web tier relays, it never plays.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ladder.games import get_game
from ladder.games.forms import sight
from ladder.games.render import renderer_for
from ladder.models import Match
from ladder.relay import RelayError
from ladder.services import person_seat as service
from ladder.services.errors import NotFound, ServiceError
from ladder.web.common import db, dispatch, refusals, settings, status_for
from ladder.web.held import held
from ladder.web.live import relay as _relay  # the app's one relay
from ladder.web.queries import game_titles

bp = Blueprint("play", __name__, url_prefix="/play")

POLL_BLOCK_S = 10.0  # one long poll: short enough for a threaded server, long enough to be cheap


@bp.get("/<game>")
@login_required
def start_page(game: str):
    if game not in game_titles():
        abort(404)
    try:
        table = service.table_choices(session=db(), game=game, house_username=settings().house_username)
    except ServiceError:
        abort(404)
    game_obj = get_game(game)
    house = settings().house_username
    quick = [*game_obj.validation_bots, *(n for n in game_obj.starter_bots if n not in game_obj.validation_bots)]
    return render_template("play/start.html", table=table, game_obj=game_obj,
                           default_bots=[f"{house}/{name}" for name in quick],
                           config_clock=f"{settings().person_clock} seconds")


@bp.post("/<game>")
@login_required
def start(game: str):
    if game not in game_titles():
        abort(404)
    seat = request.form.get("seat", "0")
    opponents = [v for v in request.form.getlist("opponent") if v != ""]
    try:
        seat_number = int(seat)
        bot_ids = [int(v) for v in opponents]
    except ValueError:
        return _again(game, "choose a seat and bots from the lists")
    with refusals() as refused:
        match = service.start(session=db(), settings=settings(), user_id=current_user.id,
                              address=request.remote_addr or "unknown", game=game, seat=seat_number, opponents=bot_ids)
    if refused:
        return redirect(url_for(".start_page", game=game))
    dispatch([match.id])
    return redirect(url_for(".table", match_id=match.id))


def _again(game: str, message: str):
    from flask import flash

    flash(message, "error")
    return redirect(url_for(".start_page", game=game))


def _sitting(match_id: int) -> service.Sitting:
    try:
        return service.sitting(session=db(), match_id=match_id, user_id=current_user.id)
    except NotFound:
        abort(404)


@bp.get("/match/<int:match_id>")
@login_required
def table(match_id: int):
    sat = _sitting(match_id)
    game_obj = get_game(sat.match.game)
    return render_template("play/table.html", sat=sat, game_obj=game_obj)


@bp.get("/match/<int:match_id>/updates")
@login_required
def updates(match_id: int):
    sat = _sitting(match_id)
    game, seat = sat.match.game, sat.seat.seat
    db().rollback()  # no transaction stays open through a long poll
    after = request.args.get("after", "0")[:64]
    # a waiting poll takes a place in the process's budget of held requests: past it, 429 with
    # retry_ms, and the page asks again then (ladder/web/held.py)
    waiting = request.args.get("wait") == "1"
    try:
        if waiting:
            with held("ask"):
                messages = service.updates(relay=_relay(), match_id=match_id, seat=seat, after=after,
                                           block=POLL_BLOCK_S)
        else:
            messages = service.updates(relay=_relay(), match_id=match_id, seat=seat, after=after, block=0.0)
    except RelayError as exc:
        return jsonify(error=str(exc)), 400
    items, last = [], after
    for message in messages:
        items.append(_drawn(game, match_id, seat, message.data, last))
        last = message.id
    status = db().get(Match, match_id).status
    db().rollback()
    return jsonify(after=last, items=items, status=status, waited=bool(waiting))


def _drawn(game: str, match_id: int, me: int, data: dict[str, Any], before: str) -> dict[str, Any]:
    """One relay message as the page shows it: text for events and notices, HTML for a request."""
    kind = data.get("type")
    if kind == "event":
        line = renderer_for(get_game(game)).event_line(data.get("event") or {}, lambda s: _who(s, me))
        return {"type": "event", "text": line}
    if kind == "request":
        forms = get_game(game).part("forms")
        observation = data.get("observation") or {}
        try:
            form = forms.form(observation)
        except Exception as exc:  # a request the form code cannot draw: say so, the clock decides
            return {"type": "notice", "text": f"This decision cannot be drawn as a form ({exc})."}
        html = render_template("play/_request.html", form=form, request_id=data.get("id"), after=before,
                               sight=getattr(forms, "sight", sight)(observation), match_id=match_id)
        return {"type": "request", "id": data.get("id"), "deadline": data.get("deadline"), "html": html}
    if kind == "refused":
        return {"type": "notice", "text": f"Refused: {data.get('reason')}. The game played its default instead."}
    if kind == "takeover":
        return {"type": "takeover", "text": f"The fallback bot now plays your seat: {data.get('reason')}."}
    if kind == "end":
        results = data.get("results") or []
        lines = [f"{_who(r.get('seat'), me)}: {r.get('score')} points, rank {r.get('rank')}" for r in results]
        return {"type": "end", "text": "The game is over. " + "; ".join(lines)}
    if kind == "restart":
        return {"type": "restart", "text": f"The game starts again from the beginning: {data.get('reason')}."}
    if kind == "hello":
        return {"type": "hello", "text": f"The game starts: you are seat {me} of {data.get('players')}."}
    return {"type": "notice", "text": ""}


def _who(seat: Any, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


@bp.post("/match/<int:match_id>/answer")
@login_required
def answer(match_id: int):
    sat = _sitting(match_id)
    try:
        request_id = int(request.form.get("request", ""))
    except ValueError:
        return jsonify(error="which decision is this an answer to?"), 400
    values = {k: request.form.getlist(k) for k in request.form if k not in ("csrf_token", "request", "after")}
    try:
        service.answer(relay=_relay(), sat=sat, after=request.form.get("after", "0")[:64], request_id=request_id,
                       values=values)
    except RelayError as exc:
        return jsonify(error=str(exc)), 400
    except ServiceError as exc:
        return jsonify(error=str(exc)), status_for(exc)
    return jsonify(ok=True)
