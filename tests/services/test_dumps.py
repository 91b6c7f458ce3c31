"""Daily dumps: one zip per game and finished day, written once, listed and found by name only."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, date, datetime

import pyarrow.parquet as pq
from service_support import record_played

from ladder.services import dumps
from ladder.storage import FolderStore

NOV_20 = datetime(2026, 11, 20, 23, 59, tzinfo=UTC)
NOV_22 = datetime(2026, 11, 22, 0, 0, tzinfo=UTC)
TODAY = date(2026, 11, 23)


def two_days(world, session):
    versions = [world.bot()[1].id for _ in range(2)]
    record_played(session, "treasure", versions, ["careful", "random"], NOV_20)
    record_played(session, "treasure", versions, ["random", "careful"], NOV_22, seed=9)
    d_versions = [world.bot(game="dragonflame")[1].id for _ in range(2)]
    record_played(session, "dragonflame", d_versions, ["looter", "random"], NOV_22)


def test_each_game_gets_a_dump_per_day_with_matches_and_today_waits(world, session, sessions, tmp_path):
    store = FolderStore(tmp_path)
    two_days(world, session)
    versions = [world.bot()[1].id for _ in range(2)]
    record_played(session, "treasure", versions, ["random", "random"], datetime(2026, 11, 23, 8, tzinfo=UTC))
    written = dumps.write_daily_dumps(sessions, store, TODAY)
    assert sorted((d.game, d.day) for d in written) == [
        ("dragonflame", date(2026, 11, 22)), ("treasure", date(2026, 11, 20)), ("treasure", date(2026, 11, 22))]
    with zipfile.ZipFile(store.open(dumps.dump_key("treasure", date(2026, 11, 20)))) as zf:
        assert sorted(zf.namelist()) == ["README.md", "log.parquet", "matches.parquet", "scorecard.parquet",
                                         "seats.parquet"]
        matches = pq.read_table(io.BytesIO(zf.read("matches.parquet"))).to_pylist()
        assert [m["finished_at"] for m in matches] == [NOV_20]
        # each seat's measures of the day's match (services/scorecard.py wrote them with the result)
        card = pq.read_table(io.BytesIO(zf.read("scorecard.parquet"))).to_pylist()
        assert {r["match_id"] for r in card} == {m["match_id"] for m in matches}
        assert {(r["seat"], r["measure"]) for r in card} >= {(0, "bust_rate"), (1, "first"), (1, "sets_diamond")}
        assert "ladder export --game treasure --since 2026-11-20 --until 2026-11-21" in zf.read("README.md").decode()
    # written once: a second run finds nothing missing, and does not touch what is there
    stamp = store.stat(dumps.dump_key("treasure", date(2026, 11, 20))).modified
    assert dumps.write_daily_dumps(sessions, store, TODAY) == []
    assert store.stat(dumps.dump_key("treasure", date(2026, 11, 20))).modified == stamp
    # the next day, today's matches are yesterday's
    assert [(d.game, d.day) for d in dumps.write_daily_dumps(sessions, store, date(2026, 11, 24))] == [
        ("treasure", date(2026, 11, 23))]
    assert not list(tmp_path.rglob(".*"))  # no temporary folder left


def test_backfill_is_bounded_per_run(world, session, sessions, tmp_path):
    store = FolderStore(tmp_path)
    two_days(world, session)
    assert dumps.write_daily_dumps(sessions, store, TODAY, backfill=2) != []
    assert not store.exists(dumps.dump_key("treasure", date(2026, 11, 20)))  # 3 days back: next run


def test_listing_and_finding_go_by_registered_games_and_the_dump_shape_only(world, session, sessions, tmp_path):
    store = FolderStore(tmp_path)
    two_days(world, session)
    dumps.write_daily_dumps(sessions, store, TODAY)
    store.put("dumps/treasure/notes.txt", b"not a dump")
    store.put("dumps/treasure/treasure-2026-13-45.zip", b"not a day")
    store.put("dumps/chess/chess-2026-11-20.zip", b"x")
    listed = dumps.list_dumps(store)
    assert [d.day for d in listed["treasure"]] == [date(2026, 11, 22), date(2026, 11, 20)]  # newest first
    assert "chess" not in listed and listed["drachengold"] == []
    assert dumps.find_dump(store, "treasure", "treasure-2026-11-22.zip").size > 0
    for game, name in (("treasure", "treasure-2026-11-21.zip"),  # no such day
                       ("treasure", "dragonflame-2026-11-22.zip"),  # another game's name
                       ("chess", "chess-2026-11-20.zip"),  # not a registered game
                       ("treasure", "../treasure/treasure-2026-11-22.zip"),
                       ("treasure", "treasure-2026-13-45.zip"),  # not a date
                       ("treasure", "notes.txt")):
        assert dumps.find_dump(store, game, name) is None, (game, name)
