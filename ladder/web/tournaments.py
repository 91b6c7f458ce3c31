"""Tournaments (events): the list, an admin's form to create one, the event page (progress,
entrants, standings with intervals, crosstable, every match with its replay) and the entry,
withdrawal, invitation (accept / decline), start and cancel buttons. Thin:
ladder/services/tournaments.py decides and explains."""

from __future__ import annotations

from datetime import UTC

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ladder.services import tournament_views as views
from ladder.services import tournaments as service
from ladder.services.errors import Invalid, NotFound
from ladder.web.catalog import game_titles
from ladder.web.common import db, refusals, user_id
from ladder.web.forms import ActionForm, EntryForm, EventForm

bp = Blueprint("events", __name__, url_prefix="/events")


def _parse_options(text: str | None) -> dict[str, str]:
    options = {}
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise Invalid(f"game option {line.strip()!r}: write it as key=value")
        options[key.strip()] = value.strip()
    return options


def _is_admin() -> bool:
    return bool(current_user.is_authenticated and current_user.is_admin)


@bp.route("/")
def index():
    return render_template("events/index.html", events=views.list_events(session=db()), admin=_is_admin())


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new():
    if not _is_admin():
        abort(403)
    form = EventForm()
    form.game.choices = list(game_titles().items())
    if form.validate_on_submit():
        with refusals() as refused:
            deadline = form.deadline.data.replace(tzinfo=UTC) if form.deadline.data else None
            event = service.create_event(
                session=db(), organizer_id=current_user.id, name=form.name.data, game=form.game.data,
                table_size=form.table_size.data, deals=form.deals.data, format=form.format.data,
                rounds=form.rounds.data or 1, duplicate=form.duplicate.data, options=_parse_options(form.options.data),
                open_registration=form.open_registration.data, deadline=deadline)
        if not refused:
            flash(f"Event {event.name!r} created: invite bots, then start it.", "ok")
            return redirect(url_for(".page", event_id=event.id))
        return render_template("events/new.html", form=form), 400
    return render_template("events/new.html", form=form), 400 if form.errors else 200


@bp.route("/<int:event_id>")
def page(event_id: int):
    try:
        view = views.event_view(session=db(), event_id=event_id)
    except NotFound:
        abort(404)
    me = user_id()
    organizer = me is not None and me == view.event.organizer_id and _is_admin()
    mine = views.own_bots(session=db(), user_id=me, game=view.event.game) if me else []
    keys = [r.entrant.key for r in view.standings.rows]
    return render_template("events/page.html", view=view, organizer=organizer, mine=mine, keys=keys,
                           names={str(b): n for b, n, _ in view.entrants}, entry=EntryForm(), action=ActionForm())


@bp.route("/<int:event_id>/enter", methods=["POST"])
@login_required
def enter(event_id: int):
    form = EntryForm()
    if form.validate_on_submit():
        with refusals():
            event = views.event_view(session=db(), event_id=event_id).event
            bot = views.find_bot(session=db(), game=event.game, ref=form.bot.data)
            service.add_entrant(session=db(), event_id=event_id, bot_id=bot.id, acting_user_id=current_user.id)
            flash(f"{form.bot.data} is entered.", "ok")
    else:
        flash("name the bot as owner/name", "error")
    return redirect(url_for(".page", event_id=event_id))


@bp.route("/<int:event_id>/withdraw/<int:bot_id>", methods=["POST"])
@login_required
def withdraw(event_id: int, bot_id: int):
    if ActionForm().validate_on_submit():
        with refusals():
            service.withdraw_entrant(session=db(), event_id=event_id, bot_id=bot_id, acting_user_id=current_user.id)
            flash("Withdrawn.", "ok")
    return redirect(url_for(".page", event_id=event_id))


@bp.route("/<int:event_id>/start", methods=["POST"])
@login_required
def start(event_id: int):
    if ActionForm().validate_on_submit():
        with refusals():
            dropped = service.start_event(session=db(), event_id=event_id, acting_user_id=current_user.id)
            flash("Started: the workers play its matches." + (
                f" Dropped (no active version): {', '.join(dropped)}." if dropped else ""), "ok")
    return redirect(url_for(".page", event_id=event_id))


@bp.route("/<int:event_id>/invitation/<int:bot_id>/<any(accept, decline):answer>", methods=["POST"])
@login_required
def answer(event_id: int, bot_id: int, answer: str):
    if ActionForm().validate_on_submit():
        with refusals():
            service.answer_invitation(session=db(), event_id=event_id, bot_id=bot_id, acting_user_id=current_user.id,
                                      accept=answer == "accept")
            flash("Invitation accepted: your bot is entered." if answer == "accept" else "Invitation declined.", "ok")
    return redirect(url_for(".page", event_id=event_id))


@bp.route("/<int:event_id>/cancel", methods=["POST"])
@login_required
def cancel(event_id: int):
    if ActionForm().validate_on_submit():
        with refusals():
            stopped = service.cancel_event(session=db(), event_id=event_id, acting_user_id=current_user.id)
            flash(f"Cancelled; {stopped} queued or running match(es) stopped, nothing rated.", "ok")
    return redirect(url_for(".page", event_id=event_id))
