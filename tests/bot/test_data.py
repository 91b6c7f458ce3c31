"""ladder/bot/data.py: the folder's zip form, the cap, and a match's changes applied file by file."""

from __future__ import annotations

import io
import stat
import zipfile

import pytest

from ladder.bot.data import BotDataError, Cap, Changes, apply, check_path, diff, read_zip, write_zip

CAP = Cap(max_bytes=1000, max_files=5)


def _zip(entries: list[tuple[str, bytes]], mode: int | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            if mode is not None:
                info.external_attr = mode << 16
            archive.writestr(info, data)
    return out.getvalue()


def test_a_folder_goes_to_a_zip_and_back_byte_for_byte():
    files = {"model.json": b'{"w": [1, 2]}', "runs/a.txt": b"x" * 100, "empty": b""}
    data = write_zip(files)
    assert read_zip(data, CAP) == files
    assert write_zip(dict(reversed(list(files.items())))) == data  # the same files, the same bytes


@pytest.mark.parametrize("name", ["/etc/passwd", "../up", "a/../../b", "a//b", "./a", "a\\b", "a\x00b", "a\nb",
                                  "x" * 300])
def test_a_path_outside_the_folder_or_odd_is_refused(name):
    with pytest.raises(BotDataError):
        check_path(name)


def test_a_zip_over_the_cap_is_refused_before_it_is_unpacked():
    with pytest.raises(BotDataError, match="6 files, over the cap of 5"):
        read_zip(_zip([(f"f{i}", b"") for i in range(6)]), CAP)
    with pytest.raises(BotDataError, match="more than the cap"):
        read_zip(_zip([("big", b"0" * 1001)]), CAP)


def test_a_zip_that_lies_about_its_sizes_is_held_to_the_cap_by_what_it_unpacks():
    data = bytearray(_zip([("big", b"0" * 5000)]))
    # the declared size (central directory and local header) says 10 bytes; the stream holds 5000
    for header in (b"PK\x01\x02", b"PK\x03\x04"):
        at = data.index(header)
        offset = at + (24 if header == b"PK\x01\x02" else 22)
        data[offset:offset + 4] = (10).to_bytes(4, "little")
    with pytest.raises(BotDataError):
        read_zip(bytes(data), CAP)


@pytest.mark.parametrize("data, why", [
    (b"not a zip", "not a zip"),
    (_zip([("link", b"/etc/passwd")], mode=stat.S_IFLNK | 0o777), "not a regular file"),
    (_zip([("a", b"1"), ("a/b", b"2")]), "both a file and a folder"),
    (_zip([("../escape", b"1")]), "'..'"),
])
def test_a_bad_zip_says_what_is_wrong(data, why):
    with pytest.raises(BotDataError, match=why):
        read_zip(data, CAP)


def test_the_cap_counts_files_and_bytes():
    CAP.check({f"f{i}": b"" for i in range(5)})
    CAP.check({"a": b"0" * 1000})
    with pytest.raises(BotDataError, match="over the cap"):
        CAP.check({f"f{i}": b"" for i in range(6)})
    with pytest.raises(BotDataError, match="over the cap"):
        CAP.check({"a": b"0" * 1001})


def test_changes_are_applied_file_by_file_onto_a_newer_version():
    start = {"counter": b"1", "keep": b"k", "gone": b"g"}
    mine = diff(start, {"counter": b"2", "keep": b"k", "mine": b"m"})
    assert mine == Changes({"counter": b"2", "mine": b"m"}, frozenset({"gone"}))
    # meanwhile another match of the same bot committed its own file and changed `keep`
    newer = {"counter": b"1", "keep": b"K", "gone": b"g", "theirs": b"t"}
    assert apply(newer, mine) == {"counter": b"2", "keep": b"K", "mine": b"m", "theirs": b"t"}


def test_a_file_written_where_a_folder_now_is_replaces_it_whole():
    assert apply({"a/b": b"1", "a/c": b"2", "d": b"3"}, Changes({"a": b"x"})) == {"a": b"x", "d": b"3"}
    assert apply({"a": b"x"}, Changes({"a/b": b"1"})) == {"a/b": b"1"}
