"""The leagues and seasons in the API (docs/api.md): a game's leagues with their bosses and
standings, a bot's league (in the bot's own answer: bots.py), a game's seasons and one season's
archived final."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from ladder.ranking.ratings import to_points
from ladder.services import leagues as league_service
from ladder.services import seasons as season_service
from ladder.services.errors import NotFound
from ladder.web.catalog import game_titles
from ladder.web.common import db, settings


def progress_json(progress: league_service.Progress | None) -> dict[str, Any] | None:
    if progress is None:
        return None
    return {"meetings": progress.meetings, "above": progress.above, "below": progress.below, "ties": progress.ties,
            "record": progress.record, "needed": progress.needed}


def bot_league_json(league: league_service.BotLeague | None) -> dict[str, Any] | None:
    """A bot's league as its answer carries it; None for a game without leagues or a remote bot."""
    if league is None:
        return None
    return {"index": league.league.index, "name": league.league.name, "boss": league.league.boss or None,
            "boss_bot_id": league.boss_id, "next": league.next.name if league.next else None,
            "house": league.house, "progress": progress_json(league.progress),
            "promotions": [{"from": m.from_league, "to": m.to_league, "at": m.at.isoformat(), "match_id": m.match_id}
                           for m in league.moves]}


def leagues(game: str):
    if game not in game_titles():
        raise NotFound(f"unknown game {game!r}")
    standings = league_service.standings(session=db(), game=game, names=settings().leagues)
    if not standings:
        raise NotFound(f"{game} has one flat ladder, no leagues")
    return jsonify(game=game, leagues=[{
        "index": s.league.index, "name": s.league.name, "boss": s.league.boss or None, "boss_bot_id": s.boss_id,
        "open": s.league.open, "total": s.total,
        "members": [{"bot_id": m.bot_id, "bot": m.name, "owner": m.owner,
                     "rating": None if m.rating is None else to_points(m.rating), "games": m.games,
                     "house": m.house, "boss": m.boss, "progress": progress_json(m.progress)} for m in s.members],
    } for s in standings], promotions=[
        {"bot_id": move.bot_id, "bot": name, "from": move.from_league, "to": move.to_league,
         "at": move.at.isoformat(), "match_id": move.match_id}
        for move, name in league_service.recent_moves(session=db(), game=game)])


def _season_json(season) -> dict[str, Any]:
    return {"id": season.id, "game": season.game, "name": season.name, "status": season.status,
            "opened_at": season.opened_at.isoformat(), "ends_at": season.ends_at.isoformat(),
            "closed_at": season.closed_at.isoformat() if season.closed_at else None,
            "finalists": season.finalists, "final_rounds": season.final_rounds, "final_deals": season.final_deals,
            "event_id": season.event_id}


def seasons(game: str):
    if game not in game_titles():
        raise NotFound(f"unknown game {game!r}")
    return jsonify(game=game, seasons=[_season_json(s) for s in season_service.seasons_of(session=db(), game=game)])


def season(season_id: int):
    view = season_service.season_view(session=db(), season_id=season_id)
    return jsonify(season=_season_json(view.season), standings=[
        {"place": r.place, "bot_id": r.bot_id, "bot": r.name, "league": r.league,
         "rating": None if r.rating is None else to_points(r.rating), "matches": r.matches, "wins": r.wins,
         "rank": {"mean": r.mean_rank, "low": r.rank_low, "high": r.rank_high}, "score": r.mean_score}
        for r in view.standings])
