"""The workers' jobs and tasks on SQLite and PostgreSQL, in-process: claiming, recording once,
failing unrated, refusing a swept claim, splitting logs from replays, scheduling, sweeping, and the
tasks themselves through Celery in eager mode with the real sandboxed runner."""

from __future__ import annotations

import io
import json
import os
import random
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from match_support import record_of
from service_support import (
    SLOW_BOT,
    add_user_bot,
    house_versions,
    match_row,
    rating_changes_per_match,
    record_played,
)
from sqlalchemy import create_engine, text
from sqlmodel import select

from ladder.config import Settings
from ladder.games import GAMES, get_game
from ladder.models import BotLog, BotVersion, Match, Rating, utcnow
from ladder.relay.backends import topics
from ladder.replay import (
    ENGINE_VERSION,
    SCHEMA_VERSION,
    Header,
    Replay,
    Result,
    SandboxRun,
    SeatRecord,
    loads_replay,
    verify_replay,
)
from ladder.services.bots import seed_house_bots
from ladder.services.matches import claim_match, queue_match, requeue_stale
from ladder.services.queue_control import mark_sent
from ladder.services.ratings import recompute_ratings
from ladder.services.stored_replays import stored_replay_bytes
from workers.queue import celery_app, tasks
from workers.queue.jobs import play_match
from workers.queue.scheduler import Queued, schedule, sweep


@pytest.fixture
def settings(tmp_path, db_url) -> Settings:
    return Settings(env="test", instance_dir=tmp_path, database_url=None if db_url.startswith("sqlite") else db_url,
                    sandbox_mode="strict", match_stale_after=60, queue_target=4, tables_per_tick=2)


@pytest.fixture
def house(session, settings):
    seed_house_bots(session=session, username=settings.house_username)
    # the games' validation bots (their first, quick starters): the tables below are of their size
    return {game: house_versions(session, game, get_game(game).validation_bots) for game in ("treasure", "drachengold")}


def fake_replay(n: int, ranks: list[int], stderr: list[str] | None = None) -> Replay:
    """What the runner hands back (no game in it: the job only reads seats and results)."""
    return Replay(
        Header(SCHEMA_VERSION, ENGINE_VERSION, "treasure", {}, 1, n, "strict"),
        seats=tuple(SeatRecord(i, f"b{i}", run=SandboxRun("strict"), stderr=(stderr or [""] * n)[i]) for i in range(n)),
        log=(),
        results=tuple(Result(i, f"b{i}", 10 - ranks[i], ranks[i], {}) for i in range(n)),
    )


class FakeRunner:
    def __init__(self, ranks=(1, 2), stderr=None, during=None, error=None):
        self.calls, self.ranks, self.stderr, self.during, self.error = [], list(ranks), stderr, during, error

    def __call__(self, plan, env):
        self.calls.append((plan, env))
        if self.during is not None:
            self.during()
        if self.error is not None:
            raise self.error
        return record_of(plan, fake_replay(len(plan.seats), self.ranks, self.stderr))


def test_a_match_is_played_and_rated_once_however_often_it_is_sent(session, sessions, settings, house):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    runner = FakeRunner(ranks=[2, 1])
    first = play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=runner)
    again = play_match(match.id, sessions=sessions, settings=settings, worker_id="w2", runner=runner)
    assert (first.status, again.status) == ("finished", "skipped")
    assert len(runner.calls) == 1
    plan, env = runner.calls[0]
    assert len(plan.seats) == 2 and plan.seed == match.seed and plan.sandbox == "strict"
    assert plan.ranked is True and env.require_strict is False  # a test env is a development env
    assert rating_changes_per_match(session) == {match.id: 2}
    row = match_row(session, match.id)
    assert (row.status, row.attempts, row.claimed_by) == ("finished", 1, "w1")
    assert recompute_ratings(session=session) == []


def test_the_runner_gets_each_seats_stored_code(session, sessions, settings, house):
    version = add_user_bot(session, username="alice", code=SLOW_BOT)
    match = queue_match(session=session, game="treasure", seats=[version.id, house["treasure"][0]])
    seen = []

    def runner(plan, env):
        seen.extend(seat.code for seat in plan.seats)
        seen.append(plan.names)
        return record_of(plan, fake_replay(2, [1, 2]))

    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner).status == "finished"
    house_code = session.get(BotVersion, house["treasure"][0]).code
    assert seen[:2] == [SLOW_BOT, house_code]
    assert seen[2][0] == "alice/slow v1"


def test_a_runner_failure_fails_the_match_unrated(session, sessions, settings, house):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    runner = FakeRunner(error=RuntimeError("sandbox mode 'strict' is unavailable here"))
    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=runner)
    assert result.status == "failed" and "unavailable" in result.detail
    row = match_row(session, match.id)
    assert row.status == "failed" and "RuntimeError" in row.failure_reason
    assert rating_changes_per_match(session) == {}


def test_a_result_after_the_sweeper_took_the_match_back_is_refused(session, sessions, settings, house):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])

    def sweeper_decides_the_worker_died():
        with sessions() as other:
            swept = requeue_stale(session=other, stale_after=0, now=utcnow() + timedelta(seconds=1))
            assert swept.requeued == [match.id]

    slow = FakeRunner(during=sweeper_decides_the_worker_died)
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=slow).status == "refused"
    assert rating_changes_per_match(session) == {}
    assert match_row(session, match.id).status == "queued"
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w2", runner=FakeRunner()).status \
        == "finished"
    assert rating_changes_per_match(session) == {match.id: 2}
    assert match_row(session, match.id).attempts == 2


def test_bot_logs_are_kept_for_their_owner_and_out_of_the_public_replay(session, sessions, settings, house):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    runner = FakeRunner(stderr=["thinking hard\n", ""])
    play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner)
    logs = session.exec(select(BotLog).where(BotLog.match_id == match.id)).all()
    assert [(log.seat, log.text) for log in logs] == [(0, "thinking hard\n")]
    stored = json.loads(stored_replay_bytes(session=session, match_id=match.id))
    assert all("stderr" not in seat for seat in stored["seats"])


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def test_a_tick_queues_validation_games_and_ladder_tables(session, sessions, settings, house):
    good = add_user_bot(session, username="alice", code=SLOW_BOT, active=False)
    bad = add_user_bot(session, username="bob", code=_zip({"helper.py": b"x = 1\n"}), filename="bot.zip",
                       active=False)
    queued = schedule(sessions, settings, random.Random(1))
    session.rollback()
    session.expire_all()
    assert session.get(BotVersion, bad.id).status == "rejected"
    assert "main.py" in session.get(BotVersion, bad.id).rejection_reason
    validating = session.get(BotVersion, good.id)
    assert validating.status == "validating" and queued.priority == [validating.validation_match_id]
    ladder = [session.get(Match, i) for i in queued.ladder]
    # the treasure starter bots sit at the validation game too: a queued validation or challenge
    # game books nobody, so every game gets a rated table
    # (a game with many house bots gets more than one table; the next tick books nobody more)
    assert {m.game for m in ladder} == set(GAMES)
    assert all(m.kind == "ladder" and m.status == "queued" and m.sandbox == "strict" for m in ladder)
    assert schedule(sessions, settings, random.Random(2)).ladder == []  # every bot is booked already


def test_the_sweeper_requeues_dead_workers_matches_and_resends_lost_messages(session, sessions, settings, house):
    stale = queue_match(session=session, game="treasure", seats=house["treasure"])
    claim_match(session=session, match_id=stale.id, worker_id="dead", now=utcnow() - timedelta(seconds=120))
    lost = queue_match(session=session, game="drachengold", seats=house["drachengold"])
    mark_sent(session=session, match_ids=[lost.id], now=utcnow() - timedelta(seconds=settings.match_resend_after + 1))
    fresh = queue_match(session=session, game="dragonflame", seats=house_versions(session, "dragonflame")[:3])
    mark_sent(session=session, match_ids=[fresh.id])  # sent just now: its message is in the broker
    # no broker is asked: a busy broker no longer hides a lost message
    first, failed = sweep(sessions, settings)
    assert (sorted(first.ladder), failed) == (sorted([stale.id, lost.id]), [])
    assert match_row(session, stale.id).status == "queued"
    mark_sent(session=session, match_ids=first.ladder)  # what the task does once they are sent
    assert sweep(sessions, settings)[0].ladder == []  # nothing is due again before the bound
    later = utcnow() + timedelta(seconds=settings.match_resend_after + 1)
    assert sorted(sweep(sessions, settings, now=later)[0].ladder) == sorted([stale.id, lost.id, fresh.id])


def test_a_match_never_recorded_as_sent_counts_from_its_creation(session, sessions, settings, house):
    """The web site sends a challenge at once without recording it: its creation stands for the send."""
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    assert match_row(session, match.id).sent_at is None
    assert sweep(sessions, settings)[0].ladder == []
    assert sweep(sessions, settings, now=utcnow() + timedelta(seconds=61))[0].ladder == [match.id]


def test_sends_are_recorded_and_a_failed_send_is_not(session, sessions, settings, house, eager, monkeypatch):
    ok = queue_match(session=session, game="treasure", seats=house["treasure"])
    refused = queue_match(session=session, game="drachengold", seats=house["drachengold"])
    sent = []

    def apply_async(args, queue):
        if args[0] == refused.id:
            raise ConnectionError("broker down")
        sent.append((args[0], queue))

    monkeypatch.setattr(tasks.run_match, "apply_async", apply_async)
    before = utcnow()
    assert tasks._send(Queued(ladder=[ok.id, refused.id])) == {"ladder": 1, "priority": 0}
    assert sent == [(ok.id, celery_app.MATCH_QUEUE)]
    assert match_row(session, ok.id).sent_at >= before
    assert match_row(session, refused.id).sent_at is None  # so the next sweep past the bound sends it


def test_a_duplicate_delivery_while_the_match_plays_does_nothing(session, sessions, settings, house):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    duplicates = []

    def redelivered():  # the sweeper's re-send, or Redis handing the message out again, mid-match
        duplicates.append(play_match(match.id, sessions=sessions, settings=settings, worker_id="w2",
                                     runner=FakeRunner()))

    runner = FakeRunner(during=redelivered)
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=runner).status \
        == "finished"
    assert [d.status for d in duplicates] == ["skipped"]
    assert len(runner.calls) == 1
    row = match_row(session, match.id)
    assert (row.status, row.attempts, row.claimed_by) == ("finished", 1, "w1")
    assert rating_changes_per_match(session) == {match.id: 2}


def test_celery_is_configured_for_long_tasks_that_must_not_be_lost(tmp_path):
    redis = celery_app.celery_config(Settings(env="test", redis_url="redis://h:6379/0", match_stale_after=900))
    soft, hard = redis["task_soft_time_limit"], redis["task_time_limit"]
    assert soft < hard < 900  # a task is killed before the sweeper would call its match stale
    transport = redis["broker_transport_options"]
    # a message held by a dead worker is handed out again within the re-send bound (60 s)
    assert transport["visibility_timeout"] + transport["unacked_restore_interval"] <= 60
    assert transport["unacked_restore_throttle"] == 1
    assert redis["task_acks_late"] and not redis["task_reject_on_worker_lost"]
    assert redis["worker_prefetch_multiplier"] == 1
    assert redis["accept_content"] == ["json"] and redis["task_serializer"] == "json"
    assert redis["broker_url"] == "redis://h:6379/0"
    sweep_every = redis["beat_schedule"]["sweep-stale"]["schedule"].total_seconds()
    assert sweep_every <= 15  # a lost message is sent again at most a quarter of the bound late
    short = celery_app.celery_config(Settings(env="test", redis_url="redis://h:6379/0", match_resend_after=8))
    assert short["broker_transport_options"]["visibility_timeout"] == 4
    embedded = celery_app.celery_config(Settings(env="test", instance_dir=tmp_path, match_stale_after=5))
    assert embedded["broker_url"] == f"sqla+sqlite:///{tmp_path.resolve() / 'broker.sqlite3'}"
    assert 0 < embedded["task_soft_time_limit"] < embedded["task_time_limit"] < 5
    beat = {entry["task"] for entry in embedded["beat_schedule"].values()}
    assert beat == {f"workers.queue.tasks.{name}"
                    for name in ("schedule_matches", "sweep_stale", "write_dumps", "check_ratings",
                                 "write_rating_reports", "prune")}
    assert embedded["beat_schedule"]["check-ratings"]["schedule"].total_seconds() == 3600
    assert embedded["beat_schedule"]["rating-reports"]["schedule"].total_seconds() == 3600
    assert embedded["beat_schedule"]["prune"]["schedule"].total_seconds() == 3600
    unchecked = celery_app.celery_config(Settings(env="test", instance_dir=tmp_path, ratings_check_interval=0,
                                                  ratings_report_interval=0, prune_interval=0))
    assert "check-ratings" not in unchecked["beat_schedule"]  # 0: only the checks an operator runs
    assert "rating-reports" not in unchecked["beat_schedule"]
    assert "prune" not in unchecked["beat_schedule"]
    assert embedded["task_routes"]["workers.queue.tasks.write_rating_reports"]["queue"] == celery_app.PRIORITY_QUEUE


@pytest.fixture
def eager(settings):
    """The real Celery app, run in-process: apply_async executes the task at once."""
    saved = (celery_app.app.ladder_settings, dict(celery_app.app.conf))
    celery_app.configure(settings)
    celery_app.app.conf.update(task_always_eager=True, task_eager_propagates=True)
    tasks._db.clear()
    yield celery_app.app
    tasks._db.clear()
    celery_app.app.ladder_settings = saved[0]
    celery_app.app.conf.update(saved[1])


def test_tasks_play_real_sandboxed_matches_end_to_end(session, settings, house, eager, strict_sandbox):
    version = add_user_bot(session, username="alice", code=SLOW_BOT.replace(b"DELAY = 0.08", b"DELAY = 0"),
                           active=False)
    match_id = tasks.validate_version.delay(version.id).get()
    assert match_id is not None
    session.rollback()  # a fresh snapshot
    session.expire_all()
    assert session.get(BotVersion, version.id).status == "active"  # its validation game was played cleanly
    session.rollback()
    sent = tasks.schedule_matches.delay().get()  # eager: the dispatched matches are played inline
    assert sent["ladder"] >= 2
    session.rollback()
    finished = session.exec(select(Match).where(Match.status == "finished")).all()
    assert len(finished) == 1 + sent["ladder"]
    for match in finished:
        replay = loads_replay(stored_replay_bytes(session=session, match_id=match.id))
        assert replay["seats"][0]["sandbox"] == "strict"
        assert verify_replay(replay).ok
    rated = rating_changes_per_match(session)
    assert set(rated) == {m.id for m in finished if m.ranked}
    assert sum(r.games for r in session.exec(select(Rating))) == sum(rated.values())
    assert recompute_ratings(session=session) == []
    assert tasks.run_match.delay(finished[0].id).get()["status"] == "skipped"
    # each match was followed live, through the relay on the worker's own (migrated) database
    relay = tasks.relay()
    assert settings.redis_url is not None or relay.engine is tasks.sessions().kw["bind"]
    for match in finished:
        kinds = [m.data["type"] for m in relay.read(topics.public(match.id), limit=1000)]
        assert kinds[0] == "start" and kinds[-1] == "end" and "entries" in kinds, (match.id, kinds)


def test_the_embedded_broker_forgets_delivered_messages_only(eager, settings):
    with eager.connection_for_write() as conn:
        conn.default_channel.queue_declare(queue=celery_app.MATCH_QUEUE)  # creates the broker's tables
    engine = create_engine(settings.broker_url.removeprefix("sqla+"))
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO kombu_queue (id, name) VALUES (77, 'probe')"))
        for visible in (0, 1, 0):
            conn.execute(text("INSERT INTO kombu_message (visible, payload, version, queue_id) "
                              "VALUES (:v, '{}', 1, 77)"), {"v": visible})
    assert tasks.purge_delivered() == 2
    with engine.connect() as conn:
        assert conn.execute(text("SELECT visible FROM kombu_message WHERE queue_id = 77")).scalars().all() == [1]
    engine.dispose()


def test_a_tick_goes_on_when_one_game_or_one_version_raises(session, sessions, settings, house, monkeypatch):
    from workers.queue import scheduler

    real = scheduler.league_tables

    def broken_for_treasure(*, game, **kwargs):
        if game == "treasure":
            raise RuntimeError("something unexpected in treasure's pool")
        return real(game=game, **kwargs)

    def stage_fails(*_args, **_kwargs):
        raise OSError("disk full: /tmp/ladder-validate-x/main.py")  # not a PackagingError

    monkeypatch.setattr(scheduler, "league_tables", broken_for_treasure)
    monkeypatch.setattr("workers.build.packaging.stage", stage_fails)
    pending = add_user_bot(session, username="alice", code=SLOW_BOT, active=False)
    queued = schedule(sessions, settings, random.Random(1))
    session.rollback()
    session.expire_all()
    games = {session.get(Match, i).game for i in queued.ladder}
    assert "treasure" not in games and games == set(GAMES) - {"treasure"}  # every other game got its table
    version = session.get(BotVersion, pending.id)
    assert version.status == "rejected" and version.rejection_reason == scheduler.PACKAGE_UNCHECKABLE


def test_a_ladder_fault_voids_the_attempt_and_the_match_is_played_again(session, sessions, settings, house):
    from workers.match.blame import LadderFault

    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    finals = []

    def runner(plan, env):
        finals.append(env.final_attempt)
        if len(finals) == 1:
            raise LadderFault("the sandbox could not start the bot: SubprocessError", seat=1)
        return record_of(plan, fake_replay(2, [1, 2]))

    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner).status == "finished"
    assert finals == [False, False]
    assert rating_changes_per_match(session) == {match.id: 2}  # rated once, from the attempt that played


def test_a_match_the_ladder_fails_every_time_ends_failed_unrated_charging_nobody(session, sessions, settings, house):
    from workers.match.blame import ATTEMPTS, LadderFault

    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    finals = []

    def runner(plan, env):
        finals.append(env.final_attempt)
        raise LadderFault("the sandbox's monitor was killed by SIGKILL", seat=0)

    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner)
    assert result.status == "failed" and finals == [False] * (ATTEMPTS - 1) + [True]
    row = match_row(session, match.id)
    assert row.status == "failed" and "the ladder failed" in row.failure_reason and "never a bot" in row.failure_reason
    assert rating_changes_per_match(session) == {}


@pytest.mark.parametrize("stop", [SystemExit, KeyboardInterrupt])
def test_a_worker_told_to_stop_gives_its_match_back_to_the_queue(session, sessions, settings, house, stop):
    match = queue_match(session=session, game="treasure", seats=house["treasure"])

    def runner(plan, env):
        raise stop()  # what the runner re-raises once it has torn the match down

    with pytest.raises(stop):
        play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner)
    row = match_row(session, match.id)
    assert (row.status, row.claimed_by, row.attempts) == ("queued", None, 0)  # not a failed attempt
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w2",
                      runner=FakeRunner()).status == "finished"


def test_the_dump_task_writes_each_finished_days_dump_once(session, settings, house, eager):
    yesterday = datetime.now(UTC) - timedelta(days=1)
    record_played(session, "treasure", house["treasure"][:2], ["random", "careful"], yesterday)
    name = f"treasure-{yesterday.date().isoformat()}.zip"
    assert tasks.write_dumps.delay().get() == [name]
    assert tasks.store().exists(f"dumps/treasure/{name}")
    assert tasks.write_dumps.delay().get() == []  # nothing missing: nothing written


def test_the_accuracy_report_task_stores_each_games_report(session, sessions, settings, house, eager):
    """The scheduler's accuracy report (workers/queue/scheduler.py rating_reports): one stored row
    per game, over the rated matches there are, replaced at each run."""
    from ladder.games import available_games
    from ladder.services.rating_reports import stored_report

    assert tasks.write_rating_reports.delay().get() == {game: 0 for game in available_games()}
    for seed in range(2):
        match = queue_match(session=session, game="treasure", seats=house_versions(session, "treasure")[:3],
                            seed=seed)
        assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w",
                          runner=FakeRunner(ranks=[1 + seed, 2 - seed, 3])).status == "finished"
    assert tasks.write_rating_reports.delay().get()["treasure"] == 2
    session.rollback()  # written in the task's own session
    report = stored_report(session=session, game="treasure").body
    assert report["prediction"]["matches"] == 2 and report["prediction"]["pairs"] == 6
    assert report["window"] == settings.ratings_report_window


def test_the_prune_task_moves_old_artifacts_to_the_store_and_prunes_by_the_settings(session, settings, house, eager):
    from sqlalchemy import text

    from ladder.models import Replay

    old = datetime.now(UTC) - timedelta(days=settings.retain_unranked_days + 1)
    match, _ = record_played(session, "treasure", house["treasure"][:2], ["random", "careful"], old, ranked=False)
    session.execute(text("INSERT INTO build_artifacts (key, runtime, toolchain, data, size, log, seconds, created_at) "
                         "VALUES (:k, 'c', 'gcc', :d, 3, '', 0.1, :t)"),  # young: retention keeps it
                    {"k": "b" * 64, "d": b"tar", "t": datetime.now(UTC)})
    session.commit()
    done = tasks.prune.delay().get()
    assert done["moved_to_store"] == 1 and done["unranked ladder replays"]["count"] == 1
    assert tasks.store().get(f"builds/{'b' * 64}.tar") == b"tar"
    session.rollback()
    assert session.get(Replay, match.id) is None


def test_the_ratings_check_task_records_what_it_found(session, house, eager):
    from ladder.services.ratings import latest_check

    assert tasks.check_ratings.delay().get() == {"differences": 0, "missing": 0}
    session.rollback()  # the task wrote in a session of its own: read after its commit
    assert latest_check(session).differences == 0
def test_a_stop_signal_landing_while_the_claim_is_written_gives_the_match_back(session, sessions, settings, house,
                                                                               monkeypatch):
    """SIGTERM while the claim is being written (under load an SQLite claim waits seconds for its
    lock): the claim completes, then the stop is raised where the match is given back. Raised
    between the claim and the play, it used to leave the match running with no worker."""
    import signal

    from workers.queue import jobs

    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    real = jobs.claim_match

    def claim_then_signalled(**kw):
        claimed = real(**kw)
        signal.raise_signal(signal.SIGTERM)  # lands as the claim returns
        return claimed

    def pool_handler(signum, frame):  # billiard's pool process: SystemExit wherever it lands
        raise SystemExit(1)

    monkeypatch.setattr(jobs, "claim_match", claim_then_signalled)
    previous = signal.signal(signal.SIGTERM, pool_handler)
    try:
        with pytest.raises(SystemExit):
            play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=FakeRunner())
    finally:
        signal.signal(signal.SIGTERM, previous)
    row = match_row(session, match.id)
    assert (row.status, row.claimed_by, row.attempts) == ("queued", None, 0)


def _database_gone_at(session, *, after_commit: bool):
    """The session's next commit meets a database restart: OperationalError, and the transaction
    either rolled back (the usual case) or committed with its reply lost (`after_commit`)."""
    from sqlalchemy.exc import OperationalError

    real = session.commit

    def commit():
        session.commit = real  # once
        real() if after_commit else session.rollback()
        raise OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    session.commit = commit


@pytest.mark.parametrize("after_commit", [False, True], ids=["rolled-back", "reply-lost"])
def test_a_result_write_that_meets_a_database_restart_is_written_once_it_is_back(session, sessions, settings, house,
                                                                                monkeypatch, after_commit):
    """#39: the result's transaction met a PostgreSQL restart (OperationalError) with the worker alive:
    the match stayed `running` until the sweeper's bound and was replayed from scratch. Now the
    same transaction is sent again; one whose commit went through (its reply lost) counts as written."""
    from ladder.services import results

    real, calls = results.take_rating_clock, []

    def clock(session_):  # the first statement of the result's transaction
        calls.append(1)
        if len(calls) == 1:
            _database_gone_at(session_, after_commit=after_commit)
        return real(session_)

    monkeypatch.setattr(results, "take_rating_clock", clock)
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    runner = FakeRunner(ranks=[2, 1])
    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=runner)
    assert (result.status, len(calls), len(runner.calls)) == ("finished", 2, 1)
    row = match_row(session, match.id)
    assert (row.status, row.attempts, row.claimed_by) == ("finished", 1, "w1")
    assert rating_changes_per_match(session) == {match.id: 2}  # rated once


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_a_result_write_whose_connection_postgresql_ends_is_written_again(session, sessions, settings, house,
                                                                          monkeypatch, db_url):
    """The same for real: the worker's own connection ended by the server (pg_terminate_backend,
    what a restart does to every connection) in the middle of the result's transaction."""
    from ladder.services import results

    real, ended = results.take_rating_clock, []

    def clock(session_):
        if not ended:
            pid = session_.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
            admin = create_engine(db_url)
            with admin.begin() as conn:
                ended.append(conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar())
            admin.dispose()
        return real(session_)

    monkeypatch.setattr(results, "take_rating_clock", clock)
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w1", runner=FakeRunner())
    assert ended == [True] and result.status == "finished"
    assert match_row(session, match.id).status == "finished"
    assert rating_changes_per_match(session) == {match.id: 2}


def test_the_job_reports_what_the_database_recorded(session, sessions, settings, house):
    """A ranked match every seat forfeited is recorded failed (services/results.py): the job and its
    log line said "finished"."""
    match = queue_match(session=session, game="treasure", seats=house["treasure"])
    forfeited = fake_replay(2, [1, 2])
    forfeited = Replay(forfeited.header, seats=tuple(
        SeatRecord(s.seat, s.bot, status="crash", reason="crash: exited", forfeit=True, run=s.run, stderr="")
        for s in forfeited.seats), log=(), results=forfeited.results)

    def runner(plan, env):
        return record_of(plan, forfeited)

    result = play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner)
    assert result.status == "failed" and "every seat forfeited" in result.detail
    assert match_row(session, match.id).status == "failed"


def test_the_sweeper_takes_back_at_once_a_claim_whose_worker_is_gone(session, sessions, settings, house):
    """#39: a kill -9 of a worker's group or of one pool process left its match `running` for the
    whole stale bound (15 minutes). Its claim names the process (workers/queue/claims.py): the next
    sweep requeues it, while a young claim of a live worker, or one that proves nothing, stays."""
    import subprocess

    from workers.queue import claims
    from workers.sandbox.reap import start_time

    dead_worker = subprocess.Popen(["sleep", "60"])
    dead_claim = claims.worker_id().replace(f"p{os.getpid()}-{start_time(os.getpid())}",
                                            f"p{dead_worker.pid}-{start_time(dead_worker.pid)}") + ":delivery"
    dead_worker.kill()
    dead_worker.wait()
    games = ("treasure", "drachengold")
    dead, live, unknown = (queue_match(session=session, game=games[i % 2], seats=house[games[i % 2]])
                           for i in range(3))
    for match, claim in ((dead, dead_claim), (live, claims.worker_id() + ":x"), (unknown, "w1")):
        claim_match(session=session, match_id=match.id, worker_id=claim)
    sent, failed = sweep(sessions, settings)
    assert (sent.ladder, failed) == ([dead.id], [])
    assert [match_row(session, m.id).status for m in (dead, live, unknown)] == ["queued", "running", "running"]


def _voided_once(published: bool):
    """A runner whose first attempt the ladder voids, after sending a public event live or not."""
    from workers.match.blame import LadderFault

    seeds = []

    def runner(plan, env):
        seeds.append(plan.seed)
        if len(seeds) == 1:
            if published and env.on_entry is not None:
                env.on_entry({"event": "flip", "tile": 3})  # a public event: spectators saw it
            raise LadderFault("every bot of the table was killed by SIGKILL from outside the match")
        return record_of(plan, fake_replay(len(plan.seats), [1, 2]))

    return runner, seeds


@pytest.mark.parametrize("published", [True, False], ids=["events-out", "nothing-out"])
def test_a_voided_match_whose_events_went_out_is_played_again_on_a_fresh_seed(session, sessions, settings, house,
                                                                            published):
    """#39: a voided match was played again on the same seed after its public events went out live."""
    from ladder.relay.backends import MemoryRelay

    match = queue_match(session=session, game="treasure", seats=house["treasure"], seed=11)
    runner, seeds = _voided_once(published)
    relay = MemoryRelay()
    assert play_match(match.id, sessions=sessions, settings=settings, worker_id="w", runner=runner,
                      relay=relay).status == "finished"
    assert seeds[0] == 11 and (seeds[1] != 11) is published
    assert match_row(session, match.id).seed == seeds[1]  # the replay's seed is the match's


def test_a_duplicate_deals_match_sends_no_live_feed_and_keeps_its_deal_when_voided(session, sessions, settings,
                                                                                  house):
    """An order of a duplicate deal publishes nothing while the deal is played (services/event_hold.py):
    spectators of one order saw another running order's hidden tiles. So a voided order is played
    again on the deal's seed, as every other order of it is."""
    from ladder.models import User
    from ladder.relay.backends import MemoryRelay
    from ladder.services.tournaments import add_entrant, create_event, feed_events, start_event

    organizer = User(username="org", password_hash="!", is_admin=True)
    session.add(organizer)
    session.commit()
    ev = create_event(session=session, organizer_id=organizer.id, name="cup", game="treasure", table_size=2, deals=1)
    for version_id in house["treasure"]:
        add_entrant(session=session, event_id=ev.id, bot_id=session.get(BotVersion, version_id).bot_id,
                    acting_user_id=organizer.id)
    start_event(session=session, event_id=ev.id, acting_user_id=organizer.id)
    first = feed_events(session=session, slots=1)[0]
    seed = match_row(session, first).seed
    runner, seeds = _voided_once(published=True)
    relay = MemoryRelay()
    assert play_match(first, sessions=sessions, settings=settings, worker_id="w", runner=runner,
                      relay=relay).status == "finished"
    assert seeds == [seed, seed] and match_row(session, first).seed == seed
    assert relay.read(topics.public(first), limit=100) == []  # not a message, not even its start
