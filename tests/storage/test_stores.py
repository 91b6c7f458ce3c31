"""The storage interface's contract, held by both backends: the folder on every run, S3 against moto's
server (tests/store_support.py)."""

from __future__ import annotations

import io
import os

import pytest
from needs import unavailable
from store_support import REGION, s3_bucket, s3_server  # noqa: F401 (fixtures)

from ladder.config import ConfigError, Settings
from ladder.storage import BlobMissing, FolderStore, check_key, chunks, open_store
from ladder.storage.s3 import S3Store


@pytest.fixture(params=["folder", "s3"])
def store(request, tmp_path):
    if request.param == "folder":
        return FolderStore(tmp_path / "store")
    server = request.getfixturevalue("s3_server")
    bucket = request.getfixturevalue("s3_bucket")
    from store_support import ACCESS_KEY, SECRET_KEY

    return S3Store(bucket, "some/prefix", endpoint=server.endpoint, region=REGION, access_key=ACCESS_KEY,
                   secret_key=SECRET_KEY)


def test_put_get_exists_delete(store):
    assert not store.exists("builds/a.tar")
    with pytest.raises(BlobMissing):
        store.get("builds/a.tar")
    with pytest.raises(BlobMissing):
        store.open("builds/a.tar")
    assert store.put("builds/a.tar", b"first") == 5
    assert store.get("builds/a.tar") == b"first"
    assert store.put("builds/a.tar", b"second, longer") == 14  # replaced whole
    assert store.get("builds/a.tar") == b"second, longer"
    assert store.stat("builds/a.tar").size == 14
    store.delete("builds/a.tar")
    store.delete("builds/a.tar")  # twice: no error
    assert not store.exists("builds/a.tar") and store.stat("builds/a.tar") is None


def test_streams_large_blobs_both_ways(store, tmp_path):
    # over boto3's 8 MiB multipart threshold: the upload goes in parts, the read in chunks
    data = bytes(range(256)) * (9 * 4096 + 17)
    path = tmp_path / "big"
    path.write_bytes(data)
    assert store.put_file("dumps/treasure/big.zip", path) == len(data)
    assert store.put("dumps/treasure/stream.zip", io.BytesIO(data)) == len(data)
    assert b"".join(chunks(store.open("dumps/treasure/big.zip"))) == data
    assert store.get("dumps/treasure/stream.zip") == data


def test_list_by_prefix_in_key_order(store):
    for key in ("dumps/treasure/t-2.zip", "dumps/treasure/t-1.zip", "dumps/dragonflame/d-1.zip", "builds/x.tar"):
        store.put(key, key.encode())
    assert [b.key for b in store.list("dumps/treasure/")] == ["dumps/treasure/t-1.zip", "dumps/treasure/t-2.zip"]
    assert [b.key for b in store.list("dumps/")] == ["dumps/dragonflame/d-1.zip", "dumps/treasure/t-1.zip",
                                                     "dumps/treasure/t-2.zip"]
    assert [b.key for b in store.list("dumps/treasure/t-2")] == ["dumps/treasure/t-2.zip"]
    assert len(list(store.list())) == 4
    assert [b.size for b in store.list("builds/")] == [len(b"builds/x.tar")]
    assert list(store.list("nothing/")) == []


@pytest.mark.parametrize("key", ["", "/abs", "a/../b", "..", "a//b", "a/./b", ".hidden", "a b", "a\\b", "a/"])
def test_keys_never_leave_the_store(store, key):
    with pytest.raises(ValueError):
        check_key(key)
    with pytest.raises(ValueError):
        store.put(key, b"x")
    with pytest.raises(ValueError):
        store.get(key)


def test_folder_writes_whole_or_not_at_all(tmp_path):
    store = FolderStore(tmp_path)

    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buf):
            raise OSError("the disk went away")

    store.put("builds/k.tar", b"old")
    with pytest.raises(OSError):
        store.put("builds/k.tar", Broken())
    assert store.get("builds/k.tar") == b"old"
    assert [p.name for p in (tmp_path / "builds").iterdir()] == ["k.tar"]  # no temporary file left


def test_settings_choose_the_backend(tmp_path, s3_server, s3_bucket):  # noqa: F811 (fixtures)
    embedded = Settings(instance_dir=tmp_path)
    assert embedded.store_url == f"file://{(tmp_path / 'store').resolve()}"
    assert isinstance(open_store(embedded), FolderStore)
    s3 = Settings.from_env(s3_server.env(s3_bucket, "p"), instance_dir=tmp_path)
    opened = open_store(s3)
    assert isinstance(opened, S3Store) and opened.location == f"s3://{s3_bucket}/p/ at {s3_server.endpoint}"
    opened.put("builds/k.tar", b"x")
    assert [o["Key"] for o in s3_server.client().list_objects_v2(Bucket=s3_bucket)["Contents"]] == ["p/builds/k.tar"]


@pytest.mark.parametrize("value", ["folder", "file://relative/x", "file:relative", "s3://", "http://x/y",
                                   "s3://b/p?x=1"])
def test_a_bad_store_url_is_refused(value):
    with pytest.raises(ConfigError, match="LADDER_STORE"):
        Settings.from_env({"LADDER_STORE": value})


def test_the_old_dumps_setting_is_refused_not_ignored():
    with pytest.raises(ConfigError, match="LADDER_DUMPS_DIR: the daily dumps live in the store"):
        Settings.from_env({"LADDER_DUMPS_DIR": "/srv/dumps"})


def test_a_root_process_writes_as_the_store_folders_owner(tmp_path):
    if os.geteuid() != 0:
        unavailable("root: only a root process (a worker) changes owners")
    root = tmp_path / "store"
    root.mkdir()
    os.chown(root, 12345, 12345)
    FolderStore(root).put("botdata/7/1-abc.zip", b"x")
    for path in (root / "botdata", root / "botdata" / "7", root / "botdata" / "7" / "1-abc.zip"):
        assert (path.stat().st_uid, path.stat().st_gid) == (12345, 12345), path
