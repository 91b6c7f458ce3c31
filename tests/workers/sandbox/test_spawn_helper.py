"""The start helper (workers/sandbox/spawn.c, built by spawn_helper.py): built once, never taken from a
folder others could write, and it leaves bwrap exactly as the Python start window does."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from needs import unavailable

from workers.sandbox import spawn_helper

QUIET_BOT = "import sys\nprint('up', flush=True)\nsys.stdin.readline()\n"  # runs until its stdin closes


@pytest.fixture
def helper() -> str:
    path = spawn_helper.path()
    if path is None:
        unavailable("the start helper could not be built here (a C compiler)")
    return path


def _built(monkeypatch, cache: Path) -> str | None:
    monkeypatch.setattr(spawn_helper, "cache_root", lambda: cache)
    return spawn_helper.path.__wrapped__()  # past the per-process cache: what a new process does


def test_it_is_built_once_into_the_cache_and_reused(monkeypatch, tmp_path, helper):
    first = _built(monkeypatch, tmp_path / "cache")
    assert first is not None and Path(first).parent == tmp_path / "cache" / "spawn"
    made = os.stat(first)
    assert made.st_uid == os.geteuid() and made.st_mode & 0o777 == 0o755
    assert _built(monkeypatch, tmp_path / "cache") == first
    assert os.stat(first).st_mtime_ns == made.st_mtime_ns  # found, not built again


def test_a_helper_others_could_have_written_is_never_used(monkeypatch, tmp_path, helper):
    first = _built(monkeypatch, tmp_path / "cache")
    Path(first).write_bytes(b"#!/bin/sh\nexit 0\n")  # as another user's swap would leave it
    os.chmod(first, 0o777)
    again = _built(monkeypatch, tmp_path / "cache")
    assert again == first and os.stat(again).st_mode & 0o777 == 0o755
    assert Path(again).read_bytes().startswith(b"\x7fELF")  # built anew over the swapped one
    os.chmod(Path(first).parent, 0o777)  # a folder others may write: its file is never trusted
    elsewhere = _built(monkeypatch, tmp_path / "cache")
    assert elsewhere is not None and Path(elsewhere).parent != Path(first).parent


def test_without_a_compiler_starts_keep_the_python_window_and_say_so(monkeypatch, tmp_path, capfd):
    monkeypatch.setattr(spawn_helper.shutil, "which", lambda name: None)
    assert _built(monkeypatch, tmp_path / "cache") is None
    assert "slower Python start window" in capfd.readouterr().err


def _facts(bot) -> dict[str, str]:
    """What the start window sets, as bwrap's monitor (the started process) has it: read once the
    bot is up, since the monitor sets a signal mask of its own after its exec (SIGCHLD blocked, for
    its signalfd), and a read before that (the start returns at bwrap's exec) raced it under load."""
    assert bot.read_line(time.monotonic() + 30) == (b"up", "ok")
    pid = bot.pid
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    facts = {k: status[k].split() for k in ("Uid", "Gid", "Groups", "CapBnd", "CapEff", "CapPrm", "SigBlk",
                                           "SigIgn")}
    limits = Path(f"/proc/{pid}/limits").read_text().splitlines()[1:]
    facts["limits"] = [" ".join(line.split()) for line in limits]
    # the bot's own groups (their names differ from bot to bot: the hierarchies and the parent stay)
    facts["cgroups"] = sorted(line.split(":", 2)[1] + ":" + line.rsplit("/", 2)[-2]
                              for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
                              if "/ladder-sandbox/" in line)
    return facts


def test_bwrap_starts_with_the_same_uid_groups_capabilities_limits_cgroups_and_signals_either_way(
        monkeypatch, strict_sandbox, kit, helper):
    started = kit.start(QUIET_BOT, mode=strict_sandbox)
    by_helper = _facts(started)
    uid = str(started.uid)
    monkeypatch.setattr(spawn_helper, "path", lambda: None)
    by_python = _facts(kit.start(QUIET_BOT, mode=strict_sandbox))
    assert by_helper["Uid"] == [uid] * 4 and by_helper["Gid"] == [uid] * 4  # real, effective, saved, fs
    assert by_helper["Groups"] == []
    assert int(by_helper["CapBnd"][0], 16) == int(by_helper["CapEff"][0], 16) == 0
    assert int(by_helper["SigBlk"][0], 16) & (1 << (signal.SIGTERM - 1) | 1 << (signal.SIGINT - 1)) == 0
    assert by_helper["cgroups"] and all(g.endswith(":ladder-sandbox") for g in by_helper["cgroups"])
    assert [line for line in by_helper["limits"] if line.startswith("Max core file size")] == [
        "Max core file size 0 0 bytes"]
    for facts in (by_helper, by_python):
        facts.pop("Uid"), facts.pop("Gid")  # each bot has a slot (a uid) of its own
    assert by_helper == by_python
