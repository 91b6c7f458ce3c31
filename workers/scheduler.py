"""The periodic work behind Celery beat's ticks: keep the queue fed, sweep what dead workers left.

Each function does its database work through the services (each service call commits on its
own) and returns the ids of the matches it queued, so the task sends them to the broker only
after they are committed. The database is the queue of record; a broker message only says
"look at match N", and a duplicate message is harmless because claiming is guarded.
"""

from __future__ import annotations

import logging
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import func
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session, select

from ladder.config import Settings
from ladder.db import session_scope
from ladder.games import available_games, get_game
from ladder.matchmaking import TableSize, make_tables
from ladder.models import Bot, BotVersion, Match, MatchKind, MatchStatus, VersionStatus, utcnow
from ladder.services.bots import reject_version
from ladder.services.errors import ServiceError
from ladder.services.matches import matchmaking_pool, queue_match, queue_validation_match, requeue_stale

log = logging.getLogger(__name__)


@dataclass
class Queued:
    """Match ids to send, by the queue that should carry them."""

    ladder: list[int] = field(default_factory=list)  # rated and event matches: the bulk queue
    priority: list[int] = field(default_factory=list)  # validation and challenge games: users wait

    def add(self, match_id: int, kind: str) -> None:
        bulk = kind in (MatchKind.LADDER, MatchKind.EVENT)  # tournament matches queue with the ladder's
        (self.ladder if bulk else self.priority).append(match_id)

    def __len__(self) -> int:
        return len(self.ladder) + len(self.priority)


def table_sizes(game: str) -> TableSize:
    return TableSize.of(get_game(game))


def validate_version(session: Session, version_id: int, settings: Settings) -> int | None:
    """Check a pending version's package, then queue its validation game; the match id or None
    (refused: the version is rejected with the packaging reason; or it is no longer pending)."""
    from workers.packaging import PackagingError, remove_staged, stage

    version = session.get(BotVersion, version_id)
    if version is None or version.status != VersionStatus.PENDING:
        return None
    with tempfile.TemporaryDirectory(prefix="ladder-validate-") as tmp:
        upload = f"{tmp}/{version.filename.rsplit('/', 1)[-1]}"
        with open(upload, "wb") as fh:
            fh.write(version.code)
        try:
            staged = stage(upload, tmp)
            remove_staged(staged.path)
        except PackagingError as exc:
            reject_version(session=session, version_id=version_id, reason=str(exc))
            return None
    session.commit()
    try:
        match = queue_validation_match(session=session, version_id=version_id, house_username=settings.house_username,
                                       sandbox=settings.sandbox_mode)
    except ServiceError as exc:
        log.info("version %s: no validation game yet: %s", version_id, exc)
        return None
    return match.id


def schedule(sessions: sessionmaker[Session], settings: Settings, rng: random.Random | None = None) -> Queued:
    """One scheduler tick: validation games for pending versions, then ladder tables per game until
    `queue_target` matches wait (at most `tables_per_tick` new ones per game)."""
    rng = rng or random.Random()
    queued = Queued()
    with session_scope(sessions) as session:
        pending = session.exec(
            select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
            .where(BotVersion.status == VersionStatus.PENDING, Bot.retired == False)  # noqa: E712
            .order_by(BotVersion.id).limit(settings.tables_per_tick)
        ).all()
        session.commit()
        for version_id in pending:
            match_id = validate_version(session, version_id, settings)
            if match_id is not None:
                queued.add(match_id, MatchKind.VALIDATION)
        for game in available_games():
            waiting = session.exec(
                select(func.count()).select_from(Match)
                .where(Match.game == game, Match.status == MatchStatus.QUEUED, Match.kind == MatchKind.LADDER)
            ).one()
            pool = matchmaking_pool(session=session, game=game, house_username=settings.house_username)
            session.commit()
            count = min(settings.tables_per_tick, settings.queue_target - waiting)
            if count <= 0:
                continue
            tables = make_tables(pool.candidates, table_sizes(game), rng, time.time(), count,
                                 exclude=pool.busy, house_owner=pool.house_owner)
            for table in tables:
                try:
                    match = queue_match(session=session, game=game, seats=table, sandbox=settings.sandbox_mode)
                except ServiceError as exc:  # a bot retired between the pool and the table
                    log.info("%s: table not queued: %s", game, exc)
                    continue
                queued.add(match.id, MatchKind.LADDER)
    return queued


def sweep(sessions: sessionmaker[Session], settings: Settings, *, broker_idle: bool) -> tuple[Queued, list[int]]:
    """Requeue matches left running by a dead worker (or fail them after max attempts), and, when
    the broker holds no waiting message, re-send queued matches whose message was lost (a worker
    killed between taking a message and claiming its match). (to send, failed ids)."""
    queued = Queued()
    with session_scope(sessions) as session:
        swept = requeue_stale(session=session, stale_after=settings.match_stale_after,
                              max_attempts=settings.match_max_attempts)
        ids = list(swept.requeued)
        if broker_idle:
            cutoff = utcnow() - timedelta(seconds=min(60, settings.match_stale_after))
            ids += session.exec(
                select(Match.id).where(Match.status == MatchStatus.QUEUED, Match.created_at < cutoff)
                .order_by(Match.id).limit(500)
            ).all()
        for match_id, kind in session.exec(select(Match.id, Match.kind).where(Match.id.in_(sorted(set(ids))))).all():
            queued.add(match_id, kind)
        session.commit()
    if swept.requeued or swept.failed:
        log.warning("sweeper: requeued %s, gave up on %s", swept.requeued, swept.failed)
    return queued, list(swept.failed)
