"""The match queue: queueing from matchmaking, guarded claims, failures and the sweeper."""

from __future__ import annotations

import random
import threading
from collections import Counter
from datetime import timedelta

import pytest
from sqlmodel import select

from ladder.games import get_game
from ladder.models import BotVersion, Match, MatchStatus, Seat, VersionStatus, utcnow
from ladder.ranking.matchmaking import TableSize, make_tables
from ladder.services import bots, matches
from ladder.services.errors import Conflict, Forbidden, Invalid


def _seats(session, match_id):
    return list(session.exec(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat)))


def test_queue_tables_from_matchmaking(world, session):
    owners = [world.user() for _ in range(5)]
    versions = [world.bot(owner=owners[i % 5])[1] for i in range(10)]
    bots.seed_house_bots(session=session)
    pool = matches.matchmaking_pool(session=session, game="treasure")
    assert {c.bot for c in pool.candidates} >= {v.id for v in versions} and pool.house_owner is not None
    tables = make_tables(pool.candidates, TableSize.of(get_game("treasure")), random.Random(3), now=0, count=2,
                         exclude=pool.busy, house_owner=pool.house_owner)
    queued = [matches.queue_match(session=session, game="treasure", seats=t) for t in tables]
    for match, table in zip(queued, tables, strict=True):
        assert match.status == MatchStatus.QUEUED and match.ranked and match.kind == "ladder"
        assert match.options == get_game("treasure").resolve_options({})  # defaults stored, resolved
        assert [s.bot_version_id for s in _seats(session, match.id)] == list(table.bots)
    busy = matches.matchmaking_pool(session=session, game="treasure").busy
    assert pool.busy == set() and busy == {v for t in tables for v in t.bots}


def test_queue_match_refuses_what_cannot_be_played(world, session):
    _, v1 = world.bot()
    _, v2 = world.bot()
    _, dg = world.bot(game="drachengold")
    pending = bots.add_version(session=session, bot_id=world.bot()[0].id, code=b"x", filename="b.py")
    with pytest.raises(Invalid, match="plays drachengold"):
        matches.queue_match(session=session, game="treasure", seats=[v1.id, dg.id])
    with pytest.raises(Invalid, match="two seats"):
        matches.queue_match(session=session, game="treasure", seats=[v1.id, v1.id])
    with pytest.raises(Invalid, match="not active"):
        matches.queue_match(session=session, game="treasure", seats=[v1.id, pending.id])
    with pytest.raises(Invalid, match="players"):
        matches.queue_match(session=session, game="treasure", seats=[v1.id])
    with pytest.raises(Invalid, match="option"):
        matches.queue_match(session=session, game="treasure", seats=[v1.id, v2.id], options={"nope": 1})
    assert session.exec(select(Match)).all() == []


def test_a_match_is_claimed_once(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    match = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id], seed=42)
    claimed = matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    assert (claimed.status, claimed.claimed_by, claimed.attempts, claimed.seed) == ("running", "w1", 1, 42)
    assert claimed.started_at is not None
    assert matches.claim_match(session=session, match_id=match.id, worker_id="w2") is None
    assert session.get(Match, match.id).claimed_by == "w1"


def test_claim_next_takes_the_oldest(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    first, second = (matches.queue_match(session=session, game="treasure", seats=[a.id, b.id]) for _ in range(2))
    assert matches.claim_next_match(session=session, worker_id="w").id == first.id
    assert matches.claim_next_match(session=session, worker_id="w").id == second.id
    assert matches.claim_next_match(session=session, worker_id="w") is None


def _race(sessions, work, threads: int):
    """Run work(session) in `threads` threads released together; return their results."""
    barrier = threading.Barrier(threads)
    out: list = [None] * threads
    errors: list = []

    def run(i):
        with sessions() as s:
            try:
                barrier.wait()
                out[i] = work(s)
            except Exception as exc:  # surfaced below, in the test's thread
                errors.append(exc)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(60)
    assert not errors, errors
    return out


def test_racing_workers_claim_each_match_exactly_once(world, session, sessions):
    (_, a), (_, b) = world.bot(), world.bot()
    for _ in range(15):
        match = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
        won = _race(sessions, lambda s, m=match: matches.claim_match(session=s, match_id=m.id,
                                                                       worker_id=threading.current_thread().name), 4)
        winners = [m for m in won if m is not None]
        assert len(winners) == 1
        session.expire_all()
        stored = session.get(Match, match.id)
        assert (stored.attempts, stored.claimed_by) == (1, winners[0].claimed_by)


def test_racing_workers_drain_the_queue_without_duplicates(world, session, sessions):
    (_, a), (_, b) = world.bot(), world.bot()
    ids = {matches.queue_match(session=session, game="treasure", seats=[a.id, b.id]).id for _ in range(20)}

    def drain(s):
        got = []
        while (m := matches.claim_next_match(session=s, worker_id=threading.current_thread().name)) is not None:
            got.append(m.id)
        return got

    taken = [i for got in _race(sessions, drain, 3) for i in got]
    assert Counter(taken) == Counter(ids)  # every match once, none twice


def test_mark_failed_is_final_and_checks_the_claim(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    match = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    with pytest.raises(Conflict):
        matches.mark_failed(session=session, match_id=match.id, reason="x", worker_id="w2")
    failed = matches.mark_failed(session=session, match_id=match.id, reason="sandbox unavailable", worker_id="w1")
    assert (failed.status, failed.failure_reason) == ("failed", "sandbox unavailable") and failed.finished_at
    with pytest.raises(Conflict):
        matches.mark_failed(session=session, match_id=match.id, reason="again")
    assert matches.claim_match(session=session, match_id=match.id, worker_id="w1") is None


def test_sweeper_requeues_stale_matches_then_gives_up(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    stale = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    fresh = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    t0 = utcnow()
    for attempt in (1, 2):
        matches.claim_match(session=session, match_id=stale.id, worker_id=f"dead{attempt}", now=t0)
        matches.claim_match(session=session, match_id=fresh.id, worker_id="alive", now=t0 + timedelta(minutes=20))
        swept = matches.requeue_stale(session=session, stale_after=600, max_attempts=3, now=t0 + timedelta(minutes=15))
        assert (swept.requeued, swept.failed) == ([stale.id], [])
        session.expire_all()
        again = session.get(Match, stale.id)
        assert (again.status, again.claimed_by, again.attempts) == ("queued", None, attempt)
        assert session.get(Match, fresh.id).status == "running"
    matches.claim_match(session=session, match_id=stale.id, worker_id="dead3", now=t0)
    swept = matches.requeue_stale(session=session, stale_after=timedelta(minutes=10), max_attempts=3,
                                  now=t0 + timedelta(minutes=15))
    assert (swept.requeued, swept.failed) == ([], [stale.id])
    session.expire_all()
    gone = session.get(Match, stale.id)
    assert gone.status == "failed" and "3 attempts" in gone.failure_reason


def test_a_claim_whose_owner_is_proved_gone_is_swept_however_young(world, session):
    """`owner_gone` (workers/queue/claims.py on a worker) proves a holder dead: its match is swept
    without waiting for the stale bound, counted as an attempt (and failed past the last one)."""
    (_, a), (_, b) = world.bot(), world.bot()
    young, alive, last = (matches.queue_match(session=session, game="treasure", seats=[a.id, b.id]) for _ in range(3))
    for match, claim in ((young, "gone"), (alive, "alive"), (last, "gone-too")):
        matches.claim_match(session=session, match_id=match.id, worker_id=claim)
    swept = matches.requeue_stale(session=session, stale_after=600, max_attempts=1,
                                  owner_gone=lambda claim: claim.startswith("gone"))
    assert (swept.requeued, swept.failed) == ([], [young.id, last.id])  # each at its last attempt
    matches.claim_match(session=session, match_id=alive.id, worker_id="x")  # (still running: refused)
    session.expire_all()
    assert [session.get(Match, m.id).status for m in (young, alive, last)] == ["failed", "running", "failed"]
    again = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    matches.claim_match(session=session, match_id=again.id, worker_id="gone-again")
    swept = matches.requeue_stale(session=session, stale_after=600, max_attempts=3, owner_gone=lambda c: c != "alive")
    assert (swept.requeued, swept.failed) == ([again.id], [])


def test_release_running_gives_every_running_match_back_uncounted(world, session):
    """`ladder up` on its embedded database, after its worker was killed: what it left running
    goes back to the queue at once, its interrupted claim not counted; nothing else moves."""
    (_, a), (_, b) = world.bot(), world.bot()
    left = [matches.queue_match(session=session, game="treasure", seats=[a.id, b.id]) for _ in range(2)]
    waiting = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    done = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    for match in (*left, done):
        matches.claim_match(session=session, match_id=match.id, worker_id="killed")
    matches.mark_failed(session=session, match_id=done.id, reason="x", worker_id="killed")
    assert matches.release_running(session=session) == sorted(m.id for m in left)
    session.expire_all()
    for match in left:
        back = session.get(Match, match.id)
        assert (back.status, back.claimed_by, back.attempts) == ("queued", None, 0)
    assert session.get(Match, waiting.id).status == "queued" and session.get(Match, done.id).status == "failed"
    assert matches.release_running(session=session) == []


def test_validation_match_against_starter_bots(world, session):
    bots.seed_house_bots(session=session)
    bot, _ = world.bot()
    version = bots.add_version(session=session, bot_id=bot.id, code=b"v2", filename="b.py")
    match = matches.queue_validation_match(session=session, version_id=version.id)
    assert (match.kind, match.ranked) == ("validation", False)
    seats = _seats(session, match.id)
    assert seats[0].bot_version_id == version.id and len(seats) == 3  # two treasure starter bots
    session.expire_all()
    assert session.get(BotVersion, version.id).status == VersionStatus.VALIDATING
    matches.claim_match(session=session, match_id=match.id, worker_id="w")
    matches.mark_failed(session=session, match_id=match.id, reason="worker lost")
    session.expire_all()
    back = session.get(BotVersion, version.id)
    # the owner is told it is retried; the worker's own words (paths, exceptions) stay in the logs
    assert back.status == VersionStatus.PENDING and back.rejection_reason == matches.VALIDATION_RETRY


def test_challenges_need_one_own_bot(world, session):
    alice, bob = world.user(), world.user()
    (_, a), (_, b) = world.bot(owner=alice), world.bot(owner=bob)
    with pytest.raises(Forbidden):
        matches.queue_challenge(session=session, user_id=world.user().id, version_ids=[a.id, b.id])
    match = matches.queue_challenge(session=session, user_id=alice.id, version_ids=[a.id, b.id])
    assert (match.kind, match.ranked, match.requested_by) == ("challenge", False, alice.id)


def test_a_bot_in_a_queued_challenge_still_gets_rated_tables(world, session):
    _, victim_version = world.bot()
    mallory = world.user("mallory")
    _, own = world.bot(owner=mallory)
    matches.queue_challenge(session=session, user_id=mallory.id, version_ids=[own.id, victim_version.id])
    pool = matches.matchmaking_pool(session=session, game="treasure")
    assert victim_version.id not in pool.busy and own.id not in pool.busy
    rated = matches.queue_match(session=session, game="treasure", seats=[victim_version.id, own.id])
    assert matches.matchmaking_pool(session=session, game="treasure").busy == {victim_version.id, own.id}
    assert rated.kind == "ladder"


def test_claiming_gives_challenges_a_fair_share_not_all_workers(world, session):
    (_, a), (_, b) = world.bot(), world.bot()
    for _ in range(6):  # a flood of challenges queued before the rated matches
        matches.queue_match(session=session, game="treasure", seats=[a.id, b.id], kind="challenge")
    for _ in range(3):
        matches.queue_match(session=session, game="treasure", seats=[a.id, b.id])
    kinds = [matches.claim_next_match(session=session, worker_id=f"w{i}").kind for i in range(6)]
    assert kinds.count("ladder") == 3 and kinds.count("challenge") == 3


def test_a_match_given_back_or_swept_is_dealt_afresh(world, session):
    """#39: a voided match was played again on the seed whose events had gone out live. A match
    given back (a worker stopping), swept (its worker gone) or voided after its events went out
    (redeal_after_void) gets a fresh seed; a duplicate deal's keeps its own (test_event_hold)."""
    (_, a), (_, b) = world.bot(), world.bot()
    match = matches.queue_match(session=session, game="treasure", seats=[a.id, b.id], seed=7)
    matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    fresh = matches.redeal_after_void(session=session, match_id=match.id, worker_id="w1")
    assert fresh is not None and fresh != 7 and matches._reload(session, match.id).seed == fresh
    assert matches.redeal_after_void(session=session, match_id=match.id, worker_id="w2") is None  # not its claim
    seeds = [fresh]
    assert matches.release_match(session=session, match_id=match.id, worker_id="w1")
    seeds.append(matches._reload(session, match.id).seed)
    matches.claim_match(session=session, match_id=match.id, worker_id="w2")
    matches.requeue_stale(session=session, stale_after=0, now=utcnow() + timedelta(seconds=1))
    seeds.append(matches._reload(session, match.id).seed)
    matches.claim_match(session=session, match_id=match.id, worker_id="w3")
    assert matches.release_running(session=session) == [match.id]
    seeds.append(matches._reload(session, match.id).seed)
    assert len(set(seeds)) == 4
