"""Failure injection: whatever the ladder does wrong voids the match and charges no seat; only what a
bot did (its exit, its output, its limits) is the bot's (workers/match/blame.py)."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import threading
import time

import pytest
from match_support import run_specs

from workers.match import blame
from workers.match.blame import LadderFault
from workers.match.protocol import TimeControl
from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import preexec as sandbox_preexec
from workers.sandbox import process as sandbox
from workers.sandbox import slots as sandbox_slots
from workers.sandbox import warden as sandbox_warden
from workers.sandbox.bwrap import BWRAP

CLOCK = TimeControl(decision_ms=1000, bank_ms=2000, startup_ms=8000)
OTHERS = ["builtin:random", "builtin:random"]


def play(specs=None, **kw):
    return run_specs(specs or ["builtin:random", *OTHERS], game="treasure", seed=5, sandbox="strict", clock=CLOCK, **kw)


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
    (subprocess.SubprocessError("Exception occurred in preexec_fn."), "start failed: SubprocessError"),
    (BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable"), "fork or exec of bubblewrap failed: EAGAIN"),
])
def test_popen_failing_voids_the_match_and_the_retry_plays_it(monkeypatch, strict_sandbox, uid_processes, exc,
                                                              detail):
    # The first strict start of a process also starts its warden with a Popen. Start it now, so
    # the second Popen counted is the second bot's, whichever test ran first in this process.
    sandbox_warden.ensure()
    failing_once(monkeypatch, sandbox.subprocess, "Popen", exc)
    voided = []
    result = blame.retrying(lambda final: play(final_attempt=final), on_void=lambda n, f: voided.append(f))
    assert [(f.seat, f.certain, f.reason) for f in voided] == [
        (1, True, f"the sandbox could not start the bot: {detail}")]
    assert [r["status"] for r in result.results] == ["ok"] * 3  # nobody was charged
    assert_nothing_left(uid_processes)


def fail_step(monkeypatch, start_window, step, code):
    """The child's `step` refused with errno `code`: injected in the Python start window by
    replacing the call, in the helper by its -f option (which can only fail a start)."""
    if start_window == "helper":
        real = sandbox_preexec.HelperWindow.helper_options
        monkeypatch.setattr(sandbox_preexec.HelperWindow, "helper_options",
                            lambda self: [*real(self), "-f", step, str(code)])
        return

    def refused(*ids):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(sandbox_preexec.os, step, refused)  # the forked child calls it


def test_a_preexec_step_failing_for_real_names_its_step_and_errno(monkeypatch, strict_sandbox, uid_processes,
                                                                  start_window):
    """The child's setresuid refused (as the kernel does with EAGAIN): the reason names the step and
    errno, not Python's bare SubprocessError, and the match is void (workers/sandbox/preexec.py)."""
    fail_step(monkeypatch, start_window, "setresuid", errno.EAGAIN)
    with pytest.raises(LadderFault) as caught:
        play()
    monkeypatch.undo()
    assert caught.value.reason == "the sandbox could not start the bot: setresuid failed: EAGAIN"
    assert caught.value.seat == 0 and caught.value.certain
    assert_nothing_left(uid_processes)


def test_joining_the_slots_network_namespace_failing_names_the_step(monkeypatch, strict_sandbox, uid_processes,
                                                                    start_window):
    """The start window joins the slot's network namespace (workers/sandbox/netns.py) while still
    privileged; refused there, the start names that step, and the match is void."""
    if start_window == "helper":
        fail_step(monkeypatch, start_window, "network namespace", errno.EPERM)
    else:
        def refused(fd):
            raise OSError(errno.EPERM, os.strerror(errno.EPERM))

        monkeypatch.setattr(sandbox_preexec, "_setns", refused)  # the forked child calls it
    with pytest.raises(LadderFault) as caught:
        play()
    monkeypatch.undo()
    assert caught.value.reason == "the sandbox could not start the bot: network namespace failed: EPERM"
    assert_nothing_left(uid_processes)


def test_a_cgroup_join_failing_in_the_child_names_the_hierarchy(monkeypatch, strict_sandbox, uid_processes,
                                                                start_window):
    real = sandbox_preexec.StartWindow.__init__

    def gone(self, join_files, *args, **kw):  # as if the group had been removed under the start
        real(self, [*join_files[:1], join_files[1] + "-gone", *join_files[2:]], *args, **kw)

    monkeypatch.setattr(sandbox_preexec.StartWindow, "__init__", gone)
    with pytest.raises(LadderFault, match=r"could not start the bot: cgroup join \((\w+|cgroup2)\) failed: ENOENT$"):
        play()
    monkeypatch.undo()
    assert_nothing_left(uid_processes)


def test_an_exec_failing_names_its_errno(monkeypatch, strict_sandbox, uid_processes, start_window):
    real = sandbox.bwrap_argv
    monkeypatch.setattr(sandbox, "bwrap_argv", lambda *a, **kw: ["/nonexistent-ladder-bwrap", *real(*a, **kw)[1:]])
    with pytest.raises(LadderFault) as caught:
        play()
    monkeypatch.undo()
    assert caught.value.reason == "the sandbox could not start the bot: fork or exec of bubblewrap failed: ENOENT"
    assert_nothing_left(uid_processes)


def test_a_stop_signal_in_the_fork_window_never_runs_the_workers_handler(monkeypatch, strict_sandbox,
                                                                          uid_processes, start_window):
    """A SIGTERM that reaches the child before its exec (the worker's process group is signalled
    before the child has a group of its own) used to run the pool's handler there, which raised and
    failed the start as a bare SubprocessError. Now the parent blocks it across the fork and the
    child drops it: the bot starts, and the worker's handler runs in no process."""
    real = sandbox_preexec.PythonWindow.preexec
    real_options = sandbox_preexec.HelperWindow.helper_options
    ran = []

    def signalled_first(self):
        os.kill(os.getpid(), signal.SIGTERM)  # in the child, before any step
        real(self)

    def pool_handler(signum, frame):  # billiard's: raises SystemExit wherever it lands
        ran.append(os.getpid())
        raise SystemExit(1)

    monkeypatch.setattr(sandbox_preexec.PythonWindow, "preexec", signalled_first)
    # the helper raises it first thing (its -s option), as the child of the fork does above
    monkeypatch.setattr(sandbox_preexec.HelperWindow, "helper_options",
                        lambda self: [*real_options(self), "-s", str(int(signal.SIGTERM))])
    previous = signal.signal(signal.SIGTERM, pool_handler)
    try:
        result = play()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert [r["status"] for r in result.results] == ["ok"] * 3
    assert ran == []
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
    # Not void, not even on a first attempt. Touching 512 MiB before the kernel kills it can take
    # over 8 s on a loaded machine: the bot's start-up allowance is no part of this test.
    slow = TimeControl(decision_ms=1000, bank_ms=2000, startup_ms=60000)
    result = run_specs([str(bot), *OTHERS], game="treasure", seed=5, sandbox="strict", clock=slow,
                       final_attempt=False)
    assert result.results[0]["status"] == "crash" and "oom_kills" in result.results[0]["reason"]
    assert_nothing_left(uid_processes)


def test_only_a_limit_of_its_own_group_is_the_bots():
    """An OOM kill is counted in the victim's group whichever group ran out of memory: without a hit
    of its own limit (memory.failcnt, v2's "max", a peak at its limit: this host's v1 kernel keeps
    failcnt at 0), the worker's or the machine's memory ran out."""
    within = {"oom_kills": 1, "memory_failcnt": 0, "memory_peak_bytes": 1 << 20, "memory_limit_bytes": 512 << 20}
    death = blame.startup_death(exit_signal=9, monitor_signal=None, program_started=True, events=within)
    assert death is not None and death.certain and "within its own memory limit" in death.reason
    assert not blame.charges_seat(death, final_attempt=True)
    at_limit = {"oom_kills": 1, "memory_failcnt": 0, "memory_peak_bytes": 512 << 20, "memory_limit_bytes": 512 << 20}
    for own in ({"oom_kills": 1, "memory_failcnt": 4}, {"oom_kills": 1, "ooms": 1}, {"pids_refused": 2}, at_limit):
        assert blame.startup_death(exit_signal=9, monitor_signal=None, program_started=True, events=own) is None
    assert blame.foreign_oom({"oom_kills": 0, "memory_failcnt": 0}) is None


KILLED_AFTER_READY = ("import os, sys\nsys.stdin.readline()\nprint('{\"type\": \"ready\"}', flush=True)\n"
                      "sys.stdin.readline()\nos.kill(os.getpid(), 9)\n")


def test_a_bot_the_oom_killer_took_mid_game_within_its_limit_voids_the_match(monkeypatch, tmp_path, strict_sandbox,
                                                                              uid_processes):
    bot = tmp_path / "taken.py"
    bot.write_text(KILLED_AFTER_READY)
    real = sandbox.BotProcess.limit_events

    def events(self):  # what the kernel's counters say after an OOM of the worker's group
        out = real(self)
        return {**out, "oom_kills": 1, "memory_failcnt": 0} if self.exit_signal == signal.SIGKILL else out

    monkeypatch.setattr(sandbox.BotProcess, "limit_events", events)
    with pytest.raises(LadderFault, match="OOM killer while within its own memory limit") as caught:
        play([str(bot), *OTHERS], final_attempt=True)  # certain: even the last attempt charges nobody
    assert caught.value.certain
    monkeypatch.undo()
    result = play([str(bot), *OTHERS])  # the same death with no OOM counted is the bot's crash
    assert result.results[0]["status"] == "crash" and "SIGKILL" in result.results[0]["reason"]
    assert_nothing_left(uid_processes)


def _held_before_the_program(monkeypatch):
    """The first bot's bubblewrap, held inside its set-up (`--block-fd` on a pipe nobody writes)
    before it can start the bot's program; returns a function that waits for the held set-up
    process (the monitor's child) to exist and kills it with SIGKILL from outside, as the kernel or
    a teardown would, and reports its pid and the monitor's."""
    real = sandbox.subprocess.Popen
    hold_r, hold_w = os.pipe()
    monitor: dict[str, int] = {}

    def popen(argv, *args, **kw):
        if "pid" not in monitor and "--json-status-fd" in argv:
            cut = argv.index("--", argv.index(BWRAP))  # bwrap's own (after the start helper's)
            argv = [*argv[:cut], "--block-fd", str(hold_r), *argv[cut:]]
            kw["pass_fds"] = (*kw.get("pass_fds", ()), hold_r)
            proc = real(argv, *args, **kw)
            monitor["pid"] = proc.pid
            return proc
        return real(argv, *args, **kw)

    monkeypatch.setattr(sandbox.subprocess, "Popen", popen)

    def kill_it() -> tuple[int, int]:
        deadline = time.monotonic() + 120  # a loaded machine: the match's start-up clock is longer still
        while time.monotonic() < deadline:
            child = sandbox._first_child(monitor["pid"]) if "pid" in monitor else None
            if child is not None:
                os.kill(child, signal.SIGKILL)
                os.close(hold_r)
                os.close(hold_w)
                return monitor["pid"], child
            time.sleep(0.02)
        raise AssertionError("bubblewrap never got to its set-up")

    return kill_it


def test_a_bwrap_killed_before_the_bots_program_started_charges_no_seat(monkeypatch, strict_sandbox, uid_processes):
    """The forfeit of #23, reproduced: "killed by SIGKILL during start-up" with 1 MB of memory used
    was a bubblewrap killed inside its set-up, before the bot's program existed (1 MB is bwrap
    itself). bwrap's JSON status then names no exit code, so the death is the ladder's for certain:
    void even on the last attempt, and the match played again has every seat ok. Without that
    knowledge (program_started unknown, as before) the same death stood as the bot's on the last
    attempt: the forfeit."""
    slow_start = TimeControl(decision_ms=1000, bank_ms=2000, startup_ms=300_000)  # the hold is the test's, not a bot's
    kill_it = _held_before_the_program(monkeypatch)
    killed: list[tuple[int, int]] = []
    killer = threading.Thread(target=lambda: killed.append(kill_it()), daemon=True)
    killer.start()  # the match runs in this, the main thread, as the sandbox needs

    def attempt(final: bool):
        return run_specs(["builtin:random", *OTHERS], game="treasure", seed=5, sandbox="strict", clock=slow_start,
                         final_attempt=final)

    with pytest.raises(LadderFault) as caught:
        attempt(True)  # the last attempt: an uncertain death would be charged to the seat here
    killer.join(timeout=60)
    assert killed, "the held bubblewrap was never killed"
    assert caught.value.certain and "before the bot's program started" in caught.value.reason
    monkeypatch.undo()
    replayed = blame.retrying(attempt)
    assert [r["status"] for r in replayed.results] == ["ok"] * 3
    assert not any(seat["forfeit"] for seat in replayed.replay.to_json()["seats"])
    assert_nothing_left(uid_processes)


def test_the_limits_a_bot_reached_are_named_for_its_run_record():
    assert blame.limits_reached({}) == frozenset()
    assert blame.limits_reached({"memory_failcnt": 2, "pids_refused": 1}) == {"memory", "pids"}
    at_limit = {"memory_limit_bytes": 64 << 20, "memory_peak_bytes": 64 << 20}
    assert blame.limits_reached(at_limit) == {"memory"} and blame.own_limit(at_limit)
    assert blame.limits_reached({"oom_kills": 1}) == frozenset()  # another group ran out: not its limit
    assert blame.limits_reached({}, signal.SIGXCPU) == {"time"}


def _killing_every_bot_after(monkeypatch, entries: int):
    """An on_entry that, at the `entries`-th public entry of the first attempt, SIGKILLs every bot's
    program from outside (the sandbox's init and monitor untouched), as the host's OOM killer or an
    operator's `kill` does; returns it and the pids it killed."""
    started: list[sandbox.BotProcess] = []
    real = sandbox.BotProcess.start.__func__

    def start(cls, *args, **kw):
        started.append(real(cls, *args, **kw))
        return started[-1]

    monkeypatch.setattr(sandbox.BotProcess, "start", classmethod(start))
    seen, killed = [], []

    def on_entry(entry):
        seen.append(entry)
        if len(seen) == entries and not killed:
            for proc in started:
                program = sandbox._first_child(proc._init_pid())
                assert program is not None, "a bot's program was not running"
                os.kill(program, signal.SIGKILL)
                killed.append(program)

    return on_entry, killed


def test_a_table_whose_bots_are_all_killed_from_outside_is_void_and_the_retry_finishes(monkeypatch, strict_sandbox,
                                                                                      uid_processes):
    """#39: every bot of a running table SIGKILLed from outside, none at a limit: before, the match
    ended with every seat "crash: killed by SIGKILL during request N" and forfeited. It is the
    ladder's for certain (even on the last attempt), and the match played again finishes clean."""
    on_entry, killed = _killing_every_bot_after(monkeypatch, entries=8)
    attempts: list[bool] = []

    def attempt(final: bool):
        attempts.append(final)
        return play(on_entry=on_entry, final_attempt=final)

    voids: list[LadderFault] = []
    result = blame.retrying(attempt, on_void=lambda number, fault: voids.append(fault))
    assert len(killed) == 3 and attempts == [False, False]
    assert len(voids) == 1 and voids[0].certain and "every bot of the table was killed by SIGKILL" in voids[0].reason
    assert [r["status"] for r in result.results] == ["ok"] * 3
    assert not any(seat["forfeit"] for seat in result.replay.to_json()["seats"])
    assert_nothing_left(uid_processes)


def test_only_a_whole_table_killed_by_one_signal_without_a_limit_is_the_ladders():
    end = blame.SeatEnd
    killed = [end(True, "crash", 9, {}), end(True, "crash", 9, {"oom_kills": 0})]
    assert blame.table_killed(killed).certain
    assert blame.table_killed(killed[:1]) is None  # a table of one bot proves nothing
    for other in (end(True, None, None, {}),  # one bot played on
                  end(True, "timeout", 9, {}),  # the ladder killed it for its time
                  end(True, "crash", 15, {}),  # another signal: not one outside kill
                  end(True, "crash", 9, {"pids_refused": 1}),  # at a limit of its own
                  end(False, "crash", 9, {})):  # a seat played from outside: no process of ours
        assert blame.table_killed([killed[0], other]) is None, other
