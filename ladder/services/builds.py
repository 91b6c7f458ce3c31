"""Built bots (workers/build/builds.py's artifacts) in the store, where every worker finds them.

A compiled version is built the first time a worker seats it (its validation game); the
artifact is stored by its key and every later match of any version with the same key runs it.
A version that does not build is rejected with the compiler's message, shown to its owner.

The artifact (up to tens of megabytes) is a blob of the store (ladder/storage, `builds/<key>.tar`);
its `build_artifacts` row keeps what the pages show (toolchain, size, the compiler's log). Rows
written before the store hold the tar in their `data` column: it is read from there until
`move_to_store` (run in batches by `ladder admin store move` and by the scheduler's prune task)
has put it in the store and cleared the column, so nothing waits for a conversion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import Session, select

from ladder.models import BotVersion, BuildArtifact, Match, MatchStatus, VersionStatus, utcnow
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict
from ladder.storage import BlobMissing, Store

BUSY = (MatchStatus.QUEUED, MatchStatus.RUNNING)
PREFIX = "builds/"


def blob_key(key: str) -> str:
    return f"{PREFIX}{key}.tar"


def get_artifact(*, session: Session, store: Store, key: str) -> bytes | None:
    """The artifact of `key`, or None (never built, or its blob is gone: the worker builds it again)."""
    row = session.exec(select(BuildArtifact.key, BuildArtifact.data).where(BuildArtifact.key == key)).first()
    session.rollback()  # end the read before the store is asked
    if row is None:
        return None
    if row[1] is not None:  # written before the store, not moved yet
        return row[1]
    try:
        return store.get(blob_key(key))
    except BlobMissing:
        return None


def store_artifact(*, session: Session, store: Store, key: str, runtime: str, toolchain: str, data: bytes, log: str,
                   seconds: float) -> None:
    """Keep a successful build: the blob first (the same key is the same tar, so two workers writing it
    at once write the same bytes), then its row; a second worker's row meanwhile is no error."""
    store.put(blob_key(key), data)
    if session.exec(select(BuildArtifact.key).where(BuildArtifact.key == key)).first() is not None:
        session.rollback()
        return
    try:
        with atomic(session, conflict="stored by another worker"):
            session.add(BuildArtifact(key=key, runtime=runtime, toolchain=toolchain[:200], data=None,
                                      size=len(data), log=log, seconds=seconds))
    except Conflict:
        pass


def move_to_store(*, session: Session, store: Store, batch: int = 20) -> int:
    """Put up to `batch` artifacts still held in the database into the store and clear their column
    (each one its own short transaction, so the ladder goes on meanwhile). Returns how many moved."""
    keys = session.exec(select(BuildArtifact.key).where(BuildArtifact.data.is_not(None))
                        .order_by(BuildArtifact.key).limit(batch)).all()
    session.rollback()
    moved = 0
    for key in keys:
        data = session.exec(select(BuildArtifact.data).where(BuildArtifact.key == key)).first()
        if data is None:  # moved by another process meanwhile
            session.rollback()
            continue
        store.put(blob_key(key), data)  # before the column is cleared: a reader always finds it somewhere
        with atomic(session):
            session.exec(update(BuildArtifact).where(BuildArtifact.key == key).values(data=None)
                         .execution_options(synchronize_session=False))
        moved += 1
    return moved


def note_builds(*, session: Session, keys: Mapping[int, str]) -> None:
    """Record which artifact each version runs (version id -> key), once."""
    if not keys:
        return
    with atomic(session):
        for version_id, key in keys.items():
            session.exec(update(BotVersion).where(BotVersion.id == version_id, BotVersion.build_key.is_(None))
                         .values(build_key=key).execution_options(synchronize_session=False))


@dataclass(frozen=True)
class BuildLog:
    toolchain: str
    seconds: float
    size: int
    log: str


def build_logs(*, session: Session, versions: Sequence[BotVersion]) -> dict[int, BuildLog]:
    """{version id: its build} for the built `versions` (the log is their owner's to see)."""
    keys = {v.id: v.build_key for v in versions if v.build_key}
    if not keys:
        return {}
    rows = session.exec(select(BuildArtifact.key, BuildArtifact.toolchain, BuildArtifact.seconds, BuildArtifact.size,
                               BuildArtifact.log).where(BuildArtifact.key.in_(set(keys.values())))).all()
    by_key = {key: BuildLog(toolchain, seconds, size, log) for key, toolchain, seconds, size, log in rows}
    return {vid: by_key[key] for vid, key in keys.items() if key in by_key}


def reject_unbuildable(*, session: Session, match_id: int, version_id: int, reason: str,
                       worker_id: str | None = None) -> Match:
    """A seat's version did not compile: the match fails (unrated) and the version is rejected
    with the compiler's message, so it is never seated again. Guarded like every claim: only
    the worker holding the match may do this (Conflict otherwise)."""
    stmt = update(Match).where(Match.id == match_id, Match.status.in_(BUSY))
    if worker_id is not None:
        stmt = stmt.where(Match.claimed_by == worker_id)
    with atomic(session):
        failed = stmt.values(status=MatchStatus.FAILED, finished_at=utcnow(),
                             failure_reason=f"bot version {version_id} did not build")
        if session.exec(failed.execution_options(synchronize_session=False)).rowcount != 1:
            fetch(session, Match, match_id, "match")
            raise Conflict(f"match {match_id} is not queued or running{' for ' + worker_id if worker_id else ''}")
        version = fetch(session, BotVersion, version_id, "bot version")
        if version.status != VersionStatus.RETIRED:
            version.status = VersionStatus.REJECTED
            version.rejection_reason = reason
            session.add(version)
    return fetch(session, Match, match_id, "match")
