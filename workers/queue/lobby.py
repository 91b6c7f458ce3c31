"""The open ladder's scheduler tick (ladder/services/lobby.py): run by the same beat tick as the
sandboxed ladder's tables (workers/queue/tasks.py `schedule_matches`), so `ladder up`'s embedded
beat and a deployment's `ladder beat` both run it, and only one of it runs at a time.

Whether a paired program ever connected to its seat is read from the relay: the web tier marks
each connection on the seat's up topic (ladder/web/api/seat_socket.py), the marks the worker reads too.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from ladder.config import Settings
from ladder.db import session_scope
from ladder.games import available_games
from ladder.relay import seat_relay
from ladder.services import lobby
from ladder.services.queue_control import draining

log = logging.getLogger(__name__)


def connected_ever(relay: Any) -> lobby.Showed:
    """Did any connection reach seat `seat` of match `match_id` (a `connect` mark on its topic)?"""

    def showed(match_id: int, seat: int) -> bool:
        after = "0"
        while True:
            batch = relay.read(seat_relay.up_topic(match_id, seat), after, limit=1000)
            if not batch:
                return False
            if any(m.data.get("mark") == "connect" for m in batch):
                return True
            after = batch[-1].id

    return showed


def schedule_open(sessions: sessionmaker[Session], settings: Settings, relay: Any,
                  rng: random.Random | None = None) -> list[int]:
    """Settle and pair each game's lobby; the ids of the open-ladder matches queued. Draining
    queues nothing new (as the sandboxed ladder's tick); one game's failure leaves the others."""
    rng = rng or random.Random()
    made: list[int] = []
    with session_scope(sessions) as session:
        if draining(session=session):
            return made
        session.commit()
        for game in available_games():
            try:
                made += lobby.pair(session=session, game=game, rng=rng, sandbox=settings.sandbox_mode,
                                   showed=connected_ever(relay))
            except Exception:
                session.rollback()
                log.exception("open ladder: pairing %s failed; going on with the rest", game)
    if made:
        log.info("open ladder: queued %s", made)
    return made
