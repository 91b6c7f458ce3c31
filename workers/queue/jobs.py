"""What the Celery tasks do, as plain functions over a session factory and the settings.

`play_match` is the whole life of one match on a worker: claim it with the guarded status change
(nobody else can hold it then), play it through `workers.match.runner` with each seat's stored code
and bot data, and record seats, the public replay, the bots' logs (split off it:
`Replay.split_logs`), rating changes and each seat's bot data changes (services/botdata.py) with
`services.results.record_result`, one transaction that only the claim holder can commit.
A match that cannot be played (sandbox missing, a bot that does not unpack, the soft time
limit) is marked failed, which is never rated.
A failure of the ladder (workers/match/blame.py: a sandbox that did not start, a bot the ladder killed)
voids the match: it is played again, blame.ATTEMPTS times in all, then marked failed with the
ladder's reason; no seat is ever charged with it. A worker told to stop (SIGTERM, Ctrl-C) tears
the match down and gives it back to the queue before it goes.

This module is the adapter between the stored match and the runner, which takes bot files.
With a relay, the match's public entries reach live spectators as it is played (workers/queue/live.py:
the runner's on_entry only queues them; the publisher's thread sends them).
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy.orm import sessionmaker
from sqlmodel import Session, select

from ladder import seat_relay
from ladder.config import Settings
from ladder.db import session_scope
from ladder.models import Bot, BotVersion, Seat, User
from ladder.relay import Relay
from ladder.services import botdata
from ladder.services import builds as build_service
from ladder.services.common import retry_transient
from ladder.services.errors import ServiceError
from ladder.services.event_hold import is_held
from ladder.services.matches import claim_match, mark_failed, redeal_after_void, release_match
from ladder.services.results import MatchOutcome, outcome_from_replay, record_result_retrying
from workers.queue.live import LivePublisher
from workers.sandbox import scratch as sandbox_scratch

log = logging.getLogger(__name__)

# how long a result (or a failure) waits for a database that went away (a PostgreSQL restart): a
# minute, or a quarter of the stale bound if that is less, inside the task's time limit; past it the
# claim stays for the sweeper
RETRY_BUDGET_S = 60.0
# (specs, game, seed, options, sandbox, ranked, require_strict, names) -> MatchResult-like object
Runner = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class JobResult:
    match_id: int
    status: str  # "finished", "failed", "skipped" (not claimed), "refused" (claim lost before recording)
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"match": self.match_id, "status": self.status, "detail": self.detail}


def default_runner(specs: list[str], **kwargs: Any) -> Any:
    from workers.match.runner import run_match

    return run_match(specs, **kwargs)


class DatabaseBuilds:
    """The runner's build cache (workers.build.builds.BuildCache) over the database, where every worker
    finds an artifact another one built; each call is its own short transaction."""

    def __init__(self, sessions: sessionmaker[Session]):
        self.sessions = sessions

    def get(self, key: str) -> bytes | None:
        with session_scope(self.sessions) as session:
            return build_service.get_artifact(session=session, key=key)

    def put(self, build: Any) -> None:
        with session_scope(self.sessions) as session:
            build_service.store_artifact(session=session, key=build.key, runtime=build.runtime,
                                         toolchain=build.toolchain, data=build.artifact, log=build.log,
                                         seconds=build.seconds)


def _stage_code(session: Session, match_id: int, root: Path) -> tuple[list[str], list[str], list[int]]:
    """Write each seat's stored code to `root/<seat>/<filename>`: (paths in seat order, seat names,
    version ids)."""
    rows = session.exec(
        select(Seat.seat, BotVersion.filename, BotVersion.code, BotVersion.number, Bot.name, User.username,
               BotVersion.id, Bot.remote)
        .join(BotVersion, BotVersion.id == Seat.bot_version_id)
        .join(Bot, Bot.id == Seat.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(Seat.match_id == match_id)
        .order_by(Seat.seat)
    ).all()
    specs, names, versions = [], [], []
    for seat, filename, code, number, bot_name, owner, version_id, remote in rows:
        names.append(f"{owner}/{bot_name} v{number}" if not remote else f"{owner}/{bot_name} (remote)")
        versions.append(version_id)
        if remote:  # played from outside, over the relay (workers/match/outside_seat.py): no code
            specs.append(seat_relay.remote_spec(match_id, seat))
            continue
        folder = root / str(seat)
        folder.mkdir(mode=0o755)
        # a fixed name, never the uploader's: a stored name the file system refuses (too long, NUL)
        # would fail every match the bot is seated at
        path = folder / ("bot.zip" if filename.lower().endswith(".zip") else "main.py")
        path.write_bytes(code)
        path.chmod(0o644)
        specs.append(str(path))
    return specs, names, versions


def play_match(
    match_id: int,
    *,
    sessions: sessionmaker[Session],
    settings: Settings,
    worker_id: str,
    runner: Runner = default_runner,
    relay: Relay | None = None,
) -> JobResult:
    """Claim, play and record one match; safe to call any number of times for the same id. With
    `relay`, spectators follow it live (the runner then gets an `on_entry`)."""
    from workers.sandbox import interrupts

    live = LivePublisher(relay, match_id) if relay is not None else None
    try:
        # A stop signal (workers/sandbox/interrupts.py) waits until the match is torn down and given back.
        with interrupts.catching():
            result = _play_match(match_id, sessions=sessions, settings=settings, worker_id=worker_id, runner=runner,
                                 live=live)
        if live is not None and result.status in ("finished", "failed"):
            live.end(result.status)  # after the result is stored: the page can switch to the replay
        return result
    finally:
        if live is not None:
            live.close()


def _play_match(match_id: int, *, sessions: sessionmaker[Session], settings: Settings, worker_id: str,
                runner: Runner, live: LivePublisher | None) -> JobResult:
    from workers.match import blame
    from workers.match.runner import BuildError  # the runner (and the sandbox) load on a worker only
    from workers.sandbox import interrupts

    with session_scope(sessions) as session:
        match, root = None, None
        try:
            # A stop signal that lands while the claim is written (under load an SQLite claim can
            # wait seconds for its lock) waits for it, and is raised inside this try, which gives the
            # claimed match back. Raised between the claim and the try, it left the match running
            # with no worker (seen in the `ladder up` Ctrl-C test at grace 6).
            with interrupts.deferred():
                match = claim_match(session=session, match_id=match_id, worker_id=worker_id)
            if match is None:
                return JobResult(match_id, "skipped", "not queued: another worker has it, or it is done")
            root = sandbox_scratch.make(f"{match_id}-")  # the bots' uids read their files through here
            specs, names, versions = _stage_code(session, match_id, root)
            snapshots = botdata.snapshots(session, match_id)  # each seat's data folder to start from
            person = _person_seat(session, match, names, settings)  # "Play it yourself": a person at a seat
            if live is not None and is_held(session, match_id):  # a duplicate deal's events wait for its last order
                live.withhold()
            session.commit()  # end the read: no transaction stays open while the bots play
            seed = [match.seed]

            remote = {"relay": _relay(settings, sessions)} if any(s.startswith("remote:") for s in specs) else {}

            def attempt(final: bool) -> Any:
                extra: dict[str, Any] = dict(person)
                if live is not None:  # every attempt starts the spectators' view over
                    live.begin(game=match.game, options=match.options, names=names)
                    extra["on_entry"] = live.append
                return runner(
                    specs, game=match.game, seed=seed[0], options=match.options, sandbox=match.sandbox,
                    ranked=match.ranked, require_strict=not settings.development, names=names,
                    build_cache=DatabaseBuilds(sessions), final_attempt=final,
                    bot_data=snapshots, data_cap=settings.bot_data_cap, **remote, **extra,
                )

            def voided(number: int, fault: blame.LadderFault) -> None:
                log.warning("match %s: attempt %d void, the ladder failed: %s", match_id, number, fault.reason)
                if (live is not None and live.published) or remote or person:  # its events went out: re-deal
                    seed[0] = redeal_after_void(session=session, match_id=match_id, worker_id=worker_id) or seed[0]

            result = blame.retrying(attempt, on_void=voided)
            # a bot's log is its owner's, a replay is public: they are stored apart
            public, logs = result.replay.split_logs()
            outcome = replace(outcome_from_replay(public, logs), data=getattr(result, "data", None))
            keys = {v: k for v, k in zip(versions, getattr(result, "build_keys", None) or [], strict=False) if k}
            build_service.note_builds(session=session, keys=keys)
        except BuildError as exc:  # the author's fault, not ours: the version is rejected with the reason
            session.rollback()
            return _unbuildable(session, match_id, versions[exc.seat], exc.build.failure(), worker_id)
        except blame.LadderFault as exc:  # every attempt voided by the ladder's own failures
            session.rollback()
            reason = f"the ladder failed {blame.ATTEMPTS} times, never a bot: {exc.reason}"[:2000]
            log.warning("match %s failed: %s", match_id, reason)
            return _fail(session, match_id, reason, worker_id, settings)
        except (KeyboardInterrupt, SystemExit, interrupts.Interrupted):  # the worker is stopping
            if match is not None:
                with interrupts.deferred():
                    session.rollback()
                    _release(session, match_id, worker_id)
            raise
        except Exception as exc:  # anything before a result is an infrastructure failure
            if match is None:  # the claim itself failed: nothing of ours to mark
                raise
            session.rollback()
            reason = f"{type(exc).__name__}: {exc}"[:2000]
            log.warning("match %s failed before a result: %s", match_id, reason)
            return _fail(session, match_id, reason, worker_id, settings)
        finally:
            if root is not None:
                shutil.rmtree(root, ignore_errors=True)
        return _record(session, match_id, outcome, worker_id, settings)


def _person_seat(session: Session, match: Any, names: list[str], settings: Settings) -> dict[str, Any]:
    """The runner's `outside` argument when a person plays a seat of the match ({} when nobody does):
    the seat's name becomes the person's, and its seat object talks to the page over the relay."""
    from ladder.relay import relay_for
    from ladder.services.person_seat import person_seat_of
    from workers.match.person_seat import PersonSeat

    found = person_seat_of(session=session, match_id=match.id)
    if found is None:
        return {}
    row, username = found
    names[row.seat] = f"{username} (in person)"
    relay = relay_for(settings, session.get_bind())
    # the person's game ends in time for the result to be written before the task's own time limit
    budget = max(60.0, settings.match_stale_after * 0.8)

    def factory(name: str) -> PersonSeat:
        return PersonSeat(relay=relay, match_id=match.id, seat=row.seat, game=match.game, name=name,
                          clock_s=row.clock_s, absent_s=settings.person_absent, budget_s=budget)

    return {"outside": {row.seat: factory}}


def _relay(settings: Settings, sessions: sessionmaker[Session]) -> Any:
    """The relay an outside seat plays over: Redis or the ladder's database, as the web tier's."""
    from ladder.relay import relay_for

    return relay_for(settings, sessions.kw.get("bind"))


def _unbuildable(session: Session, match_id: int, version_id: int, reason: str, worker_id: str) -> JobResult:
    try:
        build_service.reject_unbuildable(session=session, match_id=match_id, version_id=version_id, reason=reason,
                                         worker_id=worker_id)
    except ServiceError as exc:
        return JobResult(match_id, "refused", str(exc))
    return JobResult(match_id, "failed", f"bot version {version_id} did not build")


def _release(session: Session, match_id: int, worker_id: str) -> None:
    """Back to the queue: the match was torn down because this worker is stopping."""
    try:
        released = release_match(session=session, match_id=match_id, worker_id=worker_id)
    except Exception as exc:  # the database is gone too: the sweeper requeues it once it is stale
        log.warning("match %s: not given back to the queue (%s); the sweeper will", match_id, exc)
        return
    log.warning("match %s: the worker is stopping; %s", match_id,
                "back in the queue" if released else "the sweeper had taken it back already")


def _retry_budget(settings: Settings) -> float:
    return min(RETRY_BUDGET_S, settings.match_stale_after / 4)


def _fail(session: Session, match_id: int, reason: str, worker_id: str, settings: Settings) -> JobResult:
    try:
        retry_transient(session, lambda: mark_failed(session=session, match_id=match_id, reason=reason,
                                                     worker_id=worker_id), budget_s=_retry_budget(settings))
    except ServiceError as exc:  # the sweeper took it back meanwhile: its next run decides
        return JobResult(match_id, "refused", str(exc))
    return JobResult(match_id, "failed", reason)


def _record(session: Session, match_id: int, outcome: MatchOutcome, worker_id: str, settings: Settings) -> JobResult:
    try:  # a database restart meanwhile: the same transaction again once it is back (services/results.py)
        recorded = record_result_retrying(session=session, match_id=match_id, outcome=outcome, worker_id=worker_id,
                                          budget_s=_retry_budget(settings), max_log_chars=settings.max_log_chars,
                                          data_cap=settings.bot_data_cap)
    except ServiceError as exc:  # AlreadyRecorded: our claim was swept; nothing was written
        log.warning("match %s: result refused: %s", match_id, exc)
        return JobResult(match_id, "refused", str(exc))
    # what the database holds: a ranked match every seat forfeited is recorded failed, not finished
    return JobResult(match_id, str(recorded.status), recorded.failure_reason or "")
