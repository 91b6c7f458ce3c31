"""A bot's scorecard in the JSON API (docs/api.md, "Scorecards"; docs/scorecard.md for the
measures; the routes: ladder/web/api/__init__.py): per bot (every version, the latest, per table
size, the winners at its tables), per version, and per opponent (both sides' figures and the
margin). Public, as the bot page is."""

from __future__ import annotations

from flask import jsonify

from ladder.services import scorecard_views as views
from ladder.web.common import db


def scorecard(bot_id: int):
    bot, latest, card = views.api_scorecard(session=db(), bot_id=bot_id)
    measures = {row.measure.name: {"value": row.value, "latest_version": row.latest, "winners": row.winners,
                                   "by_players": {str(n): v for n, v, count in zip(card.sizes, row.by_size,
                                                                                   card.size_matches, strict=True)
                                                  if count}}
                for row in card.rows}
    return jsonify({"bot_id": bot.id, "game": bot.game, "matches": card.matches,
                    "latest_version": {"id": latest[0], "number": latest[1], "matches": card.latest_matches}
                    if latest else None,
                    "matches_by_players": {str(n): c for n, c in zip(card.sizes, card.size_matches, strict=True) if c},
                    "measures": measures, "definitions": views.definitions(bot.game),
                    "opponents": [_opponent(o) for o in card.opponents]})


def _opponent(row) -> dict:
    return {"bot_id": row.opponent_id, "name": row.name, "owner": row.owner, "matches": row.matches,
            "measures": {m.name: {"value": mine, "opponent": theirs, "margin": margin}
                         for m, mine, theirs, margin in row.values}}


def version_scorecard(bot_id: int, number: int):
    bot, figures = views.api_version_scorecard(session=db(), bot_id=bot_id, number=number)
    return jsonify({"bot_id": bot.id, "game": bot.game, "version": number, **figures})


def opponent_scorecard(bot_id: int, opponent_id: int):
    """Every measure of its matches with that opponent, and the opponent's in the same matches."""
    return jsonify(views.api_opponent_scorecard(session=db(), bot_id=bot_id, opponent_id=opponent_id))
