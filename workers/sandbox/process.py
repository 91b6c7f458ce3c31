# Over 400 lines: BotProcess is one lifecycle (start, I/O, freeze, teardown) over shared state.
"""Running one untrusted bot process: the only code in the project that starts a bot.

Modes (the one in force is `BotProcess.mode`; callers record it in results and replays):

- ``strict`` (production, needs root): bubblewrap started under a per-slot unprivileged uid, inside
  per-bot cgroups (memory, pids, one-CPU quota, cpu accounting, freezer; v1 or v2, whichever the host
  has: workers/sandbox/cgroup.py), with rlimits, a seccomp filter,
  every namespace new (no network), the bot's files read-only at /bot, sized tmpfs /tmp and /dev/shm,
  an empty environment for bwrap itself (the sandbox's /proc/1/environ shows it) and a short
  allowlist for the bot. close() tears down in order and checks nothing is left.
- ``user`` (machines without root): the same bubblewrap sandbox in a user namespace with rlimits and
  seccomp, but no cgroups: no freezer, no memory/pids accounting beyond rlimits.
- ``none`` (local debugging only): a plain subprocess; prints a loud warning.

Threads: start bots from the main thread (enforced for strict and user). bwrap's
--die-with-parent follows the *thread* that started it, so a bot started from a worker thread would
die (or outlive its watcher) when that thread ends. The other calls may come from any one thread at
a time; a BotProcess is not meant to be shared between threads.

Orphans: when a bot exits on its own, bwrap's monitor (our Popen) exits without waiting for the
sandbox's init, which is then reparented. Rather than changing the sandbox (--as-pid-1 would leave
nothing reaping inside it), every process that starts a sandbox becomes a child subreaper, so the
init comes back to it, and reaps exactly those inits without touching any Popen's exit status;
close() returns only once its bot's init is gone. The whole reasoning is in workers/sandbox/reap.py.

Deadlines are absolute `time.monotonic()` instants, so callers can spend one time bank over several
calls.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import devices as sandbox_devices
from workers.sandbox import interrupts
from workers.sandbox import netns as sandbox_netns
from workers.sandbox import preexec as sandbox_preexec
from workers.sandbox import reap as sandbox_reap
from workers.sandbox import scratch as sandbox_scratch
from workers.sandbox import slots as sandbox_slots
from workers.sandbox import spawn_helper as sandbox_spawn_helper
from workers.sandbox import warden as sandbox_warden
from workers.sandbox.bwrap import (
    BOT_MOUNT,
    BWRAP,
    bwrap_argv,
    check_readable_by_others,
    sandbox_env,
    thread_env,
)
from workers.sandbox.seccomp import SeccompUnavailable, filter_bpf, filter_fd
from workers.sandbox.streams import LineReader, StderrDrain, write_all, write_now

MODES = ("strict", "user", "none")
PYTHON = "/usr/bin/python3"  # world-readable; /root/.pyenv is not reachable for the bot's uid
_CLK_TCK = os.sysconf("SC_CLK_TCK")
TEARDOWN_S = 20.0  # what close() may take to see every process of a bot gone, however loaded the machine
_swept = False
_confirmed: set[str] = set()
_unfinished: list[BotProcess] = []  # closed, but something was still dying: finished by later calls
log = logging.getLogger(__name__)


class SandboxError(RuntimeError):
    pass


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 512 << 20  # cgroup memory (+swap) limit, tmpfs pages included
    pids: int = 64  # tasks in the cgroup, threads and bwrap's two helpers included
    cpus: float = 1.0  # CFS quota, in CPUs
    cpu_seconds: int = 3600  # RLIMIT_CPU per process: a backstop, the runner accounts per decision
    nofile: int = 256
    file_bytes: int = 64 << 20  # RLIMIT_FSIZE
    tmp_bytes: int = 64 << 20
    shm_bytes: int = 16 << 20
    address_space_bytes: int | None = None  # RLIMIT_AS; user mode defaults to 4 x memory_bytes
    line_bytes: int = 1 << 20  # longest stdout line read_line accepts
    stderr_bytes: int = 64 << 10  # how much of stderr's tail is kept


def sandbox_available(mode: str) -> tuple[bool, str]:
    """Whether `mode` can run here, and if not, why not."""
    if mode == "none":
        return True, "no isolation (local debugging only)"
    if mode not in MODES:
        return False, f"unknown sandbox mode {mode!r}"
    if not shutil.which(BWRAP):
        return False, f"bubblewrap not found at {BWRAP} (apt-get install bubblewrap)"
    try:
        filter_bpf()
    except SeccompUnavailable as exc:
        return False, str(exc)
    if mode == "strict":
        if os.geteuid() != 0:
            return False, "strict mode needs root (per-slot uids and cgroups)"
        reason = sandbox_cgroup.unavailable_reason()
        if reason:
            return False, reason
        return True, f"bubblewrap + cgroup {sandbox_cgroup.backend()} + seccomp + per-slot uid"
    for knob in ("/proc/sys/user/max_user_namespaces", "/proc/sys/kernel/unprivileged_userns_clone"):
        with contextlib.suppress(OSError, ValueError):
            if int(Path(knob).read_text()) == 0:
                return False, f"user namespaces are disabled ({knob} is 0)"
    return True, "bubblewrap in a user namespace + seccomp + rlimits (no cgroups)"


def _host_path(value: str, mapping: Mapping[str, str]) -> str:
    """Mode none has no mounts: turn sandbox paths (/bot/..., /sdk) back into host paths."""
    parts = []
    for part in value.split(":"):
        for target, source in mapping.items():
            if part == target or part.startswith(target + "/"):
                part = source + part[len(target):]
                break
        parts.append(part)
    return ":".join(parts)


class BotProcess:
    """One running bot. Create with `BotProcess.start(...)`; always `close()` (or use `with`)."""

    def __init__(self) -> None:
        raise TypeError("use BotProcess.start(...)")

    @classmethod
    def start(
        cls,
        command: Sequence[str],
        bot_dir: str | Path,
        mode: str = "strict",
        limits: Limits | None = None,
        slot: int | None = None,
        extra_ro_binds: Mapping[str, str | Path] | None = None,
        env: Mapping[str, str] | None = None,
        table: sandbox_cgroup.TableCpuGroup | None = None,
        view: str | Path | None = None,
        rw_binds: Mapping[str, str | Path] | None = None,
    ) -> BotProcess:
        """Start `command` (paths as seen inside: the bot's files are at /bot, the cwd).

        `slot` picks the uid (62000 + slot) in strict mode; None leases the lowest free one.
        `extra_ro_binds` maps mount points inside to host directories (e.g. {"/sdk": ".../bots"}).
        `env` adds variables to the small allowlist in sandbox_bwrap.BASE_ENV.
        `table` (strict only) is the CPU quota the bot shares with the other bots of its match.
        `view` (strict and user) is the runtime's tree shown as /usr and /etc (workers.build.runtime_view).
        `rw_binds` maps mount points inside to host folders the bot may write (its data folder).
        """
        if mode not in _confirmed:  # checked once per process, not on every start
            ok, why = sandbox_available(mode)
            if not ok:
                raise SandboxError(f"sandbox mode {mode!r} unavailable: {why}")
            _confirmed.add(mode)
        if mode != "none" and threading.current_thread() is not threading.main_thread():
            raise SandboxError("start sandboxed bots from the main thread (bwrap --die-with-parent)")
        self = object.__new__(cls)
        self._init_state(mode, limits or Limits())
        try:
            env = {**thread_env(self.limits.cpus), **(env or {})}  # a caller's own setting wins
            self._spawn(list(command), Path(bot_dir), slot, dict(extra_ro_binds or {}), env, table, view,
                        dict(rw_binds or {}))
        except BaseException:
            self.close()
            raise
        return self

    def _init_state(self, mode: str, limits: Limits) -> None:
        self.mode, self.limits = mode, limits
        self.slot: int | None = None
        self.uid: int | None = None
        self.pid: int | None = None  # host pid of the started process (bwrap, or the bot in mode none)
        self.exit_code: int | None = None
        self.exit_signal: int | None = None
        self.clean: bool | None = None  # after close(): True when nothing was left running
        self._proc: subprocess.Popen | None = None
        self._cgroup: sandbox_cgroup.BotCgroup | None = None
        self._lease: sandbox_slots.SlotLease | None = None
        self._drain: StderrDrain | None = None
        self._reader: LineReader | None = None
        self._closed = False
        self._frozen = False
        self.monitor_signal: int | None = None  # bwrap's monitor (our child) killed by a signal
        self._status_fd: int | None = None  # bwrap's --json-status-fd, read end
        self._status = bytearray()
        self._status_eof = False
        # Where this start's time went, ns (strict and user): the worker before Popen, Popen, and the
        # wait for bwrap's exec (`ladder bench sandbox` prints their medians)
        self.start_ns: dict[str, int] = {}

    def _spawn(self, command: list[str], bot_dir: Path, slot: int | None, binds: dict, env: dict,
               table: sandbox_cgroup.TableCpuGroup | None, view: str | Path | None,
               rw_binds: dict | None = None) -> None:
        rw_binds = rw_binds or {}
        entered = time.perf_counter_ns()
        lim = self.limits
        rlimits = [
            (resource.RLIMIT_NOFILE, lim.nofile),
            (resource.RLIMIT_FSIZE, lim.file_bytes),
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_CPU, lim.cpu_seconds),
        ]
        if self.mode == "none":
            sys.stderr.write(
                "\n*** WARNING: sandbox mode 'none': the bot runs UNCONFINED with your user's rights, "
                "network and files. Local debugging of your own bots only. ***\n\n"
            )
            mapping = {BOT_MOUNT: str(bot_dir.resolve())}
            mapping.update({k: str(Path(v).resolve()) for k, v in {**binds, **rw_binds}.items()})
            stderr_w = self._stderr_drained()
            try:
                self._proc = subprocess.Popen(
                    [_host_path(a, mapping) for a in command],
                    cwd=bot_dir, env={k: _host_path(v, mapping) for k, v in sandbox_env(env).items()},
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr_w,
                    bufsize=0, start_new_session=True,
                )
            finally:
                os.close(stderr_w)
            self._after_spawn()
            return
        finish_teardowns()  # of bots closed while something of them was still dying
        sandbox_reap.reap_orphans()  # adopted since the last close(), e.g. from a dead pool process
        if os.geteuid() == 0:
            check_readable_by_others(bot_dir)
            for source in [*binds.values(), *rw_binds.values()]:
                check_readable_by_others(source)
            self._lease = sandbox_slots.acquire(slot)
            self.slot, self.uid = self._lease.slot, self._lease.uid
            # Per uid (leased to this bot alone); in strict mode the pids cgroup binds first.
            rlimits.append((resource.RLIMIT_NPROC, lim.pids + 8))
        join_files: list[str] = []
        if self.mode == "strict":
            # Thaws, kills and removes this process's groups if it dies with bots in them, even by
            # SIGKILL (a frozen bot would not die of its --die-with-parent): workers/sandbox/warden.py.
            sandbox_warden.ensure()
            global _swept
            if not _swept:
                sandbox_cgroup.sweep_stale()
                sandbox_scratch.sweep_stale()  # match folders a killed process left without a warden
                sandbox_cgroup.hold_freezer_on()
                _swept = True
            self._cgroup = sandbox_cgroup.BotCgroup.create(
                self.slot or 0, lim.memory_bytes, lim.pids, lim.cpus, table
            )
            join_files = self._cgroup.join_files()
        else:
            rlimits.append((resource.RLIMIT_AS, lim.address_space_bytes or 4 * lim.memory_bytes))
        if lim.address_space_bytes and self.mode == "strict":
            rlimits.append((resource.RLIMIT_AS, lim.address_space_bytes))
        # The slot's network namespace, joined in the start window, where one could be made: a fresh
        # one per bot cost 1.2 ms of every start (sandbox_netns says why sharing it is as private).
        netns = sandbox_netns.for_slot(self.slot) if self.mode == "strict" and self._lease else None
        seccomp = filter_fd()
        self._status_fd, status_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        stderr_w = self._stderr_drained()
        try:
            argv = bwrap_argv(
                command, bot_dir, seccomp_fd=seccomp, tmp_bytes=lim.tmp_bytes, shm_bytes=lim.shm_bytes,
                extra_ro_binds=binds, env=env, view=view, status_fd=status_w, rw_binds=rw_binds,
                share_net=netns is not None, dev=sandbox_devices.folder() if self.mode == "strict" else None,
            )
            # The sandbox's init outlives bwrap's monitor when the bot exits on its own: as a
            # subreaper this process gets it, not PID 1 (why, and how it is reaped: sandbox_reap).
            sandbox_reap.become_subreaper()
            # The start helper (C, after a vfork) when this machine could build it; else the same
            # steps in Python after a fork (sandbox_spawn_helper says why it matters). Asked here,
            # outside the lock: the first call of a process may compile it.
            helper = sandbox_spawn_helper.path()
            # No stop signal between the fork and `held`: close() must know every monitor. Nor
            # in the child before its exec, where a handler of ours would fail the start
            # (sandbox_preexec: blocked here, reset there; its steps name what failed).
            with interrupts.deferred(), sandbox_reap.spawning() as held, sandbox_preexec.blocked() as mask:
                window = sandbox_preexec.start_window(join_files, rlimits, self.uid, mask, helper, netns)
                try:
                    before_popen = time.perf_counter_ns()
                    self._proc = subprocess.Popen(
                        window.command(argv),
                        env={},  # bwrap's own environment is visible inside as /proc/1/environ
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr_w,
                        bufsize=0, close_fds=True, pass_fds=(seccomp, status_w, *window.pass_fds),
                        # Its own process group: Ctrl-C in a terminal, or a signal to the worker's
                        # group, reaches the worker, which tears its matches down, never the bots.
                        process_group=0,
                        preexec_fn=window.preexec_fn,
                    )
                except (OSError, subprocess.SubprocessError) as exc:
                    why = window.failure(exc)
                    window.close()
                    raise SandboxError(why) from exc
                held.add(self._proc.pid)
                popen_done = time.perf_counter_ns()
                try:
                    failed = window.started()
                finally:
                    window.close()
                self.start_ns = {"prepare": before_popen - entered, "popen": popen_done - before_popen,
                                 "window": time.perf_counter_ns() - popen_done}
                if failed:
                    raise SandboxError(failed)  # the helper exited; close() reaps it
        finally:
            os.close(seccomp)
            os.close(status_w)
            os.close(stderr_w)
        self._after_spawn()

    def _stderr_drained(self) -> int:
        """stderr's pipe, already read by the process's drainer (streams.StderrDrain); returns the
        write end for Popen, which the caller closes once Popen returns."""
        read_end, write_end = os.pipe2(os.O_CLOEXEC)
        owner = open(read_end, "rb", buffering=0)  # noqa: SIM115 - the drain closes it when it stops reading
        self._drain = StderrDrain(read_end, self.limits.stderr_bytes, owner=owner)
        self._drain.start()
        return write_end

    def _after_spawn(self) -> None:
        assert self._proc and self._proc.stdin and self._proc.stdout
        self.pid = self._proc.pid
        for stream in (self._proc.stdin, self._proc.stdout):
            os.set_blocking(stream.fileno(), False)
        self._reader = LineReader(self._proc.stdout.fileno(), self.limits.line_bytes)

    # -- I/O -----------------------------------------------------------------------------------

    def send_line(self, data: bytes, deadline: float, thaw: bool = False) -> tuple[bool, str]:
        """Write one line (a newline is added if missing). Reasons: ok, timeout, closed.

        After a timeout part of the line may have been written: the stream is out of step and the
        caller should give up on the bot.

        `thaw`: the bot is frozen and is thawed here, after as much of the line as its pipe takes
        (all of a request, as a rule) is in: thawed first, it woke to an empty pipe, went back to
        sleep, and was woken again by the write, a second switch each way per decision.
        """
        proc = self._proc
        # After an exit bwrap's init may hold stdin for a moment longer: answer from what we know.
        if proc is None or proc.stdin is None or proc.stdin.closed or proc.returncode is not None:
            if thaw:
                self.thaw()
            return False, "closed"
        if not data.endswith(b"\n"):
            data += b"\n"
        fd = proc.stdin.fileno()
        if thaw:
            sent = write_now(fd, data)  # never waits: a frozen bot reads nothing
            self.thaw()
            if sent is None:
                return False, "closed"
            data = data[sent:]
        reason = write_all(fd, data, deadline) if data else "ok"
        return reason == "ok", reason

    def read_line(self, deadline: float) -> tuple[bytes | None, str]:
        """One line from stdout, without its newline. Never raises on what the bot writes.

        Reasons: "ok"; "timeout" (no full line by the deadline); "oversized" (the line passed
        limits.line_bytes; its rest is skipped on later reads); "exited" (see exit_code and
        exit_signal); "closed" (stdout closed while the process still runs, mode none only: in the
        sandboxes bwrap keeps stdout open, so that case shows up as a timeout).
        """
        if self._reader is None:
            return None, "exited"
        line, reason = self._reader.read(deadline)
        if reason == "eof":
            return None, self._exit_reason(deadline)
        if reason == "timeout" and self.mode == "none" and self._proc and self._proc.poll() is not None:
            return None, self._exit_reason(deadline)  # a leftover child of its own holds stdout
        return line, reason

    def read_to_end(self, deadline: float, cap: int) -> tuple[bytes, str]:
        """All of stdout until the process closes it (a build's output, not protocol lines).
        Reasons: "ok" (EOF: see exit_code after close()), "timeout", "oversized" (over `cap`)."""
        if self._reader is None:
            return b"", "ok"
        return self._reader.read_rest(deadline, cap)

    def _exit_reason(self, deadline: float) -> str:
        if self._proc is None:
            return "exited"
        try:
            code = self._proc.wait(timeout=max(0.5, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return "closed"
        self._record_exit(code)
        return "exited"

    def _record_exit(self, code: int) -> None:
        if code < 0:
            self.exit_code, self.exit_signal = None, -code
            if self.mode != "none":  # bwrap's monitor itself, our child, which no bot can reach
                self.monitor_signal = -code
        elif self.mode != "none" and code > 128:  # bwrap reports a signal death as 128 + signal
            self.exit_code, self.exit_signal = None, code - 128
        else:
            self.exit_code, self.exit_signal = code, None

    # -- control -------------------------------------------------------------------------------

    def freeze(self, wait: bool = True) -> bool:
        """Pause every process of the bot (strict only; elsewhere a no-op returning False).
        wait=False asks for the freeze without waiting for the kernel to finish it."""
        if self._cgroup is None or self._closed:
            return False
        self._frozen = self._cgroup.freeze(wait=wait)
        return self._frozen

    def thaw(self) -> None:
        if self._cgroup is not None and not self._closed:
            self._cgroup.thaw()
            self._frozen = False

    def cpu_seconds(self) -> float:
        """CPU time used so far by every process of the bot (cpuacct; /proc tree walk without it)."""
        if self._cgroup is not None:
            try:  # once per decision: a plain try costs less than contextlib.suppress
                return self._cgroup.cpu_seconds()
            except OSError:
                pass
        return _tree_cpu_seconds(self.pid) if self._proc else 0.0

    def pids(self) -> list[int]:
        """Host pids of every live process of the bot (bwrap's helpers included)."""
        if self._cgroup is not None:
            return self._cgroup.pids()
        return _tree_pids(self.pid) if self._proc and self._proc.poll() is None else []

    def limit_events(self) -> dict[str, int]:
        """cgroup counters (oom_kills, memory_failcnt, pids_refused, ...) and the memory limit they
        are read against (workers.match.blame.own_limit); empty without cgroups."""
        if self._cgroup is None:
            return {}
        return {**self._cgroup.events(), "memory_limit_bytes": self.limits.memory_bytes}

    def stderr_tail(self) -> bytes:
        return self._drain.tail() if self._drain else b""

    @property
    def stderr_total(self) -> int:
        return self._drain.total if self._drain else 0

    def program_started(self) -> bool | None:
        """Whether bubblewrap got as far as starting the bot's program: its JSON status names an
        exit code only then. Known once the monitor has exited; None before, and in mode none."""
        fd = self._status_fd
        if fd is not None and not self._status_eof:
            try:
                while len(self._status) < 65536:
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        self._status_eof = True
                        break
                    self._status += chunk
            except BlockingIOError:
                pass
            except OSError:
                self._status_eof = True
        if b'"exit-code"' in self._status:
            return True
        return False if self._status_eof else None

    def close(self) -> bool:
        """Kill everything and clean up; returns (and sets `clean`) whether nothing was left.

        Never raises, and no stop signal cuts it short (workers.sandbox.interrupts). In strict mode the
        cgroup is killed first (monitor, init and bot at once), then the monitor reaped, the init
        waited for if it was orphaned, the groups removed. Whatever is still dying after
        TEARDOWN_S keeps its uid leased and is finished by `finish_teardowns()`, which every start
        calls: a long-lived worker accumulates nothing."""
        if self._closed:
            return bool(self.clean)
        self._closed = True
        with interrupts.deferred():
            try:
                clean = self._teardown(time.monotonic() + TEARDOWN_S)
            except Exception:  # the kernel refused something: say so, and keep the uid leased
                log.exception("sandbox teardown of slot %s failed", self.slot)
                clean = False
            self._release_files()
            self.clean = clean
            if clean:
                self._release_lease()
            else:
                log.warning("sandbox slot %s: still there after %.0f s, finished later: %s", self.slot, TEARDOWN_S,
                            self._leftovers())
                _unfinished.append(self)
        return clean

    def _teardown(self, deadline: float) -> bool:
        proc = self._proc
        if proc is not None and self.mode == "none":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            return self._reap_monitor(deadline)
        clean = True
        if self._cgroup is not None:
            # Every process of the bot, the monitor and the init included: frozen, killed, thawed.
            clean = self._cgroup.kill_all(timeout=max(0.1, deadline - time.monotonic()))
        if proc is not None:
            if proc.poll() is None:  # user mode (no cgroup), or a kill_all that ran out of time
                init = self._init_pid()
                # The init by pid only while it is still the monitor's child: the monitor reaps it,
                # and on a host with pid_max 32768 a pid freed long ago can be another bot's by now.
                for pid in (init if init and _parent(init) == proc.pid else None, proc.pid):
                    if pid:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(pid, signal.SIGKILL)
            clean = self._reap_monitor(deadline) and clean
            # This bot's init, orphaned if the bot exited before close(): gone before the uid is
            # released (user mode without root has no uid of its own: wait for any).
            left = sandbox_reap.reap_orphans(wait_uid=self.uid, wait_any=self.uid is None, deadline=deadline)
            clean = clean and left == 0
        if self._cgroup is not None:
            clean = self._cgroup.remove(timeout=max(0.1, deadline - time.monotonic())) and clean
        return clean

    def _reap_monitor(self, deadline: float) -> bool:
        """Wait for our child (bwrap's monitor, or the bot in mode none) until `deadline`."""
        proc = self._proc
        assert proc is not None
        pause = 0.001
        while proc.poll() is None:
            if time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        if self.exit_code is None and self.exit_signal is None:
            self._record_exit(proc.returncode)
        if self.mode != "none":
            sandbox_reap.release(proc.pid)
        return True

    def _init_pid(self) -> int | None:
        """Host pid of the sandbox's init (pid 1 inside): its death ends the pid namespace."""
        m = re.search(rb'"child-pid":\s*(\d+)', bytes(self._status))
        if m:
            return int(m.group(1))
        return _first_child(self._proc.pid) if self._proc is not None else None

    def _leftovers(self) -> list[str]:
        """What is left of this bot (pid, name, state, where it sleeps): for the log."""
        pids = set(self._cgroup.pids()) if self._cgroup is not None else set()
        if self._proc is not None and self._proc.returncode is None:
            pids.add(self._proc.pid)
        if self.uid is not None:
            pids.update(p for p in sandbox_reap.children() if (sandbox_reap.process_state(p) or ("", "", -1))[2]
                        == self.uid)
        out = []
        for pid in sorted(pids):
            state = sandbox_reap.process_state(pid)
            with contextlib.suppress(OSError):
                state = (*state, Path(f"/proc/{pid}/wchan").read_text()) if state else state
            out.append(f"{pid} {state}")
        cgroups = [str(p) for p in (self._cgroup.paths.values() if self._cgroup else ()) if p.exists()]
        return out + cgroups

    def _release_files(self) -> None:
        proc = self._proc
        if self._cgroup is not None:
            self._cgroup.close_files()
        if self._drain is not None:
            self._drain.finish()  # it closes stderr itself, once it has stopped reading it
        elif proc is not None and proc.stderr is not None:
            with contextlib.suppress(OSError):
                proc.stderr.close()
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(OSError):
                    if stream:
                        stream.close()
        if self._status_fd is not None:
            self.program_started()  # what it said, for the record, before the pipe goes
            with contextlib.suppress(OSError):
                os.close(self._status_fd)
            self._status_fd = None

    def _release_lease(self) -> None:
        # A uid whose processes could not be removed stays leased, so no new bot gets it.
        if self._lease is not None:
            self._lease.release()
            self._lease = None

    def _finish(self, deadline: float) -> bool:
        """One more try at a teardown close() could not finish; True once nothing is left."""
        with interrupts.deferred():
            try:
                clean = self._teardown(deadline)
            except Exception:
                log.exception("sandbox teardown of slot %s failed again", self.slot)
                return False
            if clean:
                self.clean = True
                self._release_lease()
        return clean

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def finish_teardowns(timeout: float = 0.0) -> int:
    """Finish the teardowns close() left unfinished (a process still dying after TEARDOWN_S);
    returns how many are still not done. Every start calls it, so a long-lived process keeps none."""
    deadline = time.monotonic() + timeout
    for bp in list(_unfinished):
        if bp._finish(deadline):
            _unfinished.remove(bp)
    return len(_unfinished)


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _first_child(pid: int) -> int | None:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def _tree_pids(root: int) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        with contextlib.suppress(OSError, ValueError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def _tree_cpu_seconds(root: int) -> float:
    total = 0
    for pid in _tree_pids(root):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _CLK_TCK
