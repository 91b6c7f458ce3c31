"""The sandbox's /dev folder (workers/sandbox/devices.py): a bot sees the /dev bwrap's --dev gives
(less a devpts), read-only; a folder that is not exactly that is never used."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from workers.sandbox import devices

SLOW = 15 if os.environ.get("LADDER_VM_CLOCK") == "1" else 3

LOOK = """import errno, json, os, stat
def attempt(f, *a):
    try:
        return "ok:" + repr(f(*a))
    except OSError as exc:
        return "err:" + errno.errorcode.get(exc.errno, str(exc.errno))
def write(path):
    with open(path, "w") as f:
        return f.write("x")
def read(path, n):
    with open(path, "rb") as f:
        return len(f.read(n))
seen = {}
for name in sorted(os.listdir("/dev")):
    st = os.lstat("/dev/" + name)
    if stat.S_ISCHR(st.st_mode):
        seen[name] = ["chr", os.major(st.st_rdev), os.minor(st.st_rdev), oct(stat.S_IMODE(st.st_mode))]
    elif stat.S_ISLNK(st.st_mode):
        seen[name] = ["link", os.readlink("/dev/" + name)]
    else:
        seen[name] = ["dir"]
print(json.dumps({"dev": seen, "null": attempt(write, "/dev/null"), "zero": attempt(read, "/dev/zero", 8),
                  "urandom": attempt(read, "/dev/urandom", 8), "full": attempt(write, "/dev/full"),
                  "new": attempt(write, "/dev/pwned"), "shm": attempt(write, "/dev/shm/ok"),
                  "mkdir": attempt(os.mkdir, "/dev/pts/x")}), flush=True)
"""


def _look(kit, mode: str) -> dict:
    bot = kit.start(LOOK, mode=mode)
    line, reason = bot.read_line(time.monotonic() + SLOW)
    assert reason == "ok", (reason, bot.stderr_tail())
    return json.loads(line)


def test_a_bot_sees_the_dev_bwrap_would_build_read_only(strict_sandbox, kit, monkeypatch):
    assert devices.folder() is not None  # this machine can make it (root, a file system with devices)
    ours = _look(kit, strict_sandbox)
    monkeypatch.setattr(devices, "folder", lambda: None)
    bwraps = _look(kit, strict_sandbox)
    assert ours["dev"] == bwraps["dev"]  # the same names, device numbers, modes and links
    assert sorted(ours["dev"]) == sorted([*devices.NODES, *devices.LINKS, *devices.FOLDERS])
    for seen in (ours, bwraps):
        assert seen["null"] == "ok:1" and seen["zero"] == seen["urandom"] == "ok:8"
        assert seen["full"] == "err:ENOSPC"  # the real full device
        assert seen["new"] == "err:EROFS" and seen["shm"] == "ok:1"
    assert ours["mkdir"] == "err:EROFS"  # pts is the read-only folder's, not a devpts


@pytest.fixture
def place():
    """A folder the sandboxed uid can reach (pytest's tmp_path is root's alone); whatever a test
    mounted in it is unmounted."""
    folder = Path(tempfile.mkdtemp(prefix="ladder-test-dev-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    for line in reversed(Path("/proc/self/mountinfo").read_text().splitlines()):
        mounted = line.split()[4]
        if mounted.startswith(str(folder) + "/"):
            subprocess.run(["umount", mounted], check=True)
    shutil.rmtree(folder, ignore_errors=True)


def _made(place: Path) -> Path:
    """A folder as `devices._make` leaves it: right but for its read-only mount."""
    parent = place / "cache"
    parent.mkdir(mode=0o755)
    target = parent / "dev"
    devices._make(target)
    assert devices.problem(target) == f"{target} is not a read-only mount"
    return target


def test_the_folder_is_bound_read_only_once_and_then_used(strict_sandbox, place):
    target = _made(place)
    devices._read_only(target)
    devices._read_only(target)  # already so: no second mount
    assert devices.problem(target) is None
    assert [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()].count(str(target)) == 1
    with pytest.raises(OSError) as caught:
        (target / "new").write_text("")
    assert caught.value.errno == errno.EROFS


def test_a_folder_that_is_not_exactly_the_devices_is_refused(strict_sandbox, place):
    target = _made(place)
    (target / "null").unlink()
    os.mknod(target / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 1))  # /dev/mem's numbers
    os.chmod(target / "null", 0o666)
    assert "is not the null device" in devices.problem(target)
    (target / "null").unlink()
    os.mknod(target / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert "is not the null device" in devices.problem(target)  # the umask's mode, not 666
    os.chmod(target / "null", 0o666)
    assert devices.problem(target).endswith("is not a read-only mount")
    (target / "fd").unlink()
    (target / "fd").symlink_to("/proc/1/fd")
    assert "is not a link to /proc/self/fd" in devices.problem(target)


def test_a_folder_on_a_nodev_file_system_is_refused(strict_sandbox, place):
    mount = place / "nodev"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "nodev,size=1m", "ladder-test", str(mount)], check=True)
    try:
        target = mount / "cache" / "dev"
        target.parent.mkdir(mode=0o755)
        mount.chmod(0o755)
        devices._make(target)
        assert "mounted nodev" in devices.problem(target)
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_folder_others_may_write_or_holding_more_is_refused(strict_sandbox, place):
    target = _made(place)
    (target / "pts" / "ptmx").write_text("")
    assert devices.problem(target).endswith("pts is not empty")
    (target / "pts" / "ptmx").unlink()
    target.chmod(0o775)
    assert "with mode 755" in devices.problem(target)
    target.chmod(0o755)
    target.parent.chmod(0o777)
    assert "may be written by others" in devices.problem(target)
    target.parent.chmod(0o755)
    (target / "mem").symlink_to("/proc/kcore")
    assert "holds other files" in devices.problem(target)


def test_without_a_usable_folder_starts_keep_bwraps_dev_and_say_so(strict_sandbox, kit, monkeypatch, capfd, place):
    def refused(target):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(devices, "_make", refused)
    monkeypatch.setattr(devices, "cache_root", lambda: place / "cache")
    monkeypatch.setattr(devices, "FALLBACK", place / "tmp")
    devices.folder.cache_clear()
    try:
        assert devices.folder() is None
        seen = _look(kit, strict_sandbox)
        assert seen["null"] == "ok:1" and seen["new"] == "err:EROFS"
    finally:
        devices.folder.cache_clear()
    said = capfd.readouterr().err
    assert said.count("the sandbox's /dev folder could not be made or used (") == 1, said
