"""Match folders (workers/sandbox/scratch.py): named for their maker, and swept with their bot data
mounts once the maker is gone, by the warden of a killed worker; a live maker's are never touched."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from needs import unavailable

from ladder.bot.data import Cap
from workers.build import bot_data
from workers.sandbox import scratch, warden
from workers.sandbox.reap import start_time

MAKER = """import sys, time
from workers.sandbox import scratch
from ladder.bot.data import Cap
from workers.build import bot_data
from ladder.bot.data import Cap
folder = scratch.make("7-", where=sys.argv[1] if len(sys.argv) > 1 else None)
(folder / "data-0").mkdir()
assert bot_data.mount_tmpfs(folder / "data-0", Cap(max_bytes=1 << 20, max_files=16))
print(folder, flush=True)
time.sleep(3600)
"""


@pytest.fixture
def root_only():
    if os.geteuid() != 0:
        unavailable("mounting a bot data tmpfs needs root")


def _mounted(folder: Path) -> list[str]:
    return scratch._mounts_inside(folder)


def _maker(where: str | None = None) -> tuple[subprocess.Popen, Path]:
    """A process that makes a match folder with a bot data mount in it, and waits."""
    proc = subprocess.Popen(
        [sys.executable, "-c", MAKER, *([where] if where else [])],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[3],
    )
    return proc, Path(proc.stdout.readline().strip())


def test_a_dead_makers_folder_goes_with_its_mounts_and_a_live_ones_stays(root_only):
    base = Path(tempfile.mkdtemp(prefix="ladder-test-scratch-"))
    proc, dead = _maker(str(base))
    ours = scratch.make("8-", where=base)
    (ours / "data-0").mkdir()
    assert bot_data.mount_tmpfs(ours / "data-0", Cap(max_bytes=1 << 20, max_files=16))
    unrelated = base / "ladder-match-9-abc"  # not named for a maker: never ours to remove
    unrelated.mkdir()
    # a maker of another pid namespace: its pid (long gone here) means nothing in this one
    elsewhere = base / f"ladder-match-p{2**22 + 1}-1-n1-x"
    elsewhere.mkdir()
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
        assert dead.name.startswith(f"ladder-match-p{proc.pid}-{start_time(proc.pid)}-n{namespace}-7-")
        assert scratch.sweep_stale(base) == 0  # its maker lives
        assert _mounted(dead)
        proc.kill()
        proc.wait()
        assert scratch.sweep_stale(base) == 1
        assert not dead.exists() and not _mounted(dead)
        assert ours.is_dir() and _mounted(ours) and unrelated.is_dir() and elsewhere.is_dir()
    finally:
        proc.kill()
        proc.wait()
        for point in _mounted(base):
            subprocess.run(["umount", point], check=False)
        shutil.rmtree(base, ignore_errors=True)


def test_a_killed_workers_warden_removes_its_match_folders(root_only):
    """The warden's whole life after its owner's SIGKILL (warden.watch): the groups' sweep, then the
    match folders, in the machine's temporary folder where workers make them."""
    proc, folder = _maker()
    try:
        assert folder.parent == Path(tempfile.gettempdir()) and _mounted(folder)
        started = start_time(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        warden.watch(proc.pid, started)
        assert not folder.exists() and not _mounted(folder)
    finally:
        proc.kill()
        proc.wait()
        if folder.exists():
            for point in _mounted(folder):
                subprocess.run(["umount", point], check=False)
            shutil.rmtree(folder, ignore_errors=True)
