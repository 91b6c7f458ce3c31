"""workers/build/bot_data.py: a seat's data folder is writable at /botdata in the sandbox (strict
and user), announced in its environment, read back after the match, and held to the cap."""

from __future__ import annotations

import os

import pytest
from match_support import run_specs

from ladder.bot.data import Cap, Changes, Snapshot
from workers.build import bot_data as folders
from workers.match.protocol import TimeControl
from workers.match.runner import builtin_source

CLOCK = TimeControl(decision_ms=2000, bank_ms=5000, startup_ms=10000)
CAP = Cap(max_bytes=1 << 20, max_files=20)

# Runs at the bot's start, before it plays: read-modify-write of its data, and what it could see.
READ_MODIFY_WRITE = '''
import os as _os
_d = _os.environ["LADDER_BOT_DATA"]
_n = int(open(_d + "/counter").read()) if _os.path.exists(_d + "/counter") else 0
open(_d + "/counter", "w").write(str(_n + 1))
_os.remove(_d + "/old")
_os.makedirs(_d + "/sub", exist_ok=True)
open(_d + "/sub/new.txt", "w").write(_d + " " + _os.environ["LADDER_BOT_DATA_VERSION"])
try:
    open("/bot/escape", "w")
    open(_d + "/bot_was_writable", "w")
except OSError:
    pass
'''

OVER_THE_CAP = '''
import os as _os
_d = _os.environ["LADDER_BOT_DATA"]
open(_d + "/small", "w").write("kept only if the whole folder fits")
try:
    with open(_d + "/big", "wb") as _f:
        for _ in range(3):
            _f.write(b"x" * (1 << 20))
except OSError:
    pass  # ENOSPC from the sized tmpfs: the bot plays on
'''

SYMLINK = '''
import os as _os
_os.symlink("/etc/passwd", _os.environ["LADDER_BOT_DATA"] + "/link")
'''


def bot_with(tmp_path, prelude: str):
    """The treasure starter bot, with `prelude` run first."""
    source = builtin_source("treasure", "random").read_text()
    marker = 'if __name__ == "__main__":'
    path = tmp_path / "main.py"
    path.write_text(source.replace(marker, prelude + "\n" + marker))
    return str(path)


@pytest.fixture(params=["strict", "user"])
def mode(request):
    return request.getfixturevalue(f"{request.param}_sandbox")


def play(tmp_path, prelude, snapshot, mode):
    result = run_specs([bot_with(tmp_path, prelude), "builtin:random"], game="treasure", seed=3, sandbox=mode,
                       clock=CLOCK, bot_data=[snapshot, None], data_cap=CAP)
    assert [r["status"] for r in result.results] == ["ok", "ok"], result.replay.seats
    return result.data


def test_a_bot_reads_and_writes_its_folder_and_the_match_returns_its_changes(tmp_path, mode):
    start = Snapshot(7, {"counter": b"41", "old": b"gone soon", "keep/me": b"1"})
    data = play(tmp_path, READ_MODIFY_WRITE, start, mode)
    assert data[1] is None  # the house bot had no folder
    assert data[0].refused is None
    assert data[0].changes == Changes({"counter": b"42", "sub/new.txt": b"/botdata 7"}, frozenset({"old"}))


def test_a_folder_over_the_cap_is_refused_whole(tmp_path, mode):
    data = play(tmp_path, OVER_THE_CAP, Snapshot(1, {"model": b"m"}), mode)
    assert data[0].changes is None and "over the cap" in data[0].refused


def test_a_link_in_the_folder_is_refused_and_never_followed(tmp_path, mode):
    data = play(tmp_path, SYMLINK, Snapshot(1, {}), mode)
    assert data[0].changes is None and "not a regular file" in data[0].refused


def test_a_pinned_folder_is_writable_but_nothing_comes_back(tmp_path, mode):
    data = play(tmp_path, READ_MODIFY_WRITE, Snapshot(2, {"old": b"1"}, keep=False), mode)
    assert data == [None, None]


def test_a_folder_is_read_back_without_following_anything(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    folders.write_folder(root, {"a/b.txt": b"1", "c": b"2"})
    assert folders.read_folder(root, CAP) == {"a/b.txt": b"1", "c": b"2"}
    os.mkfifo(root / "pipe")
    with pytest.raises(folders.BotDataError, match="not a regular file"):
        folders.read_folder(root, CAP)
    (root / "pipe").unlink()
    for i in range(25):
        (root / f"f{i}").write_bytes(b"")
    with pytest.raises(folders.BotDataError, match="over the cap"):
        folders.read_folder(root, CAP)


def test_where_the_worker_may_mount_the_folder_is_a_tmpfs_sized_to_the_cap(tmp_path, strict_sandbox):
    """A strict worker runs as root, so it mounts one (elsewhere the cap is checked after: above)."""
    seats = folders.SeatFolders(tmp_path, [Snapshot(1, {"a": b"1"})], CAP, "strict")
    folder = seats.folders[0]
    try:
        assert seats.mounted == [folder] and os.path.ismount(folder)
        assert (folder / "a").read_bytes() == b"1"
        with pytest.raises(OSError) as err, open(folder / "big", "wb") as f:
            for _ in range(4):
                f.write(b"x" * (1 << 20))
                f.flush()
        assert err.value.errno == 28  # ENOSPC: the bot cannot write past the cap at all
    finally:
        seats.remove()
    assert not os.path.ismount(folder) and not folder.exists()


def test_empty_folders_count_too_so_a_plain_folder_cannot_hold_millions(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    for i in range(folders.entry_limit(CAP) + 1):
        (root / f"d{i}").mkdir()
    with pytest.raises(folders.BotDataError, match="files and folders, over the cap"):
        folders.read_folder(root, CAP)


# Writes its folder and then never exits: the ladder stops it after `end` and its grace.
STAYS_AFTER_END = READ_MODIFY_WRITE + '''
import atexit as _atexit, time as _time
_atexit.register(lambda: _time.sleep(3600))
'''


def test_a_bot_the_ladder_had_to_stop_keeps_nothing(tmp_path, mode):
    data = play(tmp_path, STAYS_AFTER_END, Snapshot(1, {"old": b"1"}), mode)
    assert data[0].changes is None and "still running when its match ended" in data[0].refused
