"""The operator's view of the queue, read from the database: depth and oldest age per queue, what
runs past the stale bound, each worker host's last claim, and a match's end as recorded."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import update

from ladder.models import Match, MatchKind, utcnow
from ladder.services import matches, results
from ladder.services.monitoring import match_end, snapshot, worker_host
from ladder.services.results import MatchOutcome, SeatOutcome


def _queued(world, session, kind=MatchKind.LADDER, age_s=0.0):
    seats = [world.bot()[1].id for _ in range(3)]
    match = matches.queue_match(session=session, game="treasure", seats=seats, kind=kind)
    if age_s:
        session.exec(update(Match).where(Match.id == match.id).values(created_at=utcnow() - timedelta(seconds=age_s)))
        session.commit()
    return match


def test_the_snapshot_counts_each_queue_and_its_oldest_match(world, session):
    empty = snapshot(session=session, stale_after=60)
    assert [(q.queue, q.depth, q.oldest_age_s) for q in empty.queues] == [("ladder.matches", 0, 0.0),
                                                                            ("ladder.priority", 0, 0.0)]
    _queued(world, session, age_s=30)
    _queued(world, session, age_s=300)
    _queued(world, session, kind=MatchKind.CHALLENGE, age_s=5)
    snap = snapshot(session=session, stale_after=60)
    ladder, priority = snap.queues
    assert ladder.depth == 2 and 299 < ladder.oldest_age_s < 330
    assert priority.depth == 1 and 4 < priority.oldest_age_s < 30


def test_running_past_the_stale_bound_and_last_claims_per_host(world, session):
    fresh, old = _queued(world, session), _queued(world, session)
    matches.claim_match(session=session, match_id=fresh.id, worker_id="hostA:101:abcd1234")
    matches.claim_match(session=session, match_id=old.id, worker_id="hostB:202:ffff0000")
    session.exec(update(Match).where(Match.id == old.id).values(claimed_at=utcnow() - timedelta(seconds=120)))
    session.commit()
    snap = snapshot(session=session, stale_after=60)
    assert snap.running == 2 and snap.running_past_stale == 1
    assert set(snap.last_claims) == {"hostA", "hostB"}
    assert snap.last_claims["hostA"] < 30 and 119 < snap.last_claims["hostB"] < 150
    assert worker_host(None) == "unknown"


def test_a_match_end_is_read_as_recorded(world, session):
    match = _queued(world, session)
    assert match_end(session=session, match_id=match.id) is None  # not ended
    matches.claim_match(session=session, match_id=match.id, worker_id="hostA:1:x")
    outcome = MatchOutcome([SeatOutcome(rank=r, score=3 - r) for r in (1, 2, 3)])
    results.record_result(session=session, match_id=match.id, outcome=outcome, worker_id="hostA:1:x")
    end = match_end(session=session, match_id=match.id)
    assert (end.status, end.game, end.attempts, end.worker, end.rating_changes) == ("finished", "treasure", 1,
                                                                                   "hostA:1:x", 3)
    assert len(end.bots) == 3 and all(" v1" in b for b in end.bots) and end.duration_s >= 0
    failed = _queued(world, session)
    matches.claim_match(session=session, match_id=failed.id, worker_id="hostA:1:y")
    matches.mark_failed(session=session, match_id=failed.id, reason="the ladder failed 3 times", worker_id="hostA:1:y")
    end = match_end(session=session, match_id=failed.id)
    assert end.status == "failed" and end.as_json()["failure_reason"] == "the ladder failed 3 times"
