"""The ratings' accuracy report of each game: a page linked from its leaderboard (the API's is
ladder/web/api/leaderboards.py's `accuracy`). Both serve the stored report (the scheduler computes
it: ladder/services/rating_reports.py), so they cost one primary-key read at any history size."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ladder.services.rating_reports import stored_report
from ladder.web.catalog import game_titles
from ladder.web.common import db

bp = Blueprint("rating_report", __name__)


@bp.get("/leaderboard/<game>/accuracy")
def page(game: str):
    if game not in game_titles():  # before any query
        abort(404)
    row = stored_report(session=db(), game=game)
    return render_template("leaderboard/accuracy.html", game=game, title=game_titles()[game], row=row,
                           report=row.body if row else None)
