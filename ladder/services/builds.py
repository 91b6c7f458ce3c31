"""Built bots (workers/build/builds.py's artifacts) in the database, where every worker finds them.

A compiled version is built the first time a worker seats it (its validation game); the
artifact is stored by its key and every later match of any version with the same key runs it.
A version that does not build is rejected with the compiler's message, shown to its owner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import Session, select

from ladder.models import BotVersion, BuildArtifact, Match, MatchStatus, VersionStatus, utcnow
from ladder.services.common import atomic, fetch
from ladder.services.errors import Conflict

BUSY = (MatchStatus.QUEUED, MatchStatus.RUNNING)


def get_artifact(*, session: Session, key: str) -> bytes | None:
    return session.exec(select(BuildArtifact.data).where(BuildArtifact.key == key)).first()


def store_artifact(*, session: Session, key: str, runtime: str, toolchain: str, data: bytes, log: str,
                   seconds: float) -> None:
    """Keep a successful build; a second worker storing the same key meanwhile is no error."""
    if get_artifact(session=session, key=key) is not None:
        session.rollback()
        return
    try:
        with atomic(session, conflict="stored by another worker"):
            session.add(BuildArtifact(key=key, runtime=runtime, toolchain=toolchain[:200], data=data,
                                      size=len(data), log=log, seconds=seconds))
    except Conflict:
        pass


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
