"""What of a duplicate-seated event's match is held back until every seat order of its deal is over.

Every order (and, in a round robin, every table) of a deal plays one seed: the first order to
finish would tell the seed, the board and every public event of the orders still queued or
playing, to anyone reading its replay, its page, the API or a dataset, and through them to an
entrant that can act on it. So while an order of the deal is unplayed or busy (and its event
running), each of the deal's matches is *held*: no seed, no replay (page, viewer, download, API),
no bots' logs, no live feed (the worker withholds it: workers/queue/jobs.py), not in an export or
a daily dump (services/export.py, dumps.py). A cancelled event's unplayed orders never play: it
holds nothing. Results (ranks, scores, standings) are not held: they say how a bot did, not the deal.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, exists, or_
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from ladder.models import EventMatch, EventStatus, Match, MatchStatus, TournamentEvent

_BUSY = (MatchStatus.QUEUED, MatchStatus.RUNNING)
HELD = "held until every seat order of its deal has been played (a duplicate-seated event)"


def duplicate_deal(match_id: ColumnElement = Match.id) -> ColumnElement[bool]:
    """Whether the match is an order of a duplicate-seated event's deal (all share its seed)."""
    return exists(select(EventMatch.index).join(TournamentEvent, TournamentEvent.id == EventMatch.event_id)
                  .where(EventMatch.match_id == match_id, TournamentEvent.duplicate == True))  # noqa: E712


def held(match_id: ColumnElement = Match.id) -> ColumnElement[bool]:
    """Whether the match is held: an order of its running event's deal is unplayed or busy."""
    mine, other, played = aliased(EventMatch), aliased(EventMatch), aliased(Match)
    open_order = (select(other.index).outerjoin(played, played.id == other.match_id)
                  .where(other.event_id == mine.event_id, other.deal == mine.deal,
                         or_(other.match_id.is_(None), played.status.in_(_BUSY))))
    return exists(select(mine.index).join(TournamentEvent, TournamentEvent.id == mine.event_id)
                  .where(mine.match_id == match_id, TournamentEvent.duplicate == True,  # noqa: E712
                         TournamentEvent.status == EventStatus.RUNNING, exists(open_order)))


def held_ids(session: Session, match_ids: Iterable[int]) -> set[int]:
    ids = sorted(set(match_ids))
    if not ids:
        return set()
    return set(session.exec(select(Match.id).where(Match.id.in_(ids), held())).all())


def is_held(session: Session, match_id: int) -> bool:
    return bool(held_ids(session, [match_id]))
