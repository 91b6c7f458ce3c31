"""Leaderboards: one per game, paginated; the starter bots stand on it as fixed reference points."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, url_for

from ladder.services import leagues as league_service
from ladder.services import pages
from ladder.services import seasons as season_service
from ladder.services.errors import NotFound
from ladder.services.match_lists import recent_matches, seats_by_match
from ladder.web.catalog import game_titles
from ladder.web.common import db, int_arg, settings

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
    return render_template("leaderboard/game.html", board=board, title=game_titles()[game],
                           has_leagues=bool(league_service.leagues_of(game, settings().leagues)),
                           season=season_service.current_season(session=db(), game=game))


@bp.get("/leaderboard/<game>/leagues")
def leagues(game: str):
    """The game's leagues (ladder/ranking/leagues.py): each one's boss and standings, the latest promotions."""
    if game not in game_titles():
        abort(404)
    standings = league_service.standings(session=db(), game=game, names=settings().leagues)
    if not standings:  # a game with one flat ladder
        abort(404)
    return render_template("leaderboard/leagues.html", standings=standings, game=game, title=game_titles()[game],
                           moves=league_service.recent_moves(session=db(), game=game))


@bp.get("/leaderboard/<game>/seasons")
def seasons(game: str):
    """The game's seasons, the current one first; past ones stay browsable."""
    if game not in game_titles():
        abort(404)
    return render_template("leaderboard/seasons.html", game=game, title=game_titles()[game],
                           seasons=season_service.seasons_of(session=db(), game=game))


@bp.get("/seasons/<int:season_id>")
def season(season_id: int):
    """One season: its dates, its final (an event: its matches and replays), its archived standings."""
    try:
        view = season_service.season_view(session=db(), season_id=season_id)
    except NotFound:
        abort(404)
    return render_template("leaderboard/season.html", view=view,
                           title=game_titles().get(view.season.game, view.season.game))


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
