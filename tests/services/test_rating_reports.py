"""The stored accuracy report: read from the rating history, a bounded window of it, stored, served."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from sqlmodel import select

from ladder.models import RatingChange
from ladder.services.rating_reports import compute_report, read_history, stored_report


def _three(world):
    return [world.bot(owner=world.user())[1].id for _ in range(3)]


def test_the_report_of_a_small_history_by_hand(world, session):
    versions = _three(world)
    for ranks in ([1, 2, 3], [3, 1, 2], [2, 2, 1], [1, 3, 2]):
        world.play(versions, ranks)
    assert stored_report(session=session, game="treasure") is None  # before the scheduler's first run
    row = compute_report(session=session, game="treasure", last=3, window=100,
                         now=datetime(2026, 12, 2, tzinfo=UTC))
    body = stored_report(session=session, game="treasure").body
    assert row.matches == 4 and body["matches"] == 4 and body["window"] == 100
    # the last 3 matches' pairs, from the stored ratings before each match, scored here by hand
    changes = session.exec(select(RatingChange).order_by(RatingChange.sequence, RatingChange.seat)).all()
    by_match: dict[int, list[RatingChange]] = {}
    for c in changes:
        by_match.setdefault(c.sequence, []).append(c)
    loss, pairs, right, decided = 0.0, 0, 0.0, 0
    for seats in list(by_match.values())[-3:]:
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                p = 1 / (1 + 10 ** ((b.before - a.before) / 400_000))
                s = 1.0 if a.rank < b.rank else 0.5 if a.rank == b.rank else 0.0
                loss -= s * math.log(p) + (1 - s) * math.log(1 - p)
                pairs += 1
                if a.rank != b.rank:
                    decided += 1
                    right += 0.5 if a.before == b.before else float((a.before > b.before) == (a.rank < b.rank))
    prediction = body["prediction"]
    assert prediction["pairs"] == pairs == 9 and prediction["decided_pairs"] == decided
    assert math.isclose(prediction["log_loss"], loss / pairs)
    assert math.isclose(prediction["accuracy"], right / decided)
    assert math.isclose(prediction["naive_log_loss"], math.log(2))
    # four games each: too few for a level, so nothing to settle or calibrate yet
    assert body["settling"]["versions"] == 0 and body["settling"]["too_few"] == 3
    assert body["calibration"]["ratings"] == 0 and body["calibration"]["coverage"] is None
    again = compute_report(session=session, game="treasure", last=3, window=100)  # replaces, one row per game
    assert stored_report(session=session, game="treasure").computed_at == again.computed_at


def test_the_window_bounds_what_is_read_and_knows_which_versions_started_in_it(world, session):
    versions = _three(world)
    for ranks in ([1, 2, 3], [3, 1, 2]):
        world.play(versions, ranks)
    late = world.bot(owner=world.user())[1].id
    world.play([versions[0], versions[1], late], [1, 2, 3])
    world.play([versions[2], late], [1, 2])
    history, new = read_history(session, "treasure", 2)
    assert [len(m) for m in history] == [3, 2]  # the last two matches, oldest first
    late_bot = history[-1][1].player
    assert new == {(late_bot, late)}  # the others played before the window
    whole, every = read_history(session, "treasure", 100)
    assert len(whole) == 4 and len(every) == 4
    assert read_history(session, "drachengold", 100) == ([], set())
