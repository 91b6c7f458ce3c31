"""What the Celery tasks do, as plain functions over a session factory and the settings.

`play_match` is the whole life of one match on a worker: claim it with the guarded status change
(nobody else can hold it then), read it as one plan (`services.match_plan`: each seat's stored code
and bot data, typed), play it through `workers.match.runner.run`, and record seats, the public
replay, the bots' logs (split off it: `Replay.split_logs`), rating changes and each seat's bot data
changes (services/botdata.py) with `services.results.record_result`, one transaction that only the
claim holder can commit. A match that cannot be played (sandbox missing, a bot that does not unpack, the soft time
limit) is marked failed, which is never rated.
A failure of the ladder (workers/match/blame.py: a sandbox that did not start, a bot the ladder killed)
voids the match: it is played again, blame.ATTEMPTS times in all, then marked failed with the
ladder's reason; no seat is ever charged with it. A worker told to stop (SIGTERM, Ctrl-C) tears
the match down and gives it back to the queue before it goes.

This module is the adapter between the stored match and the runner: claim -> plan -> run -> record.
With a relay, the match's public entries reach live spectators as it is played (workers/queue/live.py:
the runner's on_entry only queues them; the publisher's thread sends them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from ladder.config import Settings
from ladder.db import session_scope
from ladder.match import MatchPlan
from ladder.relay.backends import Relay
from ladder.services import builds as build_service
from ladder.services.common import retry_transient
from ladder.services.errors import ServiceError
from ladder.services.event_hold import is_held
from ladder.services.match_plan import match_plan
from ladder.services.matches import claim_match, mark_failed, redeal_after_void, release_match
from ladder.services.results import MatchOutcome, outcome_from_replay, record_result_retrying
from ladder.storage import Store, open_store
from workers.queue.live import LivePublisher

if TYPE_CHECKING:  # the runner (and the sandbox) load on a worker only, when a match is played
    from workers.match.runner import Env, MatchRecord

log = logging.getLogger(__name__)

# how long a result (or a failure) waits for a database that went away (a PostgreSQL restart): a
# minute, or a quarter of the stale bound if that is less, inside the task's time limit; past it the
# claim stays for the sweeper
RETRY_BUDGET_S = 60.0
# run(plan, env) -> MatchRecord: workers.match.runner.run, or a test's stand-in
Runner = Callable[[MatchPlan, "Env"], "MatchRecord"]


@dataclass(frozen=True, slots=True)
class JobResult:
    match_id: int
    status: str  # "finished", "failed", "skipped" (not claimed), "refused" (claim lost before recording)
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"match": self.match_id, "status": self.status, "detail": self.detail}


def default_runner(plan: MatchPlan, env: Env) -> MatchRecord:
    from workers.match.runner import run

    return run(plan, env)


class StoredBuilds:
    """The runner's build cache (workers.build.builds.BuildCache) over the database and the store, where
    every worker finds an artifact another one built; each call is its own short transaction."""

    def __init__(self, sessions: sessionmaker[Session], store: Store):
        self.sessions = sessions
        self.store = store

    def get(self, key: str) -> bytes | None:
        with session_scope(self.sessions) as session:
            return build_service.get_artifact(session=session, store=self.store, key=key)

    def put(self, build: Any) -> None:
        with session_scope(self.sessions) as session:
            build_service.store_artifact(session=session, store=self.store, key=build.key, runtime=build.runtime,
                                         toolchain=build.toolchain, data=build.artifact, log=build.log,
                                         seconds=build.seconds)


def play_match(
    match_id: int,
    *,
    sessions: sessionmaker[Session],
    settings: Settings,
    worker_id: str,
    runner: Runner = default_runner,
    relay: Relay | None = None,
    store: Store | None = None,
) -> JobResult:
    """Claim, play and record one match; safe to call any number of times for the same id. With
    `relay`, spectators follow it live (the runner then gets an `on_entry`). `store`: where build
    artifacts are kept (the worker's, opened once; None: the one the settings name)."""
    store = store if store is not None else open_store(settings)
    from workers.sandbox import interrupts

    live = LivePublisher(relay, match_id) if relay is not None else None
    try:
        # A stop signal (workers/sandbox/interrupts.py) waits until the match is torn down and given back.
        with interrupts.catching():
            result = _play_match(match_id, sessions=sessions, settings=settings, worker_id=worker_id, runner=runner,
                                 live=live, relay=relay, store=store)
        if live is not None and result.status in ("finished", "failed"):
            live.end(result.status)  # after the result is stored: the page can switch to the replay
        return result
    finally:
        if live is not None:
            live.close()


def _play_match(match_id: int, *, sessions: sessionmaker[Session], settings: Settings, worker_id: str,
                runner: Runner, live: LivePublisher | None, relay: Relay | None, store: Store) -> JobResult:
    from workers.match import blame
    from workers.match.runner import BuildError  # the runner (and the sandbox) load on a worker only
    from workers.sandbox import interrupts

    with session_scope(sessions) as session:
        match, plan = None, None
        try:
            # A stop signal that lands while the claim is written (under load an SQLite claim can
            # wait seconds for its lock) waits for it, and is raised inside this try, which gives the
            # claimed match back. Raised between the claim and the try, it left the match running
            # with no worker (seen in the `ladder up` Ctrl-C test at grace 6).
            with interrupts.deferred():
                match = claim_match(session=session, match_id=match_id, worker_id=worker_id)
            if match is None:
                return JobResult(match_id, "skipped", "not queued: another worker has it, or it is done")
            plan = match_plan(session=session, match_id=match_id, store=store)
            if live is not None and is_held(session, match_id):  # a duplicate deal's events wait for its last order
                live.withhold()
            session.commit()  # end the read: no transaction stays open while the bots play
            env = _env(plan, settings, sessions, relay, store)
            outside = plan.played_from_outside  # those seats saw the deal as it was played

            def attempt(final: bool) -> MatchRecord:
                on_entry = None
                if live is not None:  # every attempt starts the spectators' view over
                    live.begin_plan(plan)
                    on_entry = live.append
                return runner(plan, replace(env, final_attempt=final, on_entry=on_entry))

            def voided(number: int, fault: blame.LadderFault) -> None:
                nonlocal plan
                log.warning("match %s: attempt %d void, the ladder failed: %s", match_id, number, fault.reason)
                if (live is not None and live.published) or outside:  # its events went out: re-deal
                    fresh = redeal_after_void(session=session, match_id=match_id, worker_id=worker_id)
                    if fresh is not None:
                        plan = replace(plan, seed=fresh)

            record = blame.retrying(attempt, on_void=voided)
            # a bot's log is its owner's, a replay is public: they are stored apart
            public, logs = record.replay.split_logs()
            outcome = replace(outcome_from_replay(public, logs), data=record.data)
            keys = {seat.version_id: key for seat, key in zip(plan.seats, record.build_keys, strict=True) if key}
            build_service.note_builds(session=session, keys=keys)
        except BuildError as exc:  # the author's fault, not ours: the version is rejected with the reason
            session.rollback()
            return _unbuildable(session, match_id, plan.seats[exc.seat].version_id, exc.build.failure(), worker_id)
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
        return _record(session, match_id, outcome, worker_id, settings, store)


def _env(plan: MatchPlan, settings: Settings, sessions: sessionmaker[Session], relay: Relay | None,
         store: Store) -> Env:
    """What this worker plays the match with: its build cache over the database and the store, one relay for
    the seats played from outside (the live view's when there is one, else the web tier's kind)."""
    from ladder.relay.backends import relay_for
    from workers.match.runner import Env

    outside = plan.played_from_outside
    if outside and relay is None:
        relay = relay_for(settings, sessions.kw.get("bind"))
    # a person's game ends in time for the result to be written before the task's own time limit
    return Env(build_cache=StoredBuilds(sessions, store), relay=relay if outside else None,
               require_strict=not settings.development, data_cap=settings.bot_data_cap,
               person_absent_s=settings.person_absent, person_budget_s=max(60.0, settings.match_stale_after * 0.8))


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


def _record(session: Session, match_id: int, outcome: MatchOutcome, worker_id: str, settings: Settings,
            store: Store) -> JobResult:
    try:  # a database restart meanwhile: the same transaction again once it is back (services/results.py)
        recorded = record_result_retrying(session=session, match_id=match_id, outcome=outcome, worker_id=worker_id,
                                          budget_s=_retry_budget(settings), max_log_chars=settings.max_log_chars,
                                          data_cap=settings.bot_data_cap, store=store)
    except ServiceError as exc:  # AlreadyRecorded: our claim was swept; nothing was written
        log.warning("match %s: result refused: %s", match_id, exc)
        return JobResult(match_id, "refused", str(exc))
    # what the database holds: a ranked match every seat forfeited is recorded failed, not finished
    return JobResult(match_id, str(recorded.status), recorded.failure_reason or "")
