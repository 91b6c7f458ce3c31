"""Bots: the upload form, the bot page (versions, rating chart, recent matches, head-to-head), and the
owner's actions: a new version, retiring the bot or a version, unranked challenges."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ladder.games import get_game
from ladder.ranking.ratings import is_uncertain
from ladder.services import bots as bot_service
from ladder.services import challenges, pages
from ladder.services.builds import build_logs
from ladder.services.errors import NotFound
from ladder.services.leagues import bot_league
from ladder.services.limits import check_upload
from ladder.services.match_lists import matches_by_id
from ladder.services.rejections import rejection_causes
from ladder.services.tournament_views import invitations_for
from ladder.services.uploads import Upload, upload_bot
from ladder.web import bot_data
from ladder.web import lobby as lobby_web
from ladder.web import scorecard as scorecard_web
from ladder.web.catalog import game_titles, runtime_choices, starter_kits
from ladder.web.common import db, dispatch, rating_text, refusals, require_owner, settings
from ladder.web.forms import ActionForm, ChallengeForm, UploadForm, VersionUploadForm
from ladder.web.svg import rating_chart

bp = Blueprint("bots", __name__, url_prefix="/bots")


def _read(file_storage) -> bytes:
    # one byte over the limit is enough to say "too big" without holding a huge body in memory
    return file_storage.stream.read(settings().max_upload_bytes + 1)


def file_hint() -> str:
    """The file field's hint: every entry point this ladder runs (not only main.py)."""
    entries = [r.entry for r in runtime_choices(settings().accepted_runtimes) if r.accepted]
    return (f"one .py file, or a .zip with its entry point at the root: {', '.join(entries)}; "
            f"at most {settings().max_upload_bytes // 1024} KiB")


def _announce(upload: Upload) -> None:
    v = upload.version
    if not upload.created:
        flash(f"{upload.bot.name}: this file is {upload.note}.", "ok")
    elif upload.match is not None:
        dispatch([upload.match.id])
        flash(f"Version {v.number} of {upload.bot.name} is stored; its validation game (match "
              f"{upload.match.id}) is queued against the starter bots.", "ok")
    elif v.status == "rejected":
        flash(f"Version {v.number} was refused: {v.rejection_reason}", "error")
    else:
        flash(f"Version {v.number} is stored; its validation game is not queued yet ({upload.note}).", "error")


@bp.route("/upload", methods=["GET", "POST"])
@login_required
def upload():
    form = UploadForm()
    form.file.description = file_hint()
    form.game.choices = list(game_titles().items())
    form.game.validate_choice = False  # the upload service names the known games in its refusal
    if not form.is_submitted():
        form.game.data = request.args.get("game") or next(iter(game_titles()), None)
        form.name.data = request.args.get("name") or form.name.data
    if form.validate_on_submit():
        check_upload(session=db(), settings=settings(), user_id=current_user.id)
        with refusals() as refused:
            result = upload_bot(
                session=db(), settings=settings(), owner_id=current_user.id, name=(form.name.data or "").strip(),
                game=form.game.data, code=_read(form.file.data), filename=form.file.data.filename,
                description=form.description.data or "")
        if not refused:
            _announce(result)
            return redirect(url_for(".page", bot_id=result.bot.id))
        return _upload_page(form), 400
    return _upload_page(form), 400 if form.errors else 200


def upload_form_after_413(message: str):
    """A body too large to read (413): the upload form again, with the reason, instead of a bare
    error page. Its fields were in the unread body, so the new-bot form comes back empty; a new
    version goes back to its bot page."""
    flash(f"{message} Choose a smaller file (leave build output such as target/ out of a zip).", "error")
    if request.endpoint == "bots.new_version" and request.view_args:
        return redirect(url_for(".page", bot_id=request.view_args["bot_id"]), 303)
    form = UploadForm(formdata=None)
    form.file.description = file_hint()
    form.game.choices = list(game_titles().items())
    return _upload_page(form), 413


def _upload_page(form):
    return render_template("bots/upload.html", form=form, starters=starter_kits(),
                           runtimes=runtime_choices(settings().accepted_runtimes))


def _bot_or_404(bot_id: int):
    try:
        return pages.bot_page(session=db(), bot_id=bot_id, history_times=False)  # the chart shows no times
    except NotFound:
        abort(404)


_URL_MARKER = 918_273_645  # an id no real link contains, replaced by each row's id


def id_url(endpoint: str, key: str) -> Callable[[int], str]:
    """URLs of `endpoint` by integer id: url_for once, then formatting per id. A full bot page has
    240 such links (200 chart points, 20 matches, 20 opponents) and url_for costs about 10 µs each:
    the largest part of what a full page took beyond a new bot's empty one."""
    before, _, after = url_for(endpoint, **{key: _URL_MARKER}).rpartition(str(_URL_MARKER))
    return lambda value: f"{before}{int(value)}{after}"


@bp.get("/<int:bot_id>")
def page(bot_id: int):
    data = _bot_or_404(bot_id)
    owner = current_user.is_authenticated and current_user.id == data.bot.owner_id
    match_url = id_url("matches.page", "match_id")
    history = data.history
    played = data.rating.games if data.rating else len(history)
    chart = rating_chart([(p.match_id, p.after) for p in history], match_url,
                         first=max(played - len(history) + 1, 1),  # the page shows the last points only
                         start=history[0].before if history else 0)
    context = {"data": data, "bot": data.bot, "owner": owner, "chart": chart, "match_url": match_url,
               "bot_url": id_url(".page", "bot_id"),
               "uncertain": data.rating is not None and is_uncertain(data.rating.deviation),
               "league": bot_league(session=db(), bot=data.bot, names=settings().leagues)}
    context.update(scorecard_web.page_context(data, match_url))  # the scorecard panel, the match list's filters
    if owner:
        ids = [v.validation_match_id for v in data.versions if v.validation_match_id]
        context["validations"] = matches_by_id(session=db(), match_ids=ids)
        context["causes"] = rejection_causes(session=db(), versions=data.versions, owner_id=data.bot.owner_id,
                                             viewer_id=current_user.id)
        context["builds"] = build_logs(session=db(), versions=data.versions)
        context["upload_form"] = VersionUploadForm()
        context["upload_form"].file.description = file_hint()
        # a challenge seats the bot's active version: with none, the form would only be refused
        context["active"] = next((v for v in data.versions if v.status == "active"), None)
        context["action_form"] = ActionForm()
        context["challenge_form"] = _challenge_form(data.bot)
        # the game's min/max players: how many opponents the challenge form asks for
        context["table"] = get_game(data.bot.game) if data.bot.game in game_titles() else None
        context["invitations"] = [event for event, bot in invitations_for(session=db(), user_id=current_user.id)
                                  if bot.id == data.bot.id]
        if not data.bot.remote:  # a program run at home keeps its own files: no folder here
            context.update(bot_data.owner_context(data.bot.id))  # its data folder (ladder/web/bot_data.py)
        context.update(lobby_web.owner_context(data.bot))  # a remote bot's open ladder (ladder/web/lobby.py)
    return render_template("bots/page.html", **context)


def _challenge_form(bot) -> ChallengeForm:
    form = ChallengeForm()
    form.opponents.choices = [(vid, f"{name} ({owner}, {rating_text(rating)})")
                              for vid, name, owner, rating in challenges.challenge_candidates(session=db(), bot=bot)]
    return form


@bp.post("/<int:bot_id>/versions")
@login_required
def new_version(bot_id: int):
    bot = _owned_bot(bot_id)
    form = VersionUploadForm()
    if not form.validate_on_submit():
        flash("; ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(url_for(".page", bot_id=bot_id))
    check_upload(session=db(), settings=settings(), user_id=current_user.id)
    with refusals() as refused:
        result = upload_bot(session=db(), settings=settings(), owner_id=current_user.id, name=bot.name,
                            game=bot.game, code=_read(form.file.data), filename=form.file.data.filename,
                            bot=bot)
    if not refused:
        _announce(result)
    return redirect(url_for(".page", bot_id=bot_id))


def _owned_bot(bot_id: int):
    try:
        bot = bot_service.get_bot(session=db(), bot_id=bot_id)
    except NotFound:
        abort(404)
    require_owner(bot.owner_id)
    return bot


@bp.post("/<int:bot_id>/retire")
@login_required
def retire(bot_id: int):
    bot = _owned_bot(bot_id)
    if ActionForm().validate_on_submit():
        with refusals() as refused:
            bot_service.retire_bot(session=db(), bot_id=bot.id, acting_user_id=current_user.id)
        if not refused:
            flash(f"{bot.name} is retired: it leaves the leaderboard; its history stays.", "ok")
    return redirect(url_for(".page", bot_id=bot_id))


@bp.post("/<int:bot_id>/versions/<int:version_id>/retire")
@login_required
def retire_version(bot_id: int, version_id: int):
    bot = _owned_bot(bot_id)
    version = bot_service.version_of(session=db(), version_id=version_id)
    if version is None or version.bot_id != bot.id:
        abort(404)
    if ActionForm().validate_on_submit():
        with refusals() as refused:
            bot_service.retire_version(session=db(), version_id=version_id, acting_user_id=current_user.id)
        if not refused:
            flash(f"Version {version.number} is retired.", "ok")
    return redirect(url_for(".page", bot_id=bot_id))


@bp.post("/<int:bot_id>/challenge")
@login_required
def challenge(bot_id: int):
    bot = _owned_bot(bot_id)
    form = _challenge_form(bot)
    if not form.validate_on_submit():
        flash("; ".join(e for errors in form.errors.values() for e in errors), "error")
        return redirect(url_for(".page", bot_id=bot_id))
    with refusals() as refused:  # the API's challenge is the same use case (ladder/web/api/challenges.py)
        match = challenges.challenge(session=db(), settings=settings(), user_id=current_user.id, bot_id=bot.id,
                                     opponents=form.opponents.data)
    if not refused:
        dispatch([match.id])
        flash(f"Challenge queued: match {match.id} (unranked).", "ok")
        return redirect(url_for("matches.page", match_id=match.id))
    return redirect(url_for(".page", bot_id=bot_id))
