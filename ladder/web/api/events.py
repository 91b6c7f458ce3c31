"""Events (tournaments) in the JSON API, read-only: the list and one event with its entrants,
standings (mean rank and score with 95% intervals) and progress. Described in
ladder/web/api/openapi.py; what they read comes from ladder/services/tournament_views.py, the same
as the event pages."""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for

from ladder.models import TournamentEvent
from ladder.services import tournament_views as views
from ladder.tournaments.standings import Interval
from ladder.web.common import db, int_arg


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def _event(event: TournamentEvent) -> dict[str, Any]:
    return {"id": event.id, "name": event.name, "game": event.game, "format": event.format,
            "status": event.status, "table_size": event.table_size, "deals": event.deals, "rounds": event.rounds,
            "duplicate": event.duplicate, "options": dict(event.options),
            "open_registration": event.open_registration, "deadline": _when(event.deadline),
            "created_at": _when(event.created_at), "started_at": _when(event.started_at),
            "finished_at": _when(event.finished_at),
            "url": url_for("api.event", event_id=event.id, _external=True)}


def _interval(interval: Interval, played: int) -> dict[str, float] | None:
    # a bot with no match yet has no mean (NaN), which JSON cannot carry: null
    return {"mean": interval.mean, "low": interval.low, "high": interval.high} if played else None


def events():
    return jsonify(events=[_event(e) for e in views.list_events(session=db(), limit=int_arg("limit", 50, 1, 200))])


def event(event_id: int):
    view = views.event_view(session=db(), event_id=event_id)  # NotFound: a JSON 404
    done, scheduled = view.progress
    return jsonify(
        event=_event(view.event),
        entrants=[{"bot_id": bot_id, "name": name, "version_id": version} for bot_id, name, version in view.entrants],
        invitations=[{"bot_id": bot_id, "name": name} for bot_id, name in view.invitations],
        progress={"done": done, "scheduled": scheduled},
        standings=[{"position": n, "bot_id": int(r.entrant.key), "name": r.entrant.name, "matches": r.matches,
                    "wins": r.wins, "forfeits": r.forfeits, "rank": _interval(r.rank, r.matches),
                    "score": _interval(r.score, r.matches)} for n, r in enumerate(view.standings.rows, 1)],
        excluded=[{"index": index, "why": why} for index, why in view.standings.excluded],
        matches=[{"index": row.index, "round": row.round, "table": row.table_no, "deal": row.deal,
                  "seats": list(row.seats), "match_id": row.match_id, "status": status or "scheduled"}
                 for row, status in view.matches],
    )
