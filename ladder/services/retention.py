"""Retention (docs/operations.md, "Retention"): what the ladder deletes as it ages, so storage stays
bounded. `prune` is run by `ladder admin prune` (`--dry-run`: counts and bytes, nothing deleted) and
by the scheduler's prune task every LADDER_PRUNE_INTERVAL seconds.

- Validation, challenge and unranked ladder matches keep their replay (and their seats' logs) for
  LADDER_RETAIN_{VALIDATION,CHALLENGE,UNRANKED}_DAYS after they finished.
- Ranked ladder and event matches keep theirs in the database for LADDER_RETAIN_LADDER_DAYS, and
  only until their day's dump (services/dumps.py, which holds every decision and event) is in the
  store: a day whose dump is missing keeps its replays whatever its age. Then they live in the dump.
- Every pruned match keeps its summary rows (the match, its seats, its rating changes), so its page
  still answers (saying where the replay went: `Match.replay_pruned_at`), the bots' histories
  stay whole and the ratings are untouched (`ladder ratings recompute` reads only those rows).
- A moderator's hidden replay is evidence: never pruned. A held match (an unfinished duplicate deal)
  is not pruned until its deal is over.
- A bot's scorecard rows (the seats' charted measures) past its newest scorecard.CHART_ROWS (200), the ones
  its page's chart reads: every measure of every match stays in the sums, and an export or a void
  measures the replay (services/scorecard.py).
- Bot data blobs no version names (services/botdata.py deletes old versions' rows), a day after they
  were written.
- Build artifacts none of whose versions can play any more (every one retired or rejected), built
  LADDER_RETAIN_RETIRED_BUILD_DAYS ago or more, go (row and blob); so do blobs under builds/ that no
  row names (a worker that died between the two writes), a day after they were written.

Each setting at 0 keeps that kind forever. Deletions go in batches of `batch` matches, each its own
transaction, so the ladder goes on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import String, and_, cast, delete, exists, func, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from ladder.games import available_games
from ladder.models import (
    BotDataVersion,
    BotLog,
    BotVersion,
    BuildArtifact,
    Match,
    MatchKind,
    Replay,
    ScorecardTally,
    VersionStatus,
    utcnow,
)
from ladder.services import event_hold, scorecard
from ladder.services.botdata import PREFIX as DATA_PREFIX
from ladder.services.builds import PREFIX as BUILDS_PREFIX
from ladder.services.builds import blob_key
from ladder.services.dumps import dumped_days
from ladder.storage import Store

Sessions = Callable[[], Session]
PLAYABLE = (VersionStatus.PENDING, VersionStatus.VALIDATING, VersionStatus.ACTIVE)
ORPHAN_GRACE = timedelta(days=1)  # a blob younger than this may be a build whose row is being written


@dataclass(frozen=True)
class Policy:
    validation_days: int = 14
    challenge_days: int = 30
    unranked_days: int = 30
    ladder_days: int = 90
    retired_build_days: int = 30

    @classmethod
    def from_settings(cls, settings) -> Policy:
        return cls(settings.retain_validation_days, settings.retain_challenge_days, settings.retain_unranked_days,
                   settings.retain_ladder_days, settings.retain_retired_build_days)


@dataclass
class Pruned:
    what: str
    count: int = 0
    bytes: int = 0


@dataclass
class Report:
    dry_run: bool
    items: list[Pruned] = field(default_factory=list)

    def lines(self) -> list[str]:
        verb = "would delete" if self.dry_run else "deleted"
        return [f"{p.what}: {verb} {p.count} ({p.bytes:,} bytes)" for p in self.items]

    def as_json(self) -> dict[str, dict[str, int]]:
        return {p.what: {"count": p.count, "bytes": p.bytes} for p in self.items}


def _replays_of(kind_clause, before: datetime):
    """Matches whose replay this rule may prune: finished before `before`, replay stored, not hidden,
    not held."""
    stored = aliased(Replay)  # its own name: _size joins Replay itself
    return and_(kind_clause, Match.finished_at < before, Match.replay_pruned_at.is_(None),
                exists().where(stored.match_id == Match.id, stored.hidden == False),  # noqa: E712
                ~event_hold.held())


def _rules(policy: Policy, now: datetime) -> list[tuple[str, object]]:
    rules = []
    for what, days, clause in (
            ("validation replays", policy.validation_days, Match.kind == MatchKind.VALIDATION),
            ("challenge replays", policy.challenge_days, Match.kind == MatchKind.CHALLENGE),
            ("unranked ladder replays", policy.unranked_days,
             and_(Match.kind == MatchKind.LADDER, Match.ranked == False))):  # noqa: E712
        if days:
            rules.append((what, _replays_of(clause, now - timedelta(days=days))))
    return rules


def _ladder_rule(session: Session, policy: Policy, now: datetime, store: Store):
    """Ranked ladder and event matches of the dumped days at least `ladder_days` old (days from the
    oldest one still holding a replay: the days pruned before need no clause)."""
    if not policy.ladder_days:
        return None
    cutoff = (now - timedelta(days=policy.ladder_days)).date()
    ranked = (Match.kind == MatchKind.EVENT) | (and_(Match.kind == MatchKind.LADDER, Match.ranked == True))  # noqa: E712
    days = []
    for game in available_games():
        oldest = session.exec(select(func.min(Match.finished_at)).where(
            Match.game == game, ranked, _replays_of(Match.game == game, _midnight(cutoff, now)))).one()
        session.rollback()
        if oldest is None:
            continue
        for day in sorted(d for d in dumped_days(store, game) if oldest.date() <= d < cutoff):
            days.append(and_(Match.game == game, Match.finished_at >= _midnight(day, now),
                             Match.finished_at < _midnight(day + timedelta(days=1), now)))
    if not days:
        return None
    from sqlalchemy import or_

    return _replays_of(and_(ranked, or_(*days)), now)


def _midnight(day: date, now: datetime) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=now.tzinfo)


def _size(session: Session, where) -> tuple[int, int]:
    count, replay_bytes = session.exec(
        select(func.count(), func.coalesce(func.sum(func.length(Replay.data)), 0))
        .select_from(Match).join(Replay, Replay.match_id == Match.id).where(where)).one()
    log_bytes = session.exec(select(func.coalesce(func.sum(func.length(BotLog.text)), 0))
                             .join(Match, Match.id == BotLog.match_id).where(where)).one()
    return int(count), int(replay_bytes) + int(log_bytes)


def _prune_replays(session: Session, what: str, where, now: datetime, dry_run: bool, batch: int) -> Pruned:
    done = Pruned(what, *_size(session, where))
    session.rollback()
    if dry_run or not done.count:
        return done
    while True:
        ids = session.exec(select(Match.id).where(where).order_by(Match.id).limit(batch)).all()
        if not ids:
            break
        session.exec(delete(BotLog).where(BotLog.match_id.in_(ids)))
        session.exec(delete(Replay).where(Replay.match_id.in_(ids)))
        session.exec(update(Match).where(Match.id.in_(ids)).values(replay_pruned_at=now)
                     .execution_options(synchronize_session=False))
        session.commit()
    return done


def _retired_builds(session: Session, policy: Policy, now: datetime):
    playable = exists().where(BotVersion.build_key == BuildArtifact.key, BotVersion.status.in_(PLAYABLE))
    return and_(BuildArtifact.created_at < now - timedelta(days=policy.retired_build_days), ~playable)


def _prune_builds(session: Session, store: Store, policy: Policy, now: datetime, dry_run: bool,
                  batch: int) -> list[Pruned]:
    done = []
    if policy.retired_build_days:
        where = _retired_builds(session, policy, now)
        count, size = session.exec(select(func.count(), func.coalesce(func.sum(BuildArtifact.size), 0))
                                   .where(where)).one()
        done.append(Pruned("retired versions' build artifacts", int(count), int(size)))
        session.rollback()
        while not dry_run:
            keys = session.exec(select(BuildArtifact.key).where(where).order_by(BuildArtifact.key)
                                .limit(batch)).all()
            if not keys:
                break
            session.exec(delete(BuildArtifact).where(BuildArtifact.key.in_(keys)))
            session.commit()  # the row first: a blob without a row is an orphan, swept below next time
            for key in keys:
                store.delete(blob_key(key))
    known = set(session.exec(select(BuildArtifact.key)).all())
    session.rollback()
    orphans = [b for b in store.list(BUILDS_PREFIX) if b.modified < now - ORPHAN_GRACE
               and b.key.removeprefix(BUILDS_PREFIX).removesuffix(".tar") not in known]
    done.append(Pruned("build blobs no row names", len(orphans), sum(b.size for b in orphans)))
    if not dry_run:
        for blob in orphans:
            store.delete(blob.key)
    return done


def trim_scorecard_rows(session: Session, dry_run: bool, batch: int) -> Pruned:
    """Each bot's scorecard rows older than its `keep` newest: per bot, the cutoff is its keep-th
    newest match (by the bot's index), and the rows before it go `batch` at a time, each its own
    transaction."""
    keep = scorecard.CHART_ROWS  # read here: a test keeps fewer
    done = Pruned("scorecard rows past each bot's chart")
    over = session.exec(select(ScorecardTally.bot_id).group_by(ScorecardTally.bot_id)
                        .having(func.count() > keep)).all()
    for bot_id in over:
        cutoff = session.exec(select(ScorecardTally.match_id).where(ScorecardTally.bot_id == bot_id)
                              .order_by(ScorecardTally.match_id.desc()).offset(keep - 1).limit(1)).one()
        old = and_(ScorecardTally.bot_id == bot_id, ScorecardTally.match_id < cutoff)
        count, size = session.exec(select(func.count(), func.coalesce(
            func.sum(func.length(cast(ScorecardTally.charted, String))), 0)).where(old)).one()
        done.count += int(count)
        done.bytes += int(size)
        while not dry_run:
            ids = session.exec(select(ScorecardTally.match_id).where(old).order_by(ScorecardTally.match_id)
                               .limit(batch)).all()
            if not ids:
                break
            session.exec(delete(ScorecardTally).where(ScorecardTally.bot_id == bot_id,
                                                      ScorecardTally.match_id.in_(ids)))
            session.commit()
    session.rollback()
    return done


def _prune_data_blobs(session: Session, store: Store, now: datetime, dry_run: bool) -> Pruned:
    """Bot data blobs no version names: versions services/botdata.py pruned (their rows go inside a
    result's transaction; the blob cannot, or a rollback would leave a row without it) and writes
    that rolled back. Each blob key is written once, so a blob a day old that no row names never will be."""
    listed = [b for b in store.list(DATA_PREFIX) if b.modified < now - ORPHAN_GRACE]
    known = set(session.exec(select(BotDataVersion.blob).where(BotDataVersion.blob.is_not(None))).all())
    session.rollback()
    orphans = [b for b in listed if b.key not in known]
    if not dry_run:
        for blob in orphans:
            store.delete(blob.key)
    return Pruned("bot data blobs no version names", len(orphans), sum(b.size for b in orphans))


def prune(*, session: Session, store: Store, policy: Policy, now: datetime | None = None, dry_run: bool = False,
          batch: int = 500) -> Report:
    """Apply `policy` (see the module's doc); with `dry_run`, only count what it would delete."""
    now = now or utcnow()
    report = Report(dry_run)
    for what, where in _rules(policy, now):
        report.items.append(_prune_replays(session, what, where, now, dry_run, batch))
    ladder = _ladder_rule(session, policy, now, store)
    if policy.ladder_days:
        report.items.append(_prune_replays(session, "ladder replays in a daily dump", ladder, now, dry_run, batch)
                            if ladder is not None else Pruned("ladder replays in a daily dump"))
    report.items.extend(_prune_builds(session, store, policy, now, dry_run, batch))
    report.items.append(_prune_data_blobs(session, store, now, dry_run))
    report.items.append(trim_scorecard_rows(session, dry_run, batch))
    return report
