"""Recording results: one transaction, refused twice, rated once, validation settled."""

from __future__ import annotations

import gzip
import signal
import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from sqlmodel import func, select

from ladder.models import (
    BotLog,
    BotVersion,
    HeadToHead,
    Match,
    Rating,
    RatingChange,
    RatingClock,
    Replay,
    ScorecardTally,
    Seat,
    VersionStatus,
    utcnow,
)
from ladder.play import play_builtin
from ladder.ranking.ratings import INITIAL_RATING
from ladder.replay import Replay as Replay_
from ladder.replay import dumps_replay, loads_replay
from ladder.services import bots, matches, pages, replay_names, results, stored_replays
from ladder.services.errors import AlreadyRecorded, Invalid
from ladder.services.ratings import missing_rating_changes
from ladder.services.results import MatchOutcome, SeatOutcome, outcome_from_replay


def _count(session, model) -> int:
    return session.exec(select(func.count()).select_from(model)).one()


def _running(world, session, n=3, worker="w1"):
    versions = [world.bot()[1] for _ in range(n)]
    match = matches.queue_match(session=session, game="treasure", seats=[v.id for v in versions])
    matches.claim_match(session=session, match_id=match.id, worker_id=worker)
    return match, versions


def _outcome(ranks, forfeited=None):
    forfeited = forfeited or [False] * len(ranks)
    return MatchOutcome([SeatOutcome(rank=r, score=9 - r, forfeited=f, status="timeout" if f else "ok")
                         for r, f in zip(ranks, forfeited, strict=True)])


def test_a_real_game_is_recorded_with_replay_logs_and_ratings(world, session):
    match, _ = _running(world, session, n=3)
    played = play_builtin("treasure", ["careful", "random", "careful"], seed=match.seed, options=match.options)
    logs = ["starting\n", "x" * 5000 + "Traceback: boom\n", None]
    outcome = outcome_from_replay(played.replay, logs)
    done = results.record_result(session=session, match_id=match.id, outcome=outcome, worker_id="w1",
                                 max_log_chars=1000)
    assert done.status == "finished" and done.finished_at is not None
    seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(Seat.seat)).all()
    assert [(s.rank, s.score) for s in seats] == [(r.rank, r.score) for r in played.results]
    # stored as played; served with the seats' current names (services/replay_names.py). The bots
    # here played under house names ("careful" twice) while the seats are three of the world's bots,
    # so only that every name served is a current one is asked, not which seat got which
    row = session.get(Replay, match.id)
    assert row.compact and len(row.data) < len(gzip.compress(dumps_replay(played.replay))) / 3
    assert stored_replays.stored_replay_bytes(session=session, match_id=match.id) == dumps_replay(played.replay)
    served = loads_replay(pages.replay_json(session=session, match_id=match.id))
    labels = set(replay_names.current_labels(session, match.id).values())
    assert {seat["bot"] for seat in served["seats"]} <= labels and {r["bot"] for r in served["results"]} <= labels
    expected = played.replay.to_json()
    assert {k: v for k, v in served.items() if k not in ("seats", "results", "log")} == \
        {k: v for k, v in expected.items() if k not in ("seats", "results", "log")}
    assert len(served["log"]) == len(expected["log"])
    stored_logs = {log.seat: log for log in session.exec(select(BotLog).where(BotLog.match_id == match.id))}
    assert stored_logs[0].text == "starting\n" and not stored_logs[0].truncated
    assert stored_logs[1].truncated and stored_logs[1].text.endswith("Traceback: boom\n")
    assert len(stored_logs[1].text) < 1100 and 2 not in stored_logs
    changes = session.exec(select(RatingChange).where(RatingChange.match_id == match.id)).all()
    assert len(changes) == 3 and sum(c.delta for c in changes) == 0
    for c in changes:
        assert session.get(Rating, c.bot_id).rating == c.after == INITIAL_RATING + c.delta


def test_recording_twice_is_refused_and_rates_once(world, session):
    match, versions = _running(world, session)
    results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 3]), worker_id="w1")
    before = {v.bot_id: session.get(Rating, v.bot_id).rating for v in versions}
    with pytest.raises(AlreadyRecorded, match="finished"):
        results.record_result(session=session, match_id=match.id, outcome=_outcome([3, 2, 1]), worker_id="w1")
    session.expire_all()
    assert {v.bot_id: session.get(Rating, v.bot_id).rating for v in versions} == before
    assert {v.bot_id: session.get(Rating, v.bot_id).games for v in versions} == dict.fromkeys(before, 1)
    assert _count(session, RatingChange) == 3
    seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(Seat.seat))
    assert [s.rank for s in seats] == [1, 2, 3]


def test_two_workers_recording_the_same_match_apply_ratings_once(world, session, sessions):
    match, versions = _running(world, session, n=4)
    barrier = threading.Barrier(2)
    outcomes: list = []

    def record(ranks):
        with sessions() as s:
            barrier.wait()
            try:
                results.record_result(session=s, match_id=match.id, outcome=_outcome(ranks))
                outcomes.append("recorded")
            except AlreadyRecorded:
                outcomes.append("refused")

    threads = [threading.Thread(target=record, args=(r,)) for r in ([1, 2, 3, 4], [4, 3, 2, 1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["recorded", "refused"]
    session.expire_all()
    assert _count(session, RatingChange) == 4
    assert all(session.get(Rating, v.bot_id).games == 1 for v in versions)


def test_a_result_from_a_worker_that_lost_its_claim_is_refused(world, session):
    match, _ = _running(world, session, worker="dead")
    matches.requeue_stale(session=session, stale_after=0, now=utcnow() + timedelta(seconds=1))
    session.expire_all()
    assert session.get(Match, match.id).status == "queued"
    matches.claim_match(session=session, match_id=match.id, worker_id="alive")
    with pytest.raises(AlreadyRecorded, match="alive"):
        results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 3]), worker_id="dead")
    results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 3]), worker_id="alive")
    assert _count(session, RatingChange) == 3


def test_bad_results_change_nothing(world, session):
    match, _ = _running(world, session)
    with pytest.raises(Invalid, match="seats"):
        results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2]))
    with pytest.raises(Invalid, match="status"):
        results.record_result(session=session, match_id=match.id,
                              outcome=MatchOutcome([SeatOutcome(rank=1, status="won")] * 3))
    with pytest.raises(Invalid, match="rank"):
        results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 4]))
    session.expire_all()
    assert session.get(Match, match.id).status == "running"  # rolled back: still recordable
    results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 1, 3]))


def test_unranked_failed_and_all_forfeited_matches_are_not_rated(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    world.play([a.id, b.id], [1, 2], kind="challenge", ranked=False)
    world.play([a.id, b.id], [1, 2], forfeited=[True, True])
    failed = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    matches.claim_match(session=session, match_id=failed.id, worker_id="w")
    matches.mark_failed(session=session, match_id=failed.id, reason="broker down")
    assert _count(session, RatingChange) == 0
    assert session.get(Rating, a.bot_id).games == 0
    world.play([a.id, b.id], [1, 2], forfeited=[True, False])  # one forfeit: rated, forfeiter last
    change = session.exec(select(RatingChange).where(RatingChange.bot_id == a.bot_id)).one()
    assert change.rank == 2 and change.forfeited and change.delta < 0


def test_a_ranked_match_where_every_seat_forfeited_is_void_never_finished_unrated(world, session):
    """The one way a finished ranked match could lack its rating changes: the ratings skip a match
    nobody played. It ends failed instead (usually the ladder's sandbox failed every seat)."""
    (_, a), (_, b) = world.bot(), world.bot()
    void = world.play([a.id, b.id], [1, 2], forfeited=[True, True])
    assert void.status == "failed" and void.failure_reason == results.ALL_FORFEITED
    seats = session.exec(select(Seat).where(Seat.match_id == void.id).order_by(Seat.seat)).all()
    assert [(s.status, s.forfeited) for s in seats] == [("crash", True), ("crash", True)]  # kept for owners
    played = world.play([a.id, b.id], [1, 2], forfeited=[True, True], kind="challenge", ranked=False)
    assert played.status == "finished" and played.failure_reason is None  # unranked: stands as played
    world.play([a.id, b.id], [2, 1])
    assert _count(session, RatingChange) == 2
    assert missing_rating_changes(session=session) == []


KILLED_IN_RATINGS = """
import os, signal, sys
from ladder.db import make_engine, session_factory
from ladder.services import results
from ladder.services.results import MatchOutcome, SeatOutcome

def die(*args, **kwargs):  # the status is flipped and the seats are flushed: SIGKILL now
    os.kill(os.getpid(), signal.SIGKILL)

results.apply_ratings = die
with session_factory(make_engine(sys.argv[1]))() as session:
    results.record_result(session=session, match_id=int(sys.argv[2]), worker_id="w1", outcome=MatchOutcome(
        [SeatOutcome(rank=r) for r in (1, 2, 3)], replay={"seats": [], "results": []}))
"""


def test_a_worker_killed_between_its_result_and_its_ratings_leaves_nothing_written(world, session, db_url):
    match, _ = _running(world, session)
    clock = session.get(RatingClock, 1).applied if session.get(RatingClock, 1) else 0
    session.commit()
    done = subprocess.run([sys.executable, "-c", KILLED_IN_RATINGS, db_url, str(match.id)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    session.expire_all()
    row = session.get(Match, match.id)
    assert (row.status, row.claimed_by, row.finished_at) == ("running", "w1", None)  # for the sweeper
    assert [s.rank for s in session.exec(select(Seat).where(Seat.match_id == match.id))] == [None] * 3
    assert session.get(Replay, match.id) is None and _count(session, RatingChange) == 0
    assert (session.get(RatingClock, 1).applied if session.get(RatingClock, 1) else 0) == clock
    session.commit()
    results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 3]), worker_id="w1")
    assert _count(session, RatingChange) == 3 and missing_rating_changes(session=session) == []


def test_placement_games_count_down_on_rated_matches(world, session):
    _, a = world.bot(placement=2)
    _, b = world.bot()
    for expected in (1, 0, 0):
        world.play([a.id, b.id], [2, 1])
        session.expire_all()
        assert session.get(BotVersion, a.id).placement_owed == expected


def _validate(world, session, seat_status, reason=None, log=None):
    bots.seed_house_bots(session=session)
    bot, old = world.bot()
    version = bots.add_version(session=session, bot_id=bot.id, code=b"new", filename="b.py")
    match = matches.queue_validation_match(session=session, version_id=version.id)
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    seats = [SeatOutcome(rank=1 + i, status=seat_status if i == 0 else "ok", forfeited=i == 0 and seat_status != "ok",
                         reason=None if seat_status == "ok" else reason or f"{seat_status}: no reply in 2.0 s",
                         log=log if i == 0 else None) for i in range(3)]
    results.record_result(session=session, match_id=match.id, outcome=MatchOutcome(seats))
    session.expire_all()
    return session.get(BotVersion, version.id), session.get(BotVersion, old.id)


def test_a_clean_validation_game_activates_the_version(world, session):
    new, old = _validate(world, session, "ok")
    assert (new.status, old.status) == (VersionStatus.ACTIVE, VersionStatus.RETIRED)
    assert _count(session, RatingChange) == 0  # validation games are unranked


def test_a_faulty_validation_game_rejects_the_version_with_the_reason(world, session):
    new, old = _validate(world, session, "timeout")
    assert new.status == VersionStatus.REJECTED
    assert new.rejection_reason == f"validation game {new.validation_match_id}: timeout: no reply in 2.0 s"
    assert old.status == VersionStatus.ACTIVE


def test_a_rejection_reason_names_the_fault_code_once(world, session):
    new, _ = _validate(world, session, "crash", reason="crash: exited with code 1 during start-up")
    expected = f"validation game {new.validation_match_id}: crash: exited with code 1 during start-up"
    assert new.rejection_reason == expected


def test_a_session_holding_the_rows_reads_what_recording_wrote(world, session):
    # recording writes seats, ratings, head-to-head and placement games with Core statements: the
    # objects a session already holds of those rows must not keep their old values
    match, versions = _running(world, session, n=3)
    results.record_result(session=session, match_id=match.id, outcome=_outcome([1, 2, 3]), worker_id="w1")
    again = matches.queue_match(session=session, game="treasure", seats=[v.id for v in versions])
    matches.claim_match(session=session, match_id=again.id, worker_id="w1")
    held_seats = session.exec(select(Seat).where(Seat.match_id == again.id).order_by(Seat.seat)).all()
    held_ratings = [session.get(Rating, v.bot_id) for v in versions]
    held_pair = session.get(HeadToHead, (versions[2].bot_id, versions[0].bot_id))
    assert held_pair.meetings == 1 and held_pair.losses == 1 and [r.games for r in held_ratings] == [1, 1, 1]
    results.record_result(session=session, match_id=again.id, outcome=_outcome([3, 2, 1]), worker_id="w1")
    assert [(s.rank, s.score, s.status) for s in held_seats] == [(3, 6, "ok"), (2, 7, "ok"), (1, 8, "ok")]
    assert [r.games for r in held_ratings] == [2, 2, 2] and held_ratings[2].wins == 1
    changes = session.exec(select(RatingChange).where(RatingChange.match_id == again.id)
                           .order_by(RatingChange.seat)).all()
    assert [r.rating for r in held_ratings] == [c.after for c in changes]
    assert (held_pair.meetings, held_pair.wins, held_pair.losses, held_pair.last_match_id) == (2, 1, 1, again.id)


def test_a_replay_sent_as_gzip_bytes_is_parsed_once_and_measured(world, session, monkeypatch):
    # a worker sends the replay gzipped; its row and its seats' scorecards both come of one parse
    match, _ = _running(world, session, n=2)
    played = play_builtin("treasure", ["careful", "random"], seed=match.seed, options=match.options)
    sent = gzip.compress(dumps_replay(played.replay), mtime=0)
    parses = []
    real = Replay_.from_json
    monkeypatch.setattr(Replay_, "from_json", staticmethod(lambda data: parses.append(1) or real(data)))
    results.record_result(session=session, match_id=match.id, outcome=MatchOutcome(
        outcome_from_replay(played.replay).seats, sent), worker_id="w1")
    assert len(parses) == 1
    rows = session.exec(select(ScorecardTally).where(ScorecardTally.match_id == match.id)).all()
    assert sorted(r.seat for r in rows) == [0, 1] and all(r.charted for r in rows)


def test_replay_bytes_that_do_not_parse_are_kept_and_the_result_still_recorded(world, session):
    match, _ = _running(world, session, n=2)
    sent = gzip.compress(b'{"not": "a replay"', mtime=0)
    done = results.record_result(session=session, match_id=match.id, outcome=MatchOutcome(
        _outcome([1, 2]).seats, sent), worker_id="w1")
    assert done.status == "finished"
    assert gzip.decompress(session.get(Replay, match.id).data) == b'{"not": "a replay"'
    assert not session.exec(select(ScorecardTally).where(ScorecardTally.match_id == match.id)).all()
