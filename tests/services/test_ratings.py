"""Ratings bookkeeping: the stored history replays to the stored ratings, even with racing workers."""

from __future__ import annotations

import random
import threading

from sqlmodel import delete, func, select, update

from ladder.models import Match, Rating, RatingChange
from ladder.ranking.ratings import INITIAL_RATING
from ladder.services import matches, results
from ladder.services.ratings import (
    RatingDifference,
    UnratedMatch,
    check_ratings,
    latest_check,
    missing_rating_changes,
    recompute_ratings,
)
from ladder.services.results import MatchOutcome, SeatOutcome


def _league(world, bots: int = 8):
    owners = [world.user() for _ in range(bots)]
    return [world.bot(owner=o)[1].id for o in owners]


def test_recompute_matches_stored_after_hundreds_of_random_matches(world, session):
    versions = _league(world)
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 5)
        forfeited = [rng.random() < 0.1 for _ in range(n)]
        kind = rng.choice(["ladder"] * 8 + ["challenge"])
        world.play(rng.sample(versions, n), world.random_ranks(rng, n), forfeited=forfeited, kind=kind,
                   ranked=kind == "ladder")
    assert recompute_ratings(session=session) == []
    assert missing_rating_changes(session=session) == []  # every finished ranked match is rated
    rated = session.exec(select(func.count(func.distinct(RatingChange.match_id)))).one()
    assert 200 < rated < 300  # challenges and all-forfeit tables are not rated
    ratings = session.exec(select(Rating)).all()
    assert sum(r.rating - INITIAL_RATING for r in ratings) == 0  # zero-sum over the whole history
    assert len({r.rating for r in ratings}) > 1


def test_concurrent_workers_apply_ratings_in_one_recomputable_order(world, session, sessions):
    versions = _league(world, bots=6)
    for i in range(60):
        matches.queue_match(session=session, game="treasure", seats=random.Random(i).sample(versions, 4))
    barrier = threading.Barrier(3)
    errors = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        name = f"worker{seed}"
        with sessions() as s:
            barrier.wait()
            try:
                while (match := matches.claim_next_match(session=s, worker_id=name)) is not None:
                    outcome = MatchOutcome([SeatOutcome(rank=r) for r in world.random_ranks(rng, 4)])
                    results.record_result(session=s, match_id=match.id, outcome=outcome, worker_id=name)
            except Exception as exc:  # reported in the test's thread
                errors.append(exc)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert session.exec(select(func.count(func.distinct(RatingChange.match_id)))).one() == 60
    sequences = session.exec(select(RatingChange.match_id, RatingChange.sequence).distinct()).all()
    assert len({seq for _, seq in sequences}) == 60  # one applied-order number per match
    assert recompute_ratings(session=session) == []
    assert sum(r.games for r in session.exec(select(Rating))) == 240


def test_recompute_reports_what_differs(world, session):
    versions = _league(world, bots=3)
    for ranks in ([1, 2, 3], [3, 1, 2], [2, 2, 1]):
        world.play(versions, ranks)
    assert recompute_ratings(session=session) == []
    bot_id = session.exec(select(RatingChange.bot_id).order_by(RatingChange.sequence, RatingChange.seat)).first()
    rating = session.get(Rating, bot_id)
    rating.rating += 1
    change = session.exec(select(RatingChange).order_by(RatingChange.sequence.desc(), RatingChange.seat)).first()
    change.delta -= 5
    session.add_all([rating, change])
    session.commit()
    diffs = recompute_ratings(session=session)
    assert RatingDifference(bot_id, None, "rating", rating.rating, rating.rating - 1) in diffs
    assert RatingDifference(change.bot_id, change.match_id, "delta", change.delta, change.delta + 5) in diffs
    assert len(diffs) == 2


def test_recompute_of_an_empty_ladder_finds_nothing(world, session):
    _league(world, bots=2)  # rating rows at 1500 with no games are what an empty history gives
    assert recompute_ratings(session=session) == []


def test_finished_ranked_matches_lacking_rating_changes_are_reported(world, session):
    versions = _league(world, bots=4)
    whole = world.play(versions[:3], [1, 2, 3])
    short = world.play(versions[:3], [3, 2, 1])
    bare = world.play(versions[1:], [1, 2, 3])
    challenge = world.play(versions[:2], [1, 2], kind="challenge", ranked=False)  # never rated: not reported
    # what a non-atomic recording, or a finished all-forfeit match of old, would have left
    session.exec(delete(RatingChange).where(RatingChange.match_id == short.id, RatingChange.seat == 0))
    session.exec(delete(RatingChange).where(RatingChange.match_id == bare.id))
    session.exec(update(Match).where(Match.id == challenge.id).values(status="finished"))
    session.commit()
    assert missing_rating_changes(session=session) == [UnratedMatch(short.id, 3, 2, False),
                                                       UnratedMatch(bare.id, 3, 0, False)]
    assert missing_rating_changes(session=session, limit=1) == [UnratedMatch(short.id, 3, 2, False)]
    assert whole.id not in {u.match_id for u in missing_rating_changes(session=session)}


def test_each_ratings_check_is_recorded_and_the_newest_says_whether_they_held(world, session):
    """The scheduler's check (and `ladder ratings recompute`) keeps its result: what the
    ladder_ratings_check_ok metric and its alert read (#41)."""
    versions = _league(world, bots=3)
    assert latest_check(session) is None  # no check yet: the metric is absent, no alert on nothing
    for ranks in ([1, 2, 3], [3, 1, 2]):
        world.play(versions, ranks)
    first = check_ratings(session=session)
    assert (first.differences, first.missing, first.wrote) == (0, 0, False)
    rating = session.get(Rating, session.exec(select(RatingChange.bot_id)).first())
    rating.rating += 3
    session.add(rating)
    session.commit()
    second = check_ratings(session=session)
    assert second.differences == 1 and second.id != first.id
    assert latest_check(session).id == second.id


def test_each_match_stores_the_deviations_and_recompute_reproduces_them(world, session):
    """The deviation is written with the rating in the result's transaction, widened when a new
    version of a bot plays, and the replay of the history gives every stored deviation again."""
    from ladder.ranking.ratings import INITIAL_DEVIATION, RankedSeat, RatingBook
    from ladder.services.bots import activate_version, add_version
    from ladder.services.ratings import rewrite_ratings

    owners = [world.user() for _ in range(3)]
    made = [world.bot(owner=o) for o in owners]
    versions = [v.id for _, v in made]
    book = RatingBook()
    for ranks in ([1, 2, 3], [3, 1, 2], [2, 2, 1]):
        match = world.play(versions, ranks)
        book.apply(match.id, [RankedSeat(b.id, r, False, v) for (b, _), r, v in zip(made, ranks, versions,
                                                                                      strict=True)])
    bot, _ = made[0]
    newer = add_version(session=session, bot_id=bot.id, code=b"print('v2')\n", filename="bot.py", placement_games=0)
    activate_version(session=session, version_id=newer.id)
    versions[0] = newer.id
    match = world.play(versions, [1, 2, 3])
    expected = book.apply(match.id, [RankedSeat(b.id, r, False, v) for (b, _), r, v in zip(made, [1, 2, 3], versions,
                                                                                               strict=True)])
    stored = {c.bot_id: c for c in session.exec(select(RatingChange).where(RatingChange.match_id == match.id))}
    for change in expected.changes:
        assert (stored[change.player].deviation_before, stored[change.player].deviation) == (
            change.deviation_before, change.deviation)
        rating = session.get(Rating, change.player)
        assert rating.deviation == change.deviation < INITIAL_DEVIATION
    first = expected.changes[0]
    assert first.deviation_before > session.exec(  # the new version widened the bot's deviation first
        select(RatingChange.deviation).where(RatingChange.bot_id == bot.id).order_by(RatingChange.sequence.desc())
        .offset(1)).first()
    assert session.get(Rating, bot.id).version_id == newer.id
    assert recompute_ratings(session=session) == []

    rating = session.get(Rating, bot.id)
    rating.deviation += 7
    change = session.exec(select(RatingChange).where(RatingChange.match_id == match.id,
                                                     RatingChange.bot_id == bot.id)).one()
    change.deviation_before -= 3
    session.add_all([rating, change])
    session.commit()
    diffs = recompute_ratings(session=session)
    assert RatingDifference(bot.id, None, "deviation", rating.deviation, rating.deviation - 7) in diffs
    assert RatingDifference(bot.id, match.id, "deviation_before", change.deviation_before,
                            change.deviation_before + 3) in diffs
    assert len(diffs) == 2
    assert len(rewrite_ratings(session=session)) == 2
    assert recompute_ratings(session=session) == []
    session.expire_all()
    assert session.get(Rating, bot.id).deviation == first.deviation
