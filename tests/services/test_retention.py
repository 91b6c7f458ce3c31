"""Retention (ladder/services/retention.py): prune deletes exactly what the policy says and nothing
else, a dry run deletes nothing and counts what it would, pruned matches keep their summary rows and
the ratings do not move."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from service_support import house_versions
from sqlmodel import select

from ladder.models import BotLog, BotVersion, BuildArtifact, Match, Rating, RatingChange, Replay, Seat
from ladder.play import play_builtin
from ladder.services import builds, dumps, matches, results
from ladder.services.ratings import recompute_ratings
from ladder.services.retention import Policy, prune
from ladder.storage import FolderStore

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
POLICY = Policy(validation_days=14, challenge_days=30, unranked_days=30, ladder_days=90, retired_build_days=30)


def played(session, versions, *, kind="ladder", ranked=None, days_ago: float, game="treasure", seed=7):
    match = matches.queue_match(session=session, game=game, seats=list(versions), seed=seed, kind=kind, ranked=ranked)
    matches.claim_match(session=session, match_id=match.id, worker_id="w1")
    bots = {"treasure": ["careful", "random"], "dragonflame": ["looter", "random"]}[game]
    replay = play_builtin(game, bots, seed=match.seed, options=match.options).replay
    results.record_result(session=session, match_id=match.id, worker_id="w1", now=NOW - timedelta(days=days_ago),
                          outcome=results.outcome_from_replay(replay, [f"stderr of seat {i}" for i in range(2)]))
    return match.id


def snapshot(session):
    session.rollback()
    return {
        "replays": set(session.exec(select(Replay.match_id)).all()),
        "logs": set(session.exec(select(BotLog.match_id)).all()),
        "matches": session.exec(select(Match.id, Match.status, Match.finished_at).order_by(Match.id)).all(),
        "seats": session.exec(select(Seat.match_id, Seat.seat, Seat.rank, Seat.score).order_by(Seat.match_id)).all(),
        "changes": session.exec(select(RatingChange.match_id, RatingChange.seat, RatingChange.delta)
                                .order_by(RatingChange.match_id, RatingChange.seat)).all(),
        "ratings": session.exec(select(Rating.bot_id, Rating.rating, Rating.games).order_by(Rating.bot_id)).all(),
    }


def test_prune_deletes_exactly_what_the_policy_says_and_a_dry_run_nothing(world, session, sessions, tmp_path):
    store = FolderStore(tmp_path)
    treasure = [world.bot()[1].id for _ in range(2)]
    flame = [world.bot(game="dragonflame")[1].id for _ in range(2)]
    due = {
        "old validation": played(session, treasure, kind="validation", days_ago=20),
        "old challenge": played(session, treasure, kind="challenge", days_ago=40),
        "old unranked": played(session, treasure, ranked=False, days_ago=40),
        "old ranked, dumped": played(session, treasure, days_ago=100),
    }
    kept = {
        "young validation": played(session, treasure, kind="validation", days_ago=10),
        "young challenge": played(session, treasure, kind="challenge", days_ago=20),
        "young unranked": played(session, treasure, ranked=False, days_ago=20),
        "young ranked, dumped": played(session, treasure, days_ago=10, seed=8),
        "old ranked, no dump": played(session, flame, days_ago=100, game="dragonflame"),
        "hidden validation": played(session, treasure, kind="validation", days_ago=20, seed=9),
    }
    replay = session.get(Replay, kept["hidden validation"])
    replay.hidden = True  # a moderator's evidence
    session.add(replay)
    session.commit()
    # the treasure days are dumped, dragonflame's is not (its dump missing: its replays stay)
    for days_ago in (100, 10):
        day = (NOW - timedelta(days=days_ago)).date()
        dumps.write_daily_dumps(sessions, store, day + timedelta(days=1), backfill=1)
    store.delete(dumps.dump_key("dragonflame", (NOW - timedelta(days=100)).date()))
    assert recompute_ratings(session=session) == []
    before = snapshot(session)
    assert set(due.values()) | set(kept.values()) <= before["replays"] == before["logs"]

    dry = prune(session=session, store=store, policy=POLICY, now=NOW, dry_run=True)
    counts = {p.what: p.count for p in dry.items}
    assert counts == {"validation replays": 1, "challenge replays": 1, "unranked ladder replays": 1,
                      "ladder replays in a daily dump": 1, "retired versions' build artifacts": 0,
                      "build blobs no row names": 0, "bot data blobs no version names": 0,
                      "scorecard rows past each bot's chart": 0}
    assert all(p.bytes > 0 for p in dry.items if p.count)
    assert dry.lines()[0].startswith("validation replays: would delete 1 (")
    assert snapshot(session) == before  # the dry run deleted nothing

    done = prune(session=session, store=store, policy=POLICY, now=NOW)
    assert [(p.what, p.count, p.bytes) for p in done.items] == [(p.what, p.count, p.bytes) for p in dry.items]
    after = snapshot(session)
    assert after["replays"] == before["replays"] - set(due.values())
    assert after["logs"] == before["logs"] - set(due.values())
    for name in ("matches", "seats", "changes", "ratings"):  # the summary rows and the ratings stay
        assert after[name] == before[name], name
    assert recompute_ratings(session=session) == []
    pruned = {m: session.get(Match, m).replay_pruned_at for m in [*due.values(), *kept.values()]}
    assert {m for m, at in pruned.items() if at is not None} == set(due.values())
    # a second run finds nothing more
    assert all(p.count == 0 for p in prune(session=session, store=store, policy=POLICY, now=NOW).items)


def test_zero_days_keeps_everything(world, session, tmp_path):
    treasure = [world.bot()[1].id for _ in range(2)]
    played(session, treasure, kind="validation", days_ago=400)
    forever = Policy(0, 0, 0, 0, 0)
    report = prune(session=session, store=FolderStore(tmp_path), policy=forever, now=NOW)
    assert [p.what for p in report.items] == ["build blobs no row names", "bot data blobs no version names",
                                                "scorecard rows past each bot's chart"]
    assert len(session.exec(select(Replay.match_id)).all()) == 1


def test_retired_versions_artifacts_go_row_and_blob_and_orphan_blobs_after_a_day(world, session, tmp_path):
    store = FolderStore(tmp_path)
    _, retired = world.bot()
    _, active = world.bot()
    _, young = world.bot()
    for version, key in ((retired, "r"), (active, "a"), (young, "y")):
        builds.store_artifact(session=session, store=store, key=key * 64, runtime="c", toolchain="gcc",
                              data=key.encode() * 10, log="", seconds=0.1)
        builds.note_builds(session=session, keys={version.id: key * 64})
    for version in (retired, young):
        row = session.get(BotVersion, version.id)
        row.status = "retired"
        session.add(row)
    for key, days in (("r", 40), ("a", 40), ("y", 5)):
        row = session.get(BuildArtifact, key * 64)
        row.created_at = NOW - timedelta(days=days)
        session.add(row)
    session.commit()
    old, new = NOW - timedelta(days=2), NOW - timedelta(hours=2)
    for name, when in (("o" * 64, old), ("n" * 64, new)):  # blobs a dead worker left without a row
        store.put(f"builds/{name}.tar", b"orphan")
        os.utime(tmp_path / "builds" / f"{name}.tar", (when.timestamp(), when.timestamp()))

    dry = {p.what: (p.count, p.bytes) for p in prune(session=session, store=store, policy=POLICY, now=NOW,
                                                       dry_run=True).items}
    assert dry["retired versions' build artifacts"] == (1, 10) and dry["build blobs no row names"] == (1, 6)
    assert len(list(store.list("builds/"))) == 5
    prune(session=session, store=store, policy=POLICY, now=NOW)
    session.rollback()
    assert sorted(session.exec(select(BuildArtifact.key)).all()) == ["a" * 64, "y" * 64]
    assert sorted(b.key for b in store.list("builds/")) == [f"builds/{k * 64}.tar" for k in "any"]


def test_pages_of_pruned_matches_still_answer(world, session, tmp_path):
    from ladder.services import pages

    versions = house_versions(session, "treasure")[:2] or [world.bot()[1].id for _ in range(2)]
    match_id = played(session, versions, kind="validation", days_ago=20)
    prune(session=session, store=FolderStore(tmp_path), policy=POLICY, now=NOW)
    view = pages.match_detail(session=session, match_id=match_id)
    assert not view.has_replay and view.match.replay_pruned_at is not None and len(view.seats) == 2
