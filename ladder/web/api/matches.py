"""Matches in the JSON API: the newest (filtered and paged by id), one match with its seats, its
replay as the reader may see it, and a seat's log for the seat's owner."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Response, abort, jsonify, request, url_for

from ladder.models import MatchStatus, SeatPublic
from ladder.ranking.ratings import to_points
from ladder.replay import dumps_replay
from ladder.services import pages
from ladder.services.errors import Forbidden, NotFound
from ladder.services.event_hold import held_ids
from ladder.services.match_lists import MatchFilter, list_matches
from ladder.services.users import get_user_by_name
from ladder.web.api.common import dump, match_json, reader_id, token_user
from ladder.web.catalog import game_titles
from ladder.web.common import MAX_ID, db, int_arg, text_arg
from ladder.web.matches import load_replay_for


def _time_arg(name: str) -> datetime | None:
    raw = text_arg(name, max_length=40)
    if raw is None:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        abort(400, f"{name} must be an ISO 8601 time, e.g. 2026-11-25T18:00:00Z or 2026-11-25")
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _owner_arg() -> int | None:
    owner = text_arg("owner", max_length=64)
    if owner is None:
        return None
    if owner == "me":
        return token_user().id
    user = get_user_by_name(session=db(), username=owner)
    if user is None:
        abort(400, f"owner must be 'me' (with a token) or a user's name; there is no user {owner!r}")
    return user.id


def matches():
    """The newest matches, filtered (bot, owner, game, status, time) and paged by id."""
    limit = int_arg("limit", 50, 1, 200)
    where = MatchFilter(game=text_arg("game", game_titles()), bot_id=int_arg("bot", None, 1, MAX_ID),
                        owner_id=_owner_arg(), status=text_arg("status", [s.value for s in MatchStatus]),
                        since=_time_arg("since"), until=_time_arg("until"), before=int_arg("before", None, 1, MAX_ID))
    rows = list_matches(session=db(), where=where, limit=limit)
    following = None
    if len(rows) == limit:  # maybe more: the same query from below the last id
        following = url_for(".matches", **{**request.args.to_dict(), "before": rows[-1].id}, _external=True)
    held = held_ids(db(), [m.id for m in rows])
    return jsonify(matches=[match_json(m, m.id in held) for m in rows], next=following)


def match(match_id: int):
    view = pages.match_detail(session=db(), match_id=match_id)
    seats = [{**dump(SeatPublic, s.seat), "bot": s.bot_name, "owner": s.owner_name, "version": s.version_number,
              "rating_delta": None if s.rating_delta is None else to_points(s.rating_delta), "person": s.person}
             for s in view.seats]
    replay = url_for(".replay", match_id=match_id, _external=True) if view.has_replay else None
    return jsonify(match=match_json(view.match, view.held), seats=seats, replay=replay)


def replay(match_id: int):
    view = pages.match_detail(session=db(), match_id=match_id)
    viewer = reader_id()
    data = load_replay_for(match_id, {s.seat.seat for s in view.seats if viewer is not None and s.owner_id == viewer})
    if data is None:
        raise NotFound(f"match {match_id} has no replay")
    return Response(dumps_replay(data), mimetype="application/json")


def seat_log(match_id: int, seat: int):
    try:
        log = pages.bot_log(session=db(), match_id=match_id, seat=seat, viewer_id=token_user().id)
    except Forbidden:
        raise NotFound(f"no log of seat {seat} of match {match_id} for you") from None
    return jsonify(match_id=match_id, seat=seat, text=log.text if log else "", truncated=bool(log and log.truncated))
