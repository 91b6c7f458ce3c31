"""Migration 0018 and the artifacts' conversion: a row written before the store keeps serving its tar
from the column (the fallback) until `move_to_store` has put it in the store, in batches; back again
on downgrade (an artifact only in the store is dropped: it is built again)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text
from sqlmodel import Session

from ladder.db import alembic_config, make_engine, upgrade
from ladder.services import builds
from ladder.storage import FolderStore


def test_old_artifacts_are_served_from_the_column_until_moved_in_batches(db_url, tmp_path):
    engine = make_engine(db_url)
    store = FolderStore(tmp_path / "store")
    try:
        upgrade(engine, "0020_scorecards")
        with engine.begin() as conn:
            for n in range(5):
                conn.execute(text("INSERT INTO build_artifacts (key, runtime, toolchain, data, size, log, seconds, "
                                  "created_at) VALUES (:k, 'c', 'gcc', :d, 3, '', 0.1, '2026-01-01 00:00:00')"),
                             {"k": f"{n}" * 64, "d": f"tar{n}".encode()})
        upgrade(engine)
        with Session(engine) as session:
            assert builds.get_artifact(session=session, store=store, key="0" * 64) == b"tar0"  # from the column
            assert not list(store.list())
            assert builds.move_to_store(session=session, store=store, batch=2) == 2
            assert [b.key for b in store.list("builds/")] == [f"builds/{'0' * 64}.tar", f"builds/{'1' * 64}.tar"]
            assert builds.move_to_store(session=session, store=store, batch=10) == 3
            assert builds.move_to_store(session=session, store=store, batch=10) == 0
            for n in range(5):  # the same bytes, from the store now
                assert builds.get_artifact(session=session, store=store, key=f"{n}" * 64) == f"tar{n}".encode()
            session.rollback()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM build_artifacts WHERE data IS NOT NULL")).scalar() == 0
            conn.execute(text("UPDATE build_artifacts SET data = :d WHERE key = :k"), {"d": b"tar0", "k": "0" * 64})
            conn.commit()
        command.downgrade(alembic_config(engine), "0020_scorecards")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT key FROM build_artifacts")).scalars().all() == ["0" * 64]
        upgrade(engine)
    finally:
        engine.dispose()


def test_a_missing_blob_is_a_cache_miss_and_a_new_build_puts_it_back(session, tmp_path):
    store = FolderStore(tmp_path)
    builds.store_artifact(session=session, store=store, key="a" * 64, runtime="c", toolchain="gcc", data=b"tar",
                          log="", seconds=0.1)
    assert builds.get_artifact(session=session, store=store, key="a" * 64) == b"tar"
    store.delete(builds.blob_key("a" * 64))
    assert builds.get_artifact(session=session, store=store, key="a" * 64) is None  # the worker builds again
    builds.store_artifact(session=session, store=store, key="a" * 64, runtime="c", toolchain="gcc", data=b"tar",
                          log="", seconds=0.1)
    assert builds.get_artifact(session=session, store=store, key="a" * 64) == b"tar"
