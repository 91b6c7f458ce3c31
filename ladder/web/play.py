"""'Play it yourself' (docs/play.md): start a match with "me" at a seat, then play it in the page.

The start form is on /play/<game> (linked from each game's page). The table is /play/match/<id>:
play.js long-polls `updates` for what the worker wrote for the seat (events, requests, the end),
each drawn here (a request as the game's own form, ladder/games/forms.py, with the table as a
viewer frame from the game's `seat_view` for the game's viewer script to draw and the page to make
clickable), and posts each form to `answer`. The seats are named (the person by user name, the bots
by theirs) in the forms and the log. Thin views over ladder/services/person_seat.py; the web tier
relays, it never plays.
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ladder.games import get_game
from ladder.games.forms import named, sight
from ladder.games.render import renderer_for
from ladder.relay.backends import RelayError
from ladder.services import person_seat as service
from ladder.services.errors import NotFound, ServiceError
from ladder.web.catalog import game_titles
from ladder.web.common import db, dispatch, refusals, relay, settings, status_for
from ladder.web.held import held

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
    names = service.seat_names(session=db(), sat=sat)
    db().rollback()
    # Drawn here too for a browser without JavaScript (the page's <noscript>): the log so far and
    # the decision asked now, as the plain form, which posts to `answer` and comes back here.
    try:
        messages = service.whole_table(relay=relay(), match_id=match_id, seat=sat.seat.seat)
    except RelayError:
        messages = []
    log, asked, last = [], None, "0"
    for message in messages:
        item = _drawn(sat.match.game, match_id, sat.seat.seat, message.data, last, names)
        last = message.id
        if item["type"] == "request":
            asked = item
        elif item["type"] in ("takeover", "end", "hello", "restart"):
            asked = None
            log = [] if item["type"] == "restart" else log  # the game starts again: its earlier table is gone
        if item.get("text"):
            log.append(item["text"])
    return render_template("play/table.html", sat=sat, game_obj=game_obj, names=names, log=log, asked=asked,
                           board=game_obj.part("seat_view") is not None)


@bp.get("/match/<int:match_id>/updates")
@login_required
def updates(match_id: int):
    sat = _sitting(match_id)
    game, seat = sat.match.game, sat.seat.seat
    names = service.seat_names(session=db(), sat=sat)
    db().rollback()  # no transaction stays open through a long poll
    after = request.args.get("after", "0")[:64]
    # a waiting poll takes a place in the process's budget of held requests: past it, 429 with
    # retry_ms, and the page asks again then (ladder/web/held.py)
    waiting = request.args.get("wait") == "1"
    try:
        if waiting:
            with held("ask"):
                messages = service.updates(relay=relay(), match_id=match_id, seat=seat, after=after,
                                           block=POLL_BLOCK_S)
        else:
            messages = service.updates(relay=relay(), match_id=match_id, seat=seat, after=after, block=0.0)
    except RelayError as exc:
        return jsonify(error=str(exc)), 400
    items, last = [], after
    for message in messages:
        items.append(_drawn(game, match_id, seat, message.data, last, names))
        last = message.id
    status = service.match_status(session=db(), match_id=match_id)
    db().rollback()
    return jsonify(after=last, items=items, status=status, waited=bool(waiting))


def _drawn(game: str, match_id: int, me: int, data: dict[str, Any], before: str, names: list[str]) -> dict[str, Any]:
    """One relay message as the page shows it: text for events and notices; for a request its
    form's HTML, the table as a viewer frame and what on it may be clicked."""
    kind = data.get("type")
    game_obj = get_game(game)
    view = game_obj.part("seat_view")

    def who(s: Any) -> str:
        if isinstance(s, str) and s.isdigit():  # a seat as a JSON key ("shares": {"1": [...]})
            s = int(s)
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else f"seat {s}"

    if kind == "event":
        event = data.get("event") or {}
        line = (view or renderer_for(game_obj)).event_line(event, who)
        return {"type": "event", "text": line, **_offer_marks(event, me)}
    if kind == "request":
        forms = game_obj.part("forms")
        observation = data.get("observation") or {}
        try:
            with named(names):
                form = forms.form(observation)
        except Exception as exc:  # a request the form code cannot draw: say so, the clock decides
            return {"type": "notice", "text": f"This decision cannot be drawn as a form ({exc})."}
        html = render_template("play/_request.html", form=form, request_id=data.get("id"), after=before,
                               sight=getattr(forms, "sight", sight)(observation), match_id=match_id)
        drawn = {"type": "request", "id": data.get("id"), "deadline": data.get("deadline"), "html": html,
                 "kind": form.kind}
        if view is not None:
            # the form alone still plays: a board that cannot be drawn is left out, never a gate
            with contextlib.suppress(Exception):
                drawn.update(frame=view.frame(observation), picks=view.targets(observation))
        return drawn
    if kind == "refused":
        return {"type": "notice", "text": f"Refused: {data.get('reason')}. The game played its default instead."}
    if kind == "takeover":
        return {"type": "takeover", "text": f"The fallback bot now plays your seat: {data.get('reason')}."}
    if kind == "end":
        results = data.get("results") or []
        lines = [f"{who(r.get('seat'))}: {r.get('score')} points, rank {r.get('rank')}" for r in results]
        return {"type": "end", "text": "The game is over. " + "; ".join(lines)}
    if kind == "restart":
        return {"type": "restart", "text": f"The game starts again from the beginning: {data.get('reason')}."}
    if kind == "hello":
        others = ", ".join(who(s) for s in range(int(data.get("players") or 0)) if s != me)
        return {"type": "hello", "text": f"The game starts: you are {who(me)} (seat {me}) against {others}."}
    return {"type": "notice", "text": ""}


def _offer_marks(event: dict[str, Any], me: int) -> dict[str, Any]:
    """What lets the page say how the person's market offers ended: one made, one settled, a round over
    (an offer of the person's that no trade settled by then was refused)."""
    kind, d = event.get("type"), event.get("data") or {}
    if kind == "offer" and d.get("from") == me:
        return {"offer": str(d.get("id"))}
    if kind in ("trade_done", "trade_skipped"):
        return {"settled": str(d.get("offer"))}
    if kind in ("market_round", "market_close"):
        return {"market_round_over": True}
    return {}


@bp.post("/match/<int:match_id>/answer")
@login_required
def answer(match_id: int):
    sat = _sitting(match_id)
    try:
        request_id = int(request.form.get("request", ""))
    except ValueError:
        return _answered(_plain(), match_id, "which decision is this an answer to?", 400)
    values = {k: request.form.getlist(k) for k in request.form if k not in ("csrf_token", "request", "after")}
    plain = _plain()
    try:
        service.answer(relay=relay(), sat=sat, after=request.form.get("after", "0")[:64], request_id=request_id,
                       values=values)
    except RelayError as exc:
        return _answered(plain, match_id, str(exc), 400)
    except ServiceError as exc:
        return _answered(plain, match_id, str(exc), status_for(exc))
    return _answered(plain, match_id, None, 200)


def _plain() -> bool:
    """A form a browser posted without JavaScript (it asks for a page back); play.js says who it is."""
    return request.headers.get("X-Requested-With") != "play.js" and "text/html" in request.headers.get("Accept", "")


def _answered(plain: bool, match_id: int, error: str | None, status: int):
    """play.js gets JSON; a plain form goes back to the table, which shows the next decision."""
    if not plain:
        return (jsonify(error=error), status) if error else jsonify(ok=True)
    from flask import flash

    flash(f"Not sent: {error}" if error else "Sent.", "error" if error else "ok")
    return redirect(url_for(".table", match_id=match_id))
