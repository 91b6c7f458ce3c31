"""Leaderboards: one per game, paginated; the starter bots stand on it as fixed reference points."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, url_for

from ladder.services import pages
from ladder.services.match_lists import recent_matches, seats_by_match
from ladder.web.catalog import game_titles
from ladder.web.common import db, int_arg

bp = Blueprint("leaderboard", __name__)


def page_number() -> int:
    return int_arg("page", 1, 1, 10**6)  # a bounded whole number, else 400 with the reason


@bp.get("/")
def index():
    """The front page: every game's top ten and the latest matches."""
    titles = game_titles()
    if len(titles) == 1:
        return redirect(url_for(".game", game=next(iter(titles))))
    boards = {name: pages.leaderboard(session=db(), game=name, per_page=10) for name in titles}
    latest = recent_matches(session=db(), limit=10)
    return render_template("leaderboard/index.html", boards=boards, latest=latest,
                           standings=seats_by_match(session=db(), match_ids=[m.id for m in latest]))


@bp.get("/leaderboard/<game>")
def game(game: str):
    if game not in game_titles():
        abort(404)
    board = pages.leaderboard(session=db(), game=game, page=page_number(),
                              per_page=current_app.config["LEADERBOARD_PAGE_SIZE"])
    if board.page > board.pages:
        abort(404)
    return render_template("leaderboard/game.html", board=board, title=game_titles()[game])


@bp.get("/leaderboard/<game>/open")
def open_ladder(game: str):
    """The open ladder: bots played from outside the sandbox (docs/remote.md), rated among themselves."""
    if game not in game_titles():  # before any query: a name with NUL never reaches the database
        abort(404)
    board = pages.leaderboard(session=db(), game=game, page=page_number(),
                              per_page=current_app.config["LEADERBOARD_PAGE_SIZE"], remote=True)
    if board.page > board.pages:
        abort(404)
    from ladder.services.lobby import lobby_counts

    waiting = lobby_counts(session=db()).get(game, 0)  # the lobby (ladder/web/lobby.py)
    return render_template("leaderboard/open.html", board=board, title=game_titles()[game], waiting=waiting)
