"""`ladder bench sandbox`: what the bot sandbox costs, against the same work without it.

- Round trip: one request line to an echo bot and its reply, through a sandboxed BotProcess, against
  the same echo bot as a plain subprocess on plain pipes read with the same code (ratio, target < 2);
  the engine and the bots share one CPU meanwhile (see the comment in run_sandbox_bench).
- Start: from `BotProcess.start` to the echo bot's first reply, against running a bare
  `python3 -I -c pass` to its exit (ratio, target < 1.4), and where a start's time goes: the worker
  before Popen, Popen, then bwrap and the bot to its first line (of which the worker waits for
  bwrap's exec: BotProcess.start_ns).
- Freeze + thaw of the bot's cgroup, and what joining its cgroups costs a new process (strict only;
  the five v1 controllers' `tasks`, or v2's one `cgroup.procs`: see the backends' join_files). The
  figures name the host's cgroup backend (workers/sandbox/cgroup.py), v1 or v2.
- Per runtime (`--runtimes`, ladder/cli/bench/runtimes.py): each starter kit's start to its `ready`,
  sandboxed with its runtime's view against the same files run bare, and the compile step's time.
  The bare runs and the static kit's `make` start here (`bare_first_reply`, `make_static_kit`):
  the one bench module that may start plain processes (tests/test_architecture.py).

Samples of the two sides are interleaved so machine noise hits both alike; figures are medians.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from workers.sandbox import cgroup as sandbox_cgroup
from workers.sandbox import spawn_helper as sandbox_spawn_helper
from workers.sandbox.process import PYTHON, BotProcess
from workers.sandbox.streams import LineReader, write_all

MATCH_TARGET = 1.25
ROUND_TRIP_TARGET = 2.0
PAIRS = 5
START_TARGET = 1.4  # issue #29 item 4 (1.6 before)
ECHO_BOT = """import sys
read, write, flush = sys.stdin.buffer.readline, sys.stdout.buffer.write, sys.stdout.buffer.flush
while True:
    line = read()
    if not line:
        break
    write(line)
    flush()
"""
REQUEST = b'{"id": 1, "type": "request", "kind": "attack", "observation": {"hand": [1, 2, 3]}}\n'


@dataclass(frozen=True)
class SandboxBench:
    mode: str
    round_trip_us: float
    plain_round_trip_us: float
    start_ms: float
    bare_start_ms: float
    freeze_thaw_ms: float | None
    cgroup_join_ms: float | None
    match_s: float | None = None  # a full match of 4 fallback bots of the flagship game in `mode`
    plain_match_s: float | None = None  # the same match with sandbox `none`
    cgroup: str | None = None  # the cgroup backend in strict mode: "v1" or "v2"
    start_parts_ms: dict[str, float] | None = None  # medians of BotProcess.start_ns, and "to_reply"
    start_window: str | None = None  # "helper" (spawn.c after a vfork) or "python" (a fork)

    @property
    def round_trip_ratio(self) -> float:
        return self.round_trip_us / self.plain_round_trip_us

    @property
    def start_ratio(self) -> float:
        return self.start_ms / self.bare_start_ms

    @property
    def match_ratio(self) -> float | None:
        return self.match_s / self.plain_match_s if self.match_s and self.plain_match_s else None


class _PlainEcho:
    """The echo bot (or any fixed program: `argv`) as a bare subprocess, spoken to with the
    sandbox's own pipe code."""

    def __init__(self, script: Path | None = None, *, argv: list[str] | None = None, cwd: Path | None = None,
                 env: dict[str, str] | None = None):
        if argv is None:
            argv = [PYTHON, "-I", str(script)]
        # A kit's log lines (stderr) are dropped, not shown; the echo bot writes none.
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL if script is None else None, bufsize=0)
        for stream in (self.proc.stdin, self.proc.stdout):
            os.set_blocking(stream.fileno(), False)
        self.reader = LineReader(self.proc.stdout.fileno(), 1 << 20)

    def send_line(self, data: bytes, deadline: float) -> tuple[bool, str]:
        reason = write_all(self.proc.stdin.fileno(), data, deadline)
        return reason == "ok", reason

    def read_line(self, deadline: float) -> tuple[bytes | None, str]:
        return self.reader.read(deadline)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()


def _round_trips(bot, n: int, timeout: float = 5.0) -> list[float]:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        bot.send_line(REQUEST, time.monotonic() + timeout)
        line, reason = bot.read_line(time.monotonic() + timeout)
        samples.append((time.perf_counter_ns() - t0) / 1000)
        if line != REQUEST[:-1]:
            raise RuntimeError(f"echo bot failed: {reason}")
    return samples


def _round_trip_pair(bot_dir: Path, mode: str, n: int) -> tuple[list[float], list[float], list[float]]:
    """Round trips to one sandboxed and one plain echo bot, interleaved in blocks; freeze+thaw."""
    sandboxed = BotProcess.start([PYTHON, "-I", "main.py"], bot_dir, mode=mode)
    plain = _PlainEcho(bot_dir / "main.py")
    rt_box: list[float] = []
    rt_plain: list[float] = []
    freeze_thaw: list[float] = []
    try:
        # warm up both; the first reply waits for the bot's start (a minute allowed: in a VM
        # under software emulation a start took over 5 s)
        _round_trips(sandboxed, 1, timeout=60)
        _round_trips(plain, 1, timeout=60)
        _round_trips(sandboxed, 19)
        _round_trips(plain, 19)
        blocks = max(1, min(10, n // 20))
        for _ in range(blocks):
            rt_box += _round_trips(sandboxed, n // blocks)
            rt_plain += _round_trips(plain, n // blocks)
        if sandboxed.freeze():
            sandboxed.thaw()
            for _ in range(min(40, n)):
                t0 = time.perf_counter_ns()
                sandboxed.freeze()
                sandboxed.thaw()
                freeze_thaw.append((time.perf_counter_ns() - t0) / 1e6)
    finally:
        sandboxed.close()
        plain.close()
    return rt_box, rt_plain, freeze_thaw


def _start_to_reply(bot_dir: Path, mode: str, parts: list[dict[str, int]] | None = None) -> float:
    """ms from BotProcess.start to the echo bot's first line; the start's parts go to `parts`."""
    t0 = time.perf_counter_ns()
    bp = BotProcess.start([PYTHON, "-I", "main.py"], bot_dir, mode=mode)
    try:
        bp.send_line(REQUEST, time.monotonic() + 60)
        line, reason = bp.read_line(time.monotonic() + 60)
        elapsed = (time.perf_counter_ns() - t0) / 1e6
    finally:
        bp.close()
    if line != REQUEST[:-1]:
        raise RuntimeError(f"echo bot failed to start: {reason}")
    if parts is not None and bp.start_ns:
        # after Popen returned: the start window's rest, bwrap and the bot, up to its first line
        after = elapsed * 1e6 - bp.start_ns["prepare"] - bp.start_ns["popen"]
        parts.append({**bp.start_ns, "to_reply": int(after)})
    return elapsed


def _bare_start() -> float:
    t0 = time.perf_counter_ns()
    subprocess.run([PYTHON, "-I", "-c", "pass"], check=True)
    return (time.perf_counter_ns() - t0) / 1e6


def bare_first_reply(argv: list[str], cwd: Path, env: dict[str, str], line: bytes,
                     timeout: float = 60.0) -> tuple[float, bytes | None, str]:
    """A starter kit (bots/examples, the ladder's own code) run bare on the host, as `ladder bench
    sandbox --runtimes` compares with the sandbox: milliseconds from starting `argv` to its first
    line after `line` is sent, that line (None if there was none) and the read's reason."""
    t0 = time.perf_counter_ns()
    bot = _PlainEcho(argv=argv, cwd=cwd, env=env)
    try:
        ok, reason = bot.send_line(line, time.monotonic() + timeout)
        reply, reason = bot.read_line(time.monotonic() + timeout) if ok else (None, reason)
        elapsed = (time.perf_counter_ns() - t0) / 1e6
    finally:
        bot.close()
    return elapsed, reply, reason


def make_static_kit(folder: Path, timeout: float = 600.0) -> tuple[bool, str]:
    """`make` in (a copy of) the static starter kit, as its README says: (ok, make's output)."""
    try:
        done = subprocess.run(["make"], cwd=folder, capture_output=True, text=True, timeout=timeout,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8"})
    except subprocess.TimeoutExpired:
        return False, f"make took longer than {timeout:.0f} s"
    return done.returncode == 0, (done.stdout + done.stderr).strip()


def _cgroup_join_ms(samples: int = 8) -> float:
    """Median time a fresh child takes to join a new bot group, the way workers/sandbox/process.py does it
    (writing "0" to each of the backend's join files right after fork)."""
    times = []
    for _ in range(samples):
        group = sandbox_cgroup.BotCgroup.create(0, memory_bytes=64 << 20, pids=8, cpus=1)
        r, w = os.pipe()
        try:
            pid = os.fork()
            if pid == 0:  # pragma: no cover - child
                t0 = time.perf_counter_ns()
                for path in group.join_files():
                    fd = os.open(path, os.O_WRONLY)
                    os.write(fd, b"0")
                    os.close(fd)
                os.write(w, str(time.perf_counter_ns() - t0).encode())
                os._exit(0)
            os.close(w)
            w = -1
            times.append(int(os.read(r, 64)) / 1e6)
            os.waitpid(pid, 0)
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)
            group.kill_all()
            group.remove()
    return statistics.median(times)


def _match_seconds(mode: str, seed: int) -> float:
    """Wall time of one whole match of the flagship game's fallback bot x 4 through the match runner."""
    from bots import reference_bot
    from ladder.games import FLAGSHIP
    from ladder.match import local_plan
    from workers.match.runner import Env, run

    t0 = time.perf_counter()
    run(local_plan(FLAGSHIP, [f"builtin:{reference_bot(FLAGSHIP)}"] * 4, seed=seed, sandbox=mode),
        Env(require_strict=False))
    return time.perf_counter() - t0


def run_sandbox_bench(
    mode: str = "strict",
    round_trips: int = 2000,
    starts: int = 30,
    echo: Callable[[str], None] = print,
    matches: int = 5,
) -> SandboxBench:
    """Measure, print (through `echo`) and return the medians."""
    bot_dir = Path(tempfile.mkdtemp(prefix="ladder-bench-bot-", dir="/tmp"))
    try:
        bot_dir.chmod(0o755)  # the sandbox's uid must reach it
        (bot_dir / "main.py").write_text(ECHO_BOT)
        (bot_dir / "main.py").chmod(0o644)
        rt_box: list[float] = []
        rt_plain: list[float] = []
        freeze_thaw: list[float] = []
        # Whether an echo process shares the engine's CPU moves a round trip by ~25 µs on a small VM
        # (cross-CPU wake-ups), which would drown the sandbox's own cost: the engine and both echo
        # bots (which inherit the affinity) share one CPU while round trips are timed.
        affinity = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(affinity)})
        try:
            pairs = max(1, min(PAIRS, round_trips // 100))
            for _ in range(pairs):
                rt_b, rt_p, ft = _round_trip_pair(bot_dir, mode, round_trips // pairs)
                rt_box += rt_b
                rt_plain += rt_p
                freeze_thaw += ft
        finally:
            os.sched_setaffinity(0, affinity)
        _start_to_reply(bot_dir, mode)  # warm caches for both sides
        _bare_start()
        box_starts, bare_starts = [], []
        parts: list[dict[str, int]] = []
        for _ in range(starts):
            box_starts.append(_start_to_reply(bot_dir, mode, parts))
            bare_starts.append(_bare_start())
    finally:
        shutil.rmtree(bot_dir, ignore_errors=True)
    # Alternate the two modes on the same seeds so load drifts hit both alike.
    box_matches, plain_matches = [], []
    for seed in range(1, matches + 1):
        box_matches.append(_match_seconds(mode, seed))
        plain_matches.append(_match_seconds("none", seed))
    result = SandboxBench(
        match_s=statistics.median(box_matches) if matches else None,
        plain_match_s=statistics.median(plain_matches) if matches else None,
        mode=mode,
        round_trip_us=statistics.median(rt_box),
        plain_round_trip_us=statistics.median(rt_plain),
        start_ms=statistics.median(box_starts),
        bare_start_ms=statistics.median(bare_starts),
        freeze_thaw_ms=statistics.median(freeze_thaw) if freeze_thaw else None,
        cgroup_join_ms=_cgroup_join_ms() if mode == "strict" else None,
        cgroup=sandbox_cgroup.backend() if mode == "strict" else None,
        start_window=("helper" if sandbox_spawn_helper.path() else "python") if mode != "none" else None,
        start_parts_ms={k: statistics.median(p[k] for p in parts) / 1e6 for k in parts[0]} if parts else None,
    )
    echo(render(result, round_trips=len(rt_box), starts=starts))
    return result


def render(r: SandboxBench, *, round_trips: int, starts: int) -> str:
    lines = [
        f"sandbox bench: mode {r.mode}, {round_trips} round trips, {starts} starts (medians)",
        f"round trip     sandboxed {r.round_trip_us:9.1f} µs   plain pipe {r.plain_round_trip_us:9.1f} µs   "
        f"ratio {r.round_trip_ratio:.2f} (target < {ROUND_TRIP_TARGET})",
        f"start to reply sandboxed {r.start_ms:9.2f} ms   bare python3 -I -c pass {r.bare_start_ms:.2f} ms   "
        f"ratio {r.start_ratio:.2f} (target < {START_TARGET})",
    ]
    if r.start_parts_ms:
        p = r.start_parts_ms
        lines.append(
            f"  of a start   worker before Popen {p['prepare']:.2f} ms   Popen {p['popen']:.2f} ms   "
            f"then bwrap and the bot to its first line {p['to_reply']:.2f} ms "
            f"(the worker waits {p['window']:.2f} ms of it for bwrap's exec)")
    if r.match_ratio is not None:
        lines.append(
            f"4-greedy match sandboxed {r.match_s:9.3f} s    none {r.plain_match_s:.3f} s   "
            f"ratio {r.match_ratio:.2f} (target < {MATCH_TARGET})"
        )
    if r.cgroup is not None:
        lines.append(f"cgroup         {r.cgroup} (workers/sandbox_cgroup_{r.cgroup}.py)")
    if r.start_window == "helper":
        lines.append("start window   the start helper after a vfork (workers/sandbox/spawn.c)")
    elif r.start_window == "python":
        lines.append("start window   Python after a fork of this process: the start helper did not build "
                     "(workers/sandbox/spawn_helper.py)")
    if r.freeze_thaw_ms is not None:
        lines.append(f"freeze + thaw  {r.freeze_thaw_ms:.3f} ms")
    if r.cgroup_join_ms is not None:
        lines.append(f"cgroup join    {r.cgroup_join_ms:.3f} ms of the start")
    return "\n".join(lines)
