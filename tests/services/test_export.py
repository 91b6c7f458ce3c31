"""The ladder's games as Parquet: what is exported (finished matches only, filtered by game and day),
that it is exactly the replay and the recorded result, streamed a batch per row group, and that the
documented schema is the written one."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from service_support import record_played

from ladder.ranking.ratings import to_points
from ladder.services import export, matches
from ladder.services.export import ExportFilter, export_matches

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dataset.md"


def played(world, session, game: str, bots: list[str], when: datetime, *, ranked: bool = True, seed: int = 7):
    """A match of `game` between house-bot play, recorded as finished at `when`."""
    versions = [world.bot(game=game)[1].id for _ in bots]
    return record_played(session, game, versions, bots, when, ranked=ranked, seed=seed)


def read(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


NOV_20 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
NOV_21 = datetime(2026, 11, 21, 9, 30, tzinfo=UTC)


def test_every_finished_match_is_exported_as_recorded_and_replayed(world, session, sessions, tmp_path):
    treasure, t_replay = played(world, session, "treasure", ["careful", "random", "careful"], NOV_20)
    dragon, d_replay = played(world, session, "dragonflame", ["looter", "random", "heuristic"], NOV_21,
                              ranked=False)
    running = matches.queue_match(session=session, game="treasure", seats=[world.bot()[1].id for _ in range(2)])
    matches.claim_match(session=session, match_id=running.id, worker_id="w2")

    summary = export_matches(sessions, tmp_path / "out")

    rows = read(summary.files["matches"])
    assert [r["match_id"] for r in rows] == [treasure.id, dragon.id]  # the running match is not there
    first = rows[0]
    assert first["game"] == "treasure" and first["kind"] == "ladder" and first["ranked"] is True
    assert first["seed"] == treasure.seed and first["players"] == 3 and first["has_replay"] is True
    assert first["finished_at"] == NOV_20 and json.loads(first["options"]) == treasure.options
    assert rows[1]["ranked"] is False

    seats = read(summary.files["seats"])
    assert len(seats) == summary.seats == 6
    by_seat = {(s["match_id"], s["seat"]): s for s in seats}
    for result in t_replay["results"]:
        seat = by_seat[(treasure.id, result["seat"])]
        assert (seat["score"], seat["rank"], seat["status"]) == (result["score"], result["rank"], "ok")
        # a rated match's seats carry their rating change in points (the same maths as the site)
        assert seat["rating_after"] == pytest.approx(seat["rating_before"] + seat["rating_delta"])
    assert sum(by_seat[(treasure.id, s)]["rating_delta"] for s in range(3)) == pytest.approx(0)
    assert to_points(1_500_000) == by_seat[(treasure.id, 0)]["rating_before"]
    assert all(by_seat[(dragon.id, s)]["rating_delta"] is None for s in range(3))  # unrated

    log = read(summary.files["log"])
    for match, replay in ((treasure, t_replay), (dragon, d_replay)):
        mine = [r for r in log if r["match_id"] == match.id]
        assert [r["index"] for r in mine] == list(range(len(replay["log"])))
        for row, entry in zip(mine, replay["log"], strict=True):
            if "decision" in entry:
                assert (row["entry"], row["seat"], row["kind"]) == ("decision", entry["seat"], entry["kind"])
                assert json.loads(row["payload"]) == entry["decision"] and row["visible_to"] == [entry["seat"]]
            else:
                assert (row["entry"], row["kind"], row["seat"]) == ("event", entry["type"], None)
                assert json.loads(row["payload"]) == entry.get("data") and row["visible_to"] == entry.get("to")
    # DragonFlame deals private hands: some events are seen by one seat only, and the export says so
    hidden = [r for r in log if r["match_id"] == dragon.id and r["entry"] == "event" and r["visible_to"] is not None]
    assert hidden and all(len(r["visible_to"]) < 3 for r in hidden)


def test_filters_select_by_game_and_by_the_day_a_match_finished(world, session, sessions, tmp_path):
    t1, _ = played(world, session, "treasure", ["careful", "random"], NOV_20)
    t2, _ = played(world, session, "treasure", ["random", "careful"], NOV_21, seed=8)
    d1, _ = played(world, session, "dragonflame", ["looter", "random"], NOV_21)

    def ids(where: ExportFilter, name: str) -> list[int]:
        return [r["match_id"] for r in read(export_matches(sessions, tmp_path / name, where).files["matches"])]

    assert ids(ExportFilter(game="treasure"), "a") == [t1.id, t2.id]
    assert ids(ExportFilter(since=date(2026, 11, 21)), "b") == [t2.id, d1.id]
    assert ids(ExportFilter(until=date(2026, 11, 21)), "c") == [t1.id]  # until is exclusive
    assert ids(ExportFilter(game="dragonflame", since=date(2026, 11, 22)), "d") == []
    assert export.count_matches(sessions, ExportFilter(game="treasure", since=date(2026, 11, 21))) == 1


def test_matches_stream_a_batch_per_row_group(world, session, sessions, tmp_path):
    for seed in range(5):
        played(world, session, "treasure", ["random", "random"], NOV_20, seed=seed)
    seen: list[int] = []
    summary = export_matches(sessions, tmp_path / "out", batch=2, progress=seen.append)
    assert seen == [2, 2, 1]  # the database is read two matches at a time...
    for name in ("matches", "seats", "log"):
        groups = pq.ParquetFile(summary.files[name]).metadata.num_row_groups
        assert groups == 3, name  # ...and each batch is written as it comes, not gathered first
    assert summary.matches == 5 and len(read(summary.files["matches"])) == 5


def test_a_failed_export_leaves_no_file_behind(world, session, sessions, tmp_path, monkeypatch):
    played(world, session, "treasure", ["random", "random"], NOV_20)
    out = tmp_path / "out"

    def broken(*_args, **_kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(export, "_rows", broken)
    with pytest.raises(RuntimeError, match="went away"):
        export_matches(sessions, out)
    assert list(out.iterdir()) == []


def test_an_empty_export_still_writes_readable_tables(sessions, tmp_path):
    summary = export_matches(sessions, tmp_path / "out")
    for name, path in summary.files.items():
        table = pq.read_table(path)
        assert table.num_rows == 0 and table.schema.names == export.TABLES[name].names


def test_the_documented_columns_are_the_written_ones():
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- schema -->\n", 1)[1].split("<!-- /schema -->", 1)[0]
    assert block.strip() == export.schema_markdown().strip()
