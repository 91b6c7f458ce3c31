"""The games and their leaderboards: the sandboxed ladder's, and the open ladder's (remote bots
rated among themselves, docs/remote.md)."""

from __future__ import annotations

from flask import jsonify, url_for

from ladder.services import pages
from ladder.services.errors import NotFound
from ladder.services.rating_reports import stored_report
from ladder.web.api.common import leaderboard_json
from ladder.web.catalog import game_titles
from ladder.web.common import db, int_arg


def games():
    return jsonify(games=[{"name": n, "title": t, "leaderboard": url_for(".leaderboard", game=n, _external=True)}
                          for n, t in game_titles().items()])


def leaderboard(game: str):
    if game not in game_titles():
        raise NotFound(f"unknown game {game!r}")
    board = pages.leaderboard(session=db(), game=game, page=int_arg("page", 1, 1, 10**6),
                              per_page=int_arg("per_page", 50, 1, pages.MAX_PER_PAGE))
    return leaderboard_json(game, board)


def open_leaderboard(game: str):
    """The open ladder: remote bots rated among themselves."""
    if game not in game_titles():
        raise NotFound(f"unknown game {game[:40]!r}")
    board = pages.leaderboard(session=db(), game=game, page=int_arg("page", 1, 1, 10**6),
                              per_page=int_arg("per_page", 50, 1, pages.MAX_PER_PAGE), remote=True)
    return leaderboard_json(game, board)


def accuracy(game: str):
    """The game's ratings accuracy report as the scheduler last stored it (docs/ratings.md, "The
    accuracy report"); `report` null before its first run."""
    if game not in game_titles():
        raise NotFound(f"unknown game {game[:40]!r}")
    row = stored_report(session=db(), game=game)
    return jsonify(game=game, computed_at=row.computed_at.isoformat() if row else None,
                   report=row.body if row else None)
