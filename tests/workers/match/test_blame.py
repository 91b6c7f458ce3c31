"""Failure injection: whatever the ladder does wrong voids the match and charges no seat; only what a
bot did (its exit, its output, its limits) is the bot's (workers/match/blame.py)."""

from __future__ import annotations

import errno
import os
import subprocess
import threading

import pytest

from workers.match import blame
from workers.match.blame import LadderFault
from workers.match.protocol import TimeControl
from workers.match.runner import run_match
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import process as sandbox
from workers.sandbox import slots as sandbox_slots

CLOCK = TimeControl(decision_ms=1000, bank_ms=2000, startup_ms=8000)
OTHERS = ["builtin:random", "builtin:random"]


def play(specs=None, **kw):
    return run_match(specs or ["builtin:random", *OTHERS], game="treasure", seed=5, sandbox="strict", clock=CLOCK, **kw)


def assert_nothing_left(uid_processes):
    """No teardown pending, no bot or table cgroup of this process (the freezer's hold group stays)."""
    assert sandbox.finish_teardowns() == 0
    mine = sandbox_cgroup.owned_groups(os.getpid())
    assert mine == [], mine


def failing_once(monkeypatch, target, name, exc):
    real = getattr(target, name)
    calls = []

    def flaky(*args, **kw):
        calls.append(1)
        if len(calls) == 2:  # the second bot of the first attempt
            raise exc
        return real(*args, **kw)

    monkeypatch.setattr(target, name, flaky)
    return calls


@pytest.mark.parametrize("exc, detail", [
    (subprocess.SubprocessError("Exception occurred in preexec_fn."), "SubprocessError"),
    (BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable"), "BlockingIOError (EAGAIN)"),
])
def test_popen_failing_voids_the_match_and_the_retry_plays_it(monkeypatch, strict_sandbox, uid_processes, exc,
                                                              detail):
    failing_once(monkeypatch, sandbox.subprocess, "Popen", exc)
    voided = []
    result = blame.retrying(lambda final: play(final_attempt=final), on_void=lambda n, f: voided.append(f))
    assert [(f.seat, f.certain, f.reason) for f in voided] == [
        (1, True, f"the sandbox could not start the bot: {detail}")]
    assert [r["status"] for r in result.results] == ["ok"] * 3  # nobody was charged
    assert_nothing_left(uid_processes)


def test_a_preexec_step_failing_for_real_is_the_ladders(monkeypatch, strict_sandbox, uid_processes):
    real = sandbox._preexec

    def broken(join_files, rlimits, uid):
        def run():
            raise OSError(errno.ENOENT, "cgroup gone")
        return run

    monkeypatch.setattr(sandbox, "_preexec", broken)
    with pytest.raises(LadderFault, match="SubprocessError") as caught:
        play()
    assert caught.value.seat == 0 and caught.value.certain
    monkeypatch.setattr(sandbox, "_preexec", real)
    assert_nothing_left(uid_processes)


def test_no_free_slot_and_a_refused_cgroup_write_are_the_ladders(monkeypatch, strict_sandbox, uid_processes):
    failing_once(monkeypatch, sandbox_slots, "acquire", sandbox_slots.SlotBusy("no free sandbox slot"))
    with pytest.raises(LadderFault, match="SlotBusy"):
        play()
    monkeypatch.undo()
    backend = sandbox_cgroup.backend_module()  # the host's: v1 here, v2 in the VM
    real_write = backend._write

    def refusing(path, value):
        if path.name == "pids.max":
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(path, value)

    monkeypatch.setattr(backend, "_write", refusing)
    with pytest.raises(LadderFault, match="CgroupError"):
        play()
    monkeypatch.undo()
    assert_nothing_left(uid_processes)


def test_bwrap_failing_before_the_bots_program_is_the_ladders(monkeypatch, strict_sandbox, uid_processes):
    real = sandbox.bwrap_argv

    def broken(*args, **kw):
        argv = real(*args, **kw)
        cut = argv.index("--")
        return [*argv[:cut], "--ro-bind", "/nonexistent-ladder-test", "/x", *argv[cut:]]

    monkeypatch.setattr(sandbox, "bwrap_argv", broken)
    with pytest.raises(LadderFault, match="before the bot's program started") as caught:
        play(final_attempt=True)  # certain: even the last attempt charges nobody
    assert caught.value.certain
    monkeypatch.undo()
    assert_nothing_left(uid_processes)


def test_a_monitor_killed_at_start_up_is_the_ladders_even_on_the_last_attempt(monkeypatch, tmp_path,
                                                                              strict_sandbox, uid_processes):
    bot = tmp_path / "slow.py"
    bot.write_text("import time\ntime.sleep(3)\nprint('{\"type\": \"ready\"}', flush=True)\n")
    real = sandbox.BotProcess.start.__func__

    def start(cls, *args, **kw):
        bp = real(cls, *args, **kw)
        if not hasattr(start, "done"):
            start.done = True
            threading.Timer(0.5, lambda: os.kill(bp.pid, 9)).start()
        return bp

    monkeypatch.setattr(sandbox.BotProcess, "start", classmethod(start))
    with pytest.raises(LadderFault, match="monitor was killed by SIGKILL") as caught:
        play([str(bot), *OTHERS], final_attempt=True)
    assert caught.value.certain
    assert_nothing_left(uid_processes)


SELF_KILL = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"


def test_a_start_up_sigkill_without_a_limit_is_void_until_the_last_attempt(tmp_path, strict_sandbox,
                                                                           uid_processes):
    """The ladder's teardown, bwrap's parent-death signal and the kernel kill this way, and so can a
    bot: void while attempts remain, the bot's on the last one, so no bot voids its matches at will."""
    bot = tmp_path / "suicide.py"
    bot.write_text(SELF_KILL)
    with pytest.raises(LadderFault, match="SIGKILL during start-up without reaching a limit") as caught:
        play([str(bot), *OTHERS], final_attempt=False)
    assert not caught.value.certain
    result = blame.retrying(lambda final: play([str(bot), *OTHERS], final_attempt=final))
    assert result.results[0]["status"] == "crash" and "SIGKILL during start-up" in result.results[0]["reason"]
    assert result.replay.to_json()["seats"][0]["forfeit"] and result.results[0]["rank"] == 3
    assert_nothing_left(uid_processes)


def test_running_out_of_memory_at_start_up_is_the_bots(tmp_path, strict_sandbox, uid_processes):
    bot = tmp_path / "hog.py"
    bot.write_text("data = bytearray(900 << 20)\n")  # over the 512 MiB a bot may use
    result = play([str(bot), *OTHERS], final_attempt=False)  # not void, not even on a first attempt
    assert result.results[0]["status"] == "crash" and "oom_kills" in result.results[0]["reason"]
    assert_nothing_left(uid_processes)
