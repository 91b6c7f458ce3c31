"""The periodic work behind Celery beat's ticks: keep the queue fed, sweep what dead workers left.

Each function does its database work through the services (each service call commits on its
own) and returns the ids of the matches it queued, so the task sends them to the broker only
after they are committed. The database is the queue of record; a broker message only says
"look at match N", and a duplicate message is harmless because claiming is guarded.

Draining: while the `drain` switch is on (`ladder admin drain on`, stored in the database so every
worker's tick sees it whatever its environment), `schedule` queues nothing new (no validation
game, no ladder table, no event match) while `sweep` goes on requeueing and re-sending, so the
open matches finish and the ladder empties.
"""

from __future__ import annotations

import logging
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session, select

from ladder.config import Settings
from ladder.db import session_scope
from ladder.games import available_games, get_game
from ladder.models import Bot, BotVersion, Match, MatchKind, MatchStatus, Seat, VersionStatus
from ladder.ranking.matchmaking import TableSize
from ladder.services.bots import reject_version
from ladder.services.errors import ServiceError
from ladder.services.leagues import league_tables
from ladder.services.matches import matchmaking_pool, queue_match, queue_validation_match, requeue_stale
from ladder.services.queue_control import draining, due_for_resend
from workers.queue import claims

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


PACKAGE_UNCHECKABLE = "the package could not be checked; upload it again as a .py file or a .zip"


def validate_version(session: Session, version_id: int, settings: Settings) -> int | None:
    """Check a pending version's package, then queue its validation game; the match id or None
    (refused: the version is rejected with the reason; or it is no longer pending).

    Whatever the stored upload holds (a name the file system refuses, bytes that break the
    unpacker), this version ends rejected or queued: it never raises, so one upload cannot stop a
    scheduler tick. The file is written under a fixed name (main.py or bot.zip), never the
    uploader's; reasons name the uploaded file, never a server path."""
    from ladder.bot.packages import PackagingError, check_filename, check_runtime
    from workers.build.packaging import remove_staged, stage

    version = session.get(BotVersion, version_id)
    if version is None or version.status != VersionStatus.PENDING:
        return None
    filename = version.filename
    reason = None
    try:
        suffix = check_filename(filename)
        with tempfile.TemporaryDirectory(prefix="ladder-validate-") as tmp:
            upload = f"{tmp}/{'main.py' if suffix == '.py' else 'bot.zip'}"
            with open(upload, "wb") as fh:
                fh.write(version.code)
            try:
                staged = stage(upload, tmp)
                remove_staged(staged.path)
                check_runtime(staged.entry, settings.accepted_runtimes)
            except PackagingError as exc:
                raise PackagingError(str(exc).replace(upload, filename).replace(tmp, "…")) from None
    except PackagingError as exc:
        reason = str(exc)
    except Exception:  # anything else is ours, not the author's: the detail goes to the server log
        log.exception("version %s: the package check failed", version_id)
        reason = PACKAGE_UNCHECKABLE
    session.commit()  # end the read; the writes below are transactions of their own
    if reason is not None:
        reject_version(session=session, version_id=version_id, reason=reason)
        return None
    try:
        match = queue_validation_match(session=session, version_id=version_id, house_username=settings.house_username,
                                       sandbox=settings.sandbox_mode)
    except ServiceError as exc:
        log.info("version %s: no validation game yet: %s", version_id, exc)
        return None
    return match.id


def _each(session: Session, what: str, item: object, action):
    """Run one item's work; anything it raises is logged and rolled back, and the tick goes on."""
    try:
        return action()
    except Exception:
        session.rollback()
        log.exception("scheduler: %s %s failed; going on with the rest", what, item)
        return None


def _validate_or_reject(session: Session, version_id: int, settings: Settings) -> int | None:
    try:
        return validate_version(session, version_id, settings)
    except Exception:  # e.g. the database refused a write: reject the version, never loop on it
        session.rollback()
        log.exception("version %s: validation could not be queued", version_id)
        reject_version(session=session, version_id=version_id, reason=PACKAGE_UNCHECKABLE)
        return None


def schedule(sessions: sessionmaker[Session], settings: Settings, rng: random.Random | None = None) -> Queued:
    """One scheduler tick: validation games for pending versions, then ladder tables per game until
    `queue_target` matches wait (at most `tables_per_tick` new ones per game).

    Each version and each game is handled on its own: one that raises is logged (a version is
    rejected) and the tick goes on with the rest, so rated tables are queued whatever was uploaded.
    Bots seated in queued validation or challenge games still get rated tables (see
    services.matches.matchmaking_pool)."""
    rng = rng or random.Random()
    queued = Queued()
    with session_scope(sessions) as session:
        if draining(session=session):
            log.info("scheduler: draining, nothing new is queued")
            return queued
        session.commit()
        pending = session.exec(
            select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
            .where(BotVersion.status == VersionStatus.PENDING, Bot.retired == False)  # noqa: E712
            .order_by(BotVersion.id).limit(settings.tables_per_tick)
        ).all()
        session.commit()
        for version_id in pending:
            match_id = _each(session, "version", version_id,
                             lambda v=version_id: _validate_or_reject(session, v, settings))
            if match_id is not None:
                queued.add(match_id, MatchKind.VALIDATION)
        for game in available_games():
            tables = _each(session, "game", game, lambda g=game: _ladder_tables(session, g, settings, rng))
            for match_id in tables or []:
                queued.add(match_id, MatchKind.LADDER)
    return queued


def _ladder_tables(session: Session, game: str, settings: Settings, rng: random.Random) -> list[int]:
    # the open ladder's matches (remote bots, workers/queue/lobby.py) are queued apart: not in the target
    open_ladder = select(Seat.match_id).join(Bot, Bot.id == Seat.bot_id).where(Bot.remote == True)  # noqa: E712
    waiting = session.exec(
        select(func.count()).select_from(Match)
        .where(Match.game == game, Match.status == MatchStatus.QUEUED, Match.kind == MatchKind.LADDER,
               Match.id.not_in(open_ladder))
    ).one()
    pool = matchmaking_pool(session=session, game=game, house_username=settings.house_username)
    session.commit()
    count = min(settings.tables_per_tick, settings.queue_target - waiting)
    if count <= 0:
        return []
    tables = league_tables(session=session, game=game, candidates=pool.candidates, sizes=table_sizes(game),
                           rng=rng, now=time.time(), count=count, exclude=pool.busy, house_owner=pool.house_owner)
    session.commit()
    ids = []
    for table, league in tables:
        try:
            match = queue_match(session=session, game=game, seats=table, sandbox=settings.sandbox_mode,
                                league=league)
        except ServiceError as exc:  # a bot retired between the pool and the table
            log.info("%s: table not queued: %s", game, exc)
            continue
        ids.append(match.id)
    return ids


def sweep(sessions: sessionmaker[Session], settings: Settings, *,
          now: datetime | None = None) -> tuple[Queued, list[int]]:
    """Requeue matches left running by a dead worker (or fail them after max attempts), and re-send
    queued matches whose last send is older than `match_resend_after`, however busy the broker is:
    their message may be lost (a broker restart, a worker killed between taking a message and
    claiming its match), and a duplicate costs a worker one UPDATE that matches no row.
    (to send, failed ids). Draining changes nothing here: what is open must end."""
    queued = Queued()
    with session_scope(sessions) as session:
        # a claim whose holder on this host is provably gone is swept at once (workers/queue/claims.py)
        swept = requeue_stale(session=session, stale_after=settings.match_stale_after,
                              max_attempts=settings.match_max_attempts, now=now, owner_gone=claims.owner_gone)
        ids = set(swept.requeued)
        ids.update(due_for_resend(session=session, resend_after=settings.match_resend_after, now=now))
        for match_id, kind in session.exec(select(Match.id, Match.kind).where(Match.id.in_(sorted(ids)))
                                           .order_by(Match.id)).all():
            queued.add(match_id, kind)
        session.commit()
    if swept.requeued or swept.failed:
        log.warning("sweeper: requeued %s, gave up on %s", swept.requeued, swept.failed)
    resent = len(queued) - len(swept.requeued)
    if resent:
        log.info("sweeper: %s queued matches sent again (last sent over %s s ago)", resent,
                 settings.match_resend_after)
    return queued, list(swept.failed)


def rating_reports(sessions: sessionmaker[Session], settings: Settings) -> dict[str, int]:
    """Each available game's accuracy report, computed from its stored history and stored
    (ladder/services/rating_reports.py): {game: rated matches it read}. One game failing leaves
    the others' reports written."""
    from ladder.services.rating_reports import compute_report

    done = {}
    with session_scope(sessions) as session:
        for game in available_games():
            row = _each(session, "accuracy report of", game, lambda g=game: compute_report(
                session=session, game=g, last=settings.ratings_report_last, window=settings.ratings_report_window))
            if row is not None:
                done[game] = row.matches
    return done
