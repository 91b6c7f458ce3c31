"""The bot page's scorecard panel (ladder/services/scorecard_views.py): the measures with their
one-line definitions, the charts of the main ones, the opponents' rows, and the match list's
opponent and result filters (?opponent=<bot id>&result=won|lost)."""

from __future__ import annotations

from typing import Any

from ladder.games.scorecard import Measure
from ladder.services.scorecard_views import RESULTS, bot_scorecard, recent_matches
from ladder.web.catalog import game_titles
from ladder.web.common import MAX_ID, db, int_arg, text_arg
from ladder.web.svg import measure_chart


def shown(measure: Measure | None, value: float | None) -> str:
    """A figure as the page prints it: a percentage for "%" measures, else three significant digits."""
    if value is None or measure is None:
        return "—"
    if measure.unit == "%":
        return f"{100 * value:.1f}%"
    return f"{value:.3g}{measure.unit}"


def page_context(data: Any, match_url) -> dict[str, Any]:
    """What the panel and the filtered match list add to the bot page's template context."""
    bot = data.bot
    opponent = int_arg("opponent", None, 1, MAX_ID)
    result = text_arg("result", RESULTS)
    context: dict[str, Any] = {"scorecard": None, "shown": shown, "filter_opponent": opponent,
                               "filter_result": result, "results": RESULTS}
    if opponent is not None or result is not None:
        context["filtered"] = recent_matches(session=db(), bot_id=bot.id, opponent_id=opponent, result=result)
    if bot.game not in game_titles():
        return context
    latest = data.versions[0] if data.versions else None
    card = bot_scorecard(session=db(), bot=bot, latest_version_id=latest.id if latest else None,
                         version_numbers={v.id: v.number for v in data.versions})
    context["scorecard"] = card
    context["latest_version"] = latest
    context["charts"] = [(series, measure_chart(series.points, series.marks, match_url, label=series.measure.label,
                                                percent=series.measure.unit == "%")) for series in card.charts]
    return context
