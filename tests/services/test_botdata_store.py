"""Bot data versions in the store (services/botdata.py): each new version a blob of its own named by
its row, read back the same way; old versions in the column served until moved in batches; a write
that rolled back or a version the service pruned leaves a blob no row names, which retention sweeps
after a day and never before."""

from __future__ import annotations

import os
from datetime import timedelta

from sqlmodel import select

from ladder.bot.data import Cap, Changes, Collected, read_zip, write_zip
from ladder.models import BotDataVersion, utcnow
from ladder.services import botdata, matches, results
from ladder.services.results import MatchOutcome, SeatOutcome
from ladder.services.retention import Policy, prune
from ladder.storage import FolderStore

CAP = Cap(max_bytes=1000, max_files=10)
KEEP_ALL = Policy(0, 0, 0, 0, 0)


def test_versions_are_blobs_named_by_their_rows_and_read_back(world, session, tmp_path):
    store = FolderStore(tmp_path)
    bot, version = world.bot()
    assert botdata.replace(session=session, bot_id=bot.id, user_id=bot.owner_id, data=write_zip({"a.txt": b"1"}),
                           cap=CAP, store=store) == 1
    row = session.get(BotDataVersion, (bot.id, 1))
    assert row.data is None and row.blob.startswith(f"botdata/{bot.id}/1-") and store.exists(row.blob)
    # a match's changes are applied onto the version read from the store, inside the result
    match = matches.queue_match(session=session, game="treasure", seats=[version.id, world.bot()[1].id])
    assert matches.claim_match(session=session, match_id=match.id, worker_id="w") is not None
    assert botdata.snapshots(session, match.id, store)[0].files == {"a.txt": b"1"}
    outcome = MatchOutcome([SeatOutcome(rank=1, score=0, status="ok"), SeatOutcome(rank=2, score=0, status="ok")],
                           data=[Collected(Changes({"b.txt": b"2"})), None])
    results.record_result(session=session, match_id=match.id, outcome=outcome, worker_id="w", data_cap=CAP,
                          store=store)
    number, data = botdata.download(session=session, bot_id=bot.id, user_id=bot.owner_id, store=store)
    assert number == 2 and read_zip(data, botdata.STORED) == {"a.txt": b"1", "b.txt": b"2"}
    assert session.get(BotDataVersion, (bot.id, 2)).data is None


def test_old_versions_in_the_column_are_served_then_moved_in_batches(world, session, tmp_path):
    store = FolderStore(tmp_path)
    bots = [world.bot()[0] for _ in range(3)]
    for bot in bots:  # written without a store: the zip in the row, as before the store
        botdata.changes_version(session, bot.id, {"f": str(bot.id).encode()}, CAP)
    assert all(session.get(BotDataVersion, (b.id, 1)).data is not None for b in bots)
    assert botdata.files_of(session, bots[0].id, 1, store) == {"f": str(bots[0].id).encode()}
    assert botdata.move_to_store(session=session, store=store, batch=2) == 2
    assert botdata.move_to_store(session=session, store=store, batch=2) == 1
    assert botdata.move_to_store(session=session, store=store, batch=2) == 0
    session.expire_all()
    for bot in bots:
        row = session.get(BotDataVersion, (bot.id, 1))
        assert row.data is None and store.exists(row.blob)
        assert botdata.files_of(session, bot.id, 1, store) == {"f": str(bot.id).encode()}


def _age(tmp_path, key: str, days: float) -> None:
    when = (utcnow() - timedelta(days=days)).timestamp()
    os.utime(tmp_path / key, (when, when))


def test_blobs_no_version_names_are_swept_after_a_day_only(world, session, tmp_path):
    store = FolderStore(tmp_path)
    bot, _ = world.bot()
    for n in range(4):  # the service keeps the latest two versions: 1 and 2 are pruned as rows
        botdata.changes_version(session, bot.id, {"f": bytes([n])}, CAP, store=store)
    kept = set(session.exec(select(BotDataVersion.blob)).all())
    assert len(kept) == 2
    # a write that rolled back: its blob was put, its row never committed
    session.rollback()
    botdata._stored(bot.id, 5, {"g": b"x"}, store)
    session.rollback()
    blobs = [b.key for b in store.list("botdata/")]
    assert len(blobs) == 5
    young = prune(session=session, store=store, policy=KEEP_ALL)
    assert {p.what: p.count for p in young.items}["bot data blobs no version names"] == 0  # all under a day old
    for key in blobs:
        _age(tmp_path, key, 2)
    dry = prune(session=session, store=store, policy=KEEP_ALL, dry_run=True)
    assert {p.what: p.count for p in dry.items}["bot data blobs no version names"] == 3
    assert len(list(store.list("botdata/"))) == 5
    prune(session=session, store=store, policy=KEEP_ALL)
    assert {b.key for b in store.list("botdata/")} == kept
    assert botdata.files_of(session, bot.id, 4, store) == {"f": bytes([3])}
