"""Voiding matches: their rating changes go, the ratings are rewritten from what remains."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import update
from sqlmodel import func, select

from ladder.models import BotVersion, HeadToHead, Match, ModerationAction, Rating, RatingChange, Seat
from ladder.services import ratings as ratings_service
from ladder.services.audit import Actor
from ladder.services.errors import Invalid
from ladder.services.ratings import recompute_ratings, rewrite_ratings
from ladder.services.voiding import void_matches

ADMIN = Actor("cli:operator")


def _league(world, bots: int = 5):
    return [world.bot(owner=world.user())[1] for _ in range(bots)]


def _play_some(world, versions, n: int = 30, seed: int = 3):
    rng = random.Random(seed)
    ids = [v.id for v in versions]
    return [world.play(rng.sample(ids, 3), world.random_ranks(rng, 3)) for _ in range(n)]


def _ratings(session) -> dict[int, tuple[int, int, int]]:
    session.expire_all()
    return {r.bot_id: (r.rating, r.games, r.wins) for r in session.exec(select(Rating))}


def test_voiding_a_bots_matches_rewrites_the_ratings_as_if_they_were_never_rated(world, session):
    versions = _league(world)
    played = _play_some(world, versions)
    cheat = versions[0].bot_id
    result = void_matches(session=session, actor=ADMIN, reason="sock puppet", bot_id=cheat)
    cheat_matches = set(session.exec(select(Seat.match_id).where(Seat.bot_id == cheat)))
    assert set(result.match_ids) == cheat_matches and 0 < len(cheat_matches) < len(played)
    assert recompute_ratings(session=session) == []
    after = _ratings(session)
    assert after[cheat][1] == 0  # no rated game left
    assert sum(r - 1500_000 for r, _, _ in after.values()) == 0  # still zero-sum
    # the same history without those matches, rated on a fresh ladder, gives the same numbers
    kept = [m for m in played if m.id not in set(result.match_ids)]
    assert sum(g for _, g, _ in after.values()) == 3 * len(kept)
    voided = session.get(Match, result.match_ids[0])
    session.refresh(voided)
    assert voided.voided_at is not None and voided.void_reason == "sock puppet"
    assert session.exec(select(func.count()).select_from(RatingChange)
                        .where(RatingChange.match_id.in_(result.match_ids))).one() == 0
    meetings = session.exec(select(func.sum(HeadToHead.meetings))).one()
    assert meetings == 6 * len(kept)  # three ordered pairs of three seats, both ways
    log = session.exec(select(ModerationAction)).all()
    assert [(e.action, e.actor, e.reason, e.details["count"]) for e in log] == [
        ("void_matches", "cli:operator", "sock puppet", len(result.match_ids))]


def test_void_needs_a_reason_and_a_selection_and_writes_nothing_otherwise(world, session):
    versions = _league(world, bots=3)
    match = world.play([v.id for v in versions], [1, 2, 3])
    with pytest.raises(Invalid, match="reason"):
        void_matches(session=session, actor=ADMIN, reason=" ", match_ids=[match.id])
    with pytest.raises(Invalid, match="which matches"):
        void_matches(session=session, actor=ADMIN, reason="x")
    void_matches(session=session, actor=ADMIN, reason="x", match_ids=[match.id])
    with pytest.raises(Invalid, match="no finished match"):  # voided already
        void_matches(session=session, actor=ADMIN, reason="x", match_ids=[match.id])
    assert session.exec(select(func.count()).select_from(ModerationAction)).one() == 1


def test_rewrite_corrects_every_stored_number_in_one_go(world, session):
    versions = _league(world, bots=4)
    _play_some(world, versions, n=12)
    session.exec(update(Rating).values(rating=Rating.rating + 7, wins=0))
    first = session.exec(select(func.min(RatingChange.sequence))).one()
    session.exec(update(RatingChange).where(RatingChange.sequence == first).values(delta=RatingChange.delta + 3))
    session.commit()
    broken = recompute_ratings(session=session)
    assert broken
    assert rewrite_ratings(session=session) == broken  # the dry run's list is what the write fixed
    assert recompute_ratings(session=session) == []


def test_the_dry_run_reads_one_snapshot_while_a_worker_commits_between_its_reads(world, session, sessions,
                                                                                monkeypatch):
    versions = _league(world, bots=3)
    _play_some(world, versions, n=6)
    real = ratings_service._replay_ratings_rows

    def commit_in_between(s):
        with sessions() as other:  # a worker rating a match between the history and the ratings
            other.exec(update(Rating).values(rating=Rating.rating + 1))
            other.commit()
        return real(s)

    monkeypatch.setattr(ratings_service, "_replay_ratings_rows", commit_in_between)
    assert recompute_ratings(session=session) == []


def test_a_versions_first_rated_match_moves_when_it_is_voided_and_a_tampered_one_is_found(world, session):
    versions = _league(world, bots=3)
    ids = [v.id for v in versions]
    first, second = world.play(ids, [1, 2, 3]), world.play(ids, [3, 2, 1])

    def firsts() -> dict[int, int | None]:
        session.expire_all()
        return {v: session.get(BotVersion, v).first_rated_sequence for v in ids}

    def sequence(match) -> int:
        return session.exec(select(RatingChange.sequence).where(RatingChange.match_id == match.id)).first()

    assert firsts() == dict.fromkeys(ids, sequence(first))  # written with the first rating change
    void_matches(session=session, actor=ADMIN, reason="replayed", match_ids=[first.id])
    assert firsts() == dict.fromkeys(ids, sequence(second))  # the rewrite moves it to what remains
    session.exec(update(BotVersion).where(BotVersion.id == ids[1]).values(first_rated_sequence=None))
    session.commit()
    diffs = recompute_ratings(session=session)
    assert [(d.field, d.stored, d.recomputed) for d in diffs] == [
        (f"version {ids[1]} first_rated_sequence", None, sequence(second))]
    assert rewrite_ratings(session=session) == diffs
    assert firsts()[ids[1]] == sequence(second) and recompute_ratings(session=session) == []
