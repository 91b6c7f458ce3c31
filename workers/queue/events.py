"""Tournament (event) matches for the workers: what each scheduler tick adds for running events.

`feed` queues scheduled event matches while fewer than `settings.event_slots` are queued or
running (the share of the workers events may take; the ladder's own queue is topped up as
before, so it keeps playing), advances Swiss rounds and finishes events
(ladder/services/tournaments.py). The ids it returns go to the bulk match queue like ladder
matches; a match is claimed, played and recorded by workers.queue.jobs.play_match exactly like any
other, and being unranked it never changes a rating. First, each tick moves the seasons on
(a season past its end starts its final, an event like any other; a season whose final ended is
archived: ladder/services/seasons.py), then starts the open events whose registration deadline
has passed (start_due_events).
"""

from __future__ import annotations

import logging

from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from ladder.config import Settings
from ladder.db import session_scope
from ladder.services.queue_control import draining
from ladder.services.seasons import advance_seasons
from ladder.services.tournaments import feed_events, start_due_events

log = logging.getLogger(__name__)


def feed(sessions: sessionmaker[Session], settings: Settings) -> list[int]:
    with session_scope(sessions) as session:
        for season_id, what in advance_seasons(session=session).items():
            log.info("season %s: %s", season_id, what)
    with session_scope(sessions) as session:
        # open events start at their deadline even while events are paused (slots 0): the field
        # is frozen then, whatever the workers do; each start is guarded, so ticks may race
        for event_id, what in start_due_events(session=session).items():
            log.info("event %s at its deadline: %s", event_id, what)
    if settings.event_slots <= 0:
        return []
    with session_scope(sessions) as session:
        if draining(session=session):  # nothing new while the ladder drains (workers/queue/scheduler.py)
            return []
        session.commit()
        return feed_events(session=session, slots=settings.event_slots, sandbox=settings.sandbox_mode)
