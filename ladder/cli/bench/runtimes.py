"""`ladder bench sandbox --runtimes`: what the sandbox costs each runtime's starter kit.

For every runtime of the table (ladder/bot/runtimes.py) that this machine has, its starter kit in
bots/examples/<runtime>/ is made runnable once: a compiled runtime's kit through the ladder's own
compile step (workers.build.builds.compile_bot, in the sandbox mode measured, so its time is the compile
time a new version waits for), the static kit with `make` on the host as its README says, the
others as uploaded. Then, `starts` times each, interleaved so machine noise hits both alike:

- sandboxed: from `BotProcess.start` (the runtime's view as /usr and /etc, the SDK at /sdk, the
  runner's limits and environment) through the `hello` line to the kit's `ready` line;
- bare: the same files and command on the host (the same SDK, host paths for /bot and /sdk), a
  plain subprocess spoken to with the sandbox's pipe code (ladder.cli.bench.sandbox.bare_first_reply).

One start of each side comes first and is not counted (page cache). Figures are medians; the
ratio is sandboxed / bare. A runtime this machine lacks, or whose kit fails to build or start, is
a row that says so, never left out.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ladder.bot import runtimes
from ladder.cli.bench.sandbox import bare_first_reply, make_static_kit
from ladder.games import FLAGSHIP, get_game
from workers.build import builds, packaging, runtime_view
from workers.match import protocol
from workers.sandbox.bwrap import BASE_ENV
from workers.sandbox.process import SandboxError

KITS = Path(__file__).resolve().parents[3] / "bots" / "examples"
START_TIMEOUT_S = 60.0  # a JVM on a busy shared core can take seconds; speed is read here, not judged
BOT_MOUNT = "/bot"
BOT_ENV = {"LADDER_BOT": "1"}  # as the runner starts every bot (bots.sdk moves the protocol off fd 1)


class KitError(RuntimeError):
    """A starter kit did not build or did not answer hello with ready."""


@dataclass(frozen=True)
class RuntimeBench:
    runtime: str
    status: str  # "ok", "unavailable" (this machine lacks it) or "failed" (the kit did not build or start)
    detail: str  # the runtime's version when ok, else why not
    start_ms: float | None = None  # median, sandboxed
    bare_start_ms: float | None = None  # median, the same program bare
    compile_s: float | None = None  # median of the compile step, compiled runtimes only
    starts: int = 0
    compiles: int = 0

    @property
    def start_ratio(self) -> float | None:
        if self.start_ms is None or not self.bare_start_ms:
            return None
        return self.start_ms / self.bare_start_ms


def hello_line() -> bytes:
    """The hello a bot gets as seat 0 of the flagship game's default table."""
    game = get_game(FLAGSHIP)
    return protocol.encode(protocol.hello(
        game=FLAGSHIP, seat=0, players=game.default_players, options=game.resolve_options({}), bot_seed=1,
        time=protocol.TimeControl(),
    ))


def _check_ready(runtime: str, side: str, line: bytes | None, reason: str, log: str = "") -> None:
    if line is None:
        raise KitError(f"the {runtime} kit gave no first line {side} ({reason}){_tail(log)}")
    _info, fault = protocol.decode_ready(line)
    if fault is not None:
        raise KitError(f"the {runtime} kit {side}: {fault.reason}{_tail(log)}")


def _tail(log: str) -> str:
    lines = log.strip().splitlines()
    return f": {lines[-1][:200]}" if lines else ""


def _sandboxed_first_reply(bot: packaging.StagedBot, mode: str, view: Path | None, sdk: Path,
                           line: bytes) -> float:
    from workers.build.sdk import SDK_MOUNT
    from workers.match.runner import runtime_terms
    from workers.sandbox.process import BotProcess, Limits

    match_limits = Limits(line_bytes=protocol.MAX_LINE_BYTES, stderr_bytes=protocol.LOG_BYTES,
                          cpu_seconds=protocol.CPU_BACKSTOP_S)
    limits, _clock = runtime_terms(bot.entry, match_limits, protocol.TimeControl())  # as the runner gives it
    t0 = time.perf_counter_ns()
    proc = BotProcess.start(bot.command, bot.path, mode=mode, limits=limits, extra_ro_binds={SDK_MOUNT: sdk},
                            env={"PYTHONPATH": SDK_MOUNT, **BOT_ENV}, view=view)
    try:
        ok, reason = proc.send_line(line, time.monotonic() + START_TIMEOUT_S)
        reply, reason = proc.read_line(time.monotonic() + START_TIMEOUT_S) if ok else (None, reason)
        elapsed = (time.perf_counter_ns() - t0) / 1e6
    finally:
        proc.close()
    _check_ready(bot.runtime, "in the sandbox", reply, reason, proc.stderr_tail().decode("utf-8", "replace"))
    return elapsed


def bare_command(bot: packaging.StagedBot, sdk: Path, home: Path) -> tuple[list[str], dict[str, str]]:
    """The staged bot's command and environment with host paths: what it runs bare."""
    from workers.build.sdk import SDK_MOUNT

    mapping = {BOT_MOUNT: str(bot.path), SDK_MOUNT: str(sdk)}

    def host(value: str) -> str:
        for inside, outside in mapping.items():
            if value == inside or value.startswith(inside + "/"):
                return outside + value[len(inside):]
        return value

    env = {**BASE_ENV, "HOME": str(home), "TMPDIR": str(home), "PYTHONPATH": str(sdk), **BOT_ENV}
    return [host(arg) for arg in bot.command], env


def _bare_first_reply(bot: packaging.StagedBot, sdk: Path, home: Path, line: bytes) -> float:
    argv, env = bare_command(bot, sdk, home)
    elapsed, reply, reason = bare_first_reply(argv, bot.path, env, line, START_TIMEOUT_S)
    _check_ready(bot.runtime, "bare", reply, reason)
    return elapsed


def _runnable(runtime: runtimes.Runtime, kit: Path, mode: str, compiles: int, work: Path,
              progress: Callable[[str], None]) -> tuple[packaging.StagedBot, list[float]]:
    """The kit staged ready to run, and the compile step's times (none for a runtime without one)."""
    if runtime.name == "static":
        src = work / "static-src"
        shutil.copytree(kit, src)
        progress("static: make (the host's gcc -static, as the kit's README says)")
        ok, output = make_static_kit(src)
        if not ok or not (src / "bot").is_file():
            raise KitError(f"make failed for the static kit{_tail(output)}")
        only = work / "static-bot"
        only.mkdir()
        shutil.copy2(src / "bot", only / "bot")
        return packaging.stage(only, work), []
    staged = packaging.stage(kit, work)
    if not runtime.compiled:
        return staged, []
    times, artifact = [], None
    for i in range(compiles):
        progress(f"{runtime.name}: compiling the kit in sandbox mode {mode} ({i + 1}/{compiles})")
        build = builds.compile_bot(staged, mode=mode)
        if not build.ok:
            raise KitError(f"the {runtime.name} kit did not build: {build.failure().splitlines()[-1]}")
        times.append(build.seconds)
        artifact = artifact or build.artifact
    assert artifact is not None
    return builds.stage_artifact(artifact, staged.entry, work, key=None), times


def bench_runtime(runtime: runtimes.Runtime, *, mode: str, starts: int, compiles: int, sdk: Path, work: Path,
                  progress: Callable[[str], None], kits: Path = KITS) -> RuntimeBench:
    """One row: the runtime's kit built, then `starts` interleaved sandboxed and bare starts."""
    ok, detail = runtimes.available(runtime)
    if not ok:
        return RuntimeBench(runtime.name, "unavailable", detail)
    kit = kits / runtime.name
    if not kit.is_dir():
        return RuntimeBench(runtime.name, "unavailable", f"no starter kit at {kit}")
    if runtime.name == "static" and not shutil.which("make"):
        return RuntimeBench(runtime.name, "unavailable", "the static kit is built with make, which is missing")
    try:
        view = runtime_view.run_tree(runtime) if mode != "none" else None
    except runtime_view.ViewError as exc:
        return RuntimeBench(runtime.name, "unavailable", str(exc))
    compile_times: list[float] = []
    try:
        bot, compile_times = _runnable(runtime, kit, mode, compiles, work, progress)
        home = Path(tempfile.mkdtemp(prefix=f"bare-{runtime.name}-", dir=work))
        line = hello_line()
        progress(f"{runtime.name}: {starts} starts to ready, sandboxed and bare (+1 warm-up each)")
        _sandboxed_first_reply(bot, mode, view, sdk, line)  # warm the page cache for both sides
        _bare_first_reply(bot, sdk, home, line)
        boxed, bare = [], []
        for _ in range(starts):
            boxed.append(_sandboxed_first_reply(bot, mode, view, sdk, line))
            bare.append(_bare_first_reply(bot, sdk, home, line))
    except (KitError, packaging.PackagingError, SandboxError) as exc:
        return RuntimeBench(runtime.name, "failed", str(exc),
                            compile_s=statistics.median(compile_times) if compile_times else None,
                            compiles=len(compile_times))
    return RuntimeBench(
        runtime.name, "ok", detail, start_ms=statistics.median(boxed), bare_start_ms=statistics.median(bare),
        compile_s=statistics.median(compile_times) if compile_times else None, starts=starts,
        compiles=len(compile_times),
    )


def parse_names(text: str | None) -> tuple[str, ...] | None:
    """`--runtimes`: "all" or names separated by commas -> the names (None: all, or not given)."""
    if text is None or text.strip() == "all":
        return None
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in runtimes.BY_NAME]
    if unknown or not names:
        raise ValueError(f"{', '.join(unknown) or 'no runtime named'}: give 'all' or some of "
                         f"{','.join(runtimes.BY_NAME)}")
    return names


def run_runtime_bench(
    names: Sequence[str] | None = None,
    *,
    mode: str = "strict",
    starts: int = 5,
    compiles: int = 1,
    echo: Callable[[str], None] = print,
    progress: Callable[[str], None] = lambda _message: None,
    kits: Path = KITS,
) -> list[RuntimeBench]:
    """Measure the runtimes named (all of the table by default), print the table through `echo`
    and return the rows in the table's order."""
    from workers.build.sdk import stage_sdk

    unknown = sorted(set(names or ()) - set(runtimes.BY_NAME))
    if unknown:
        raise ValueError(f"unknown runtime {', '.join(unknown)} (choose from {', '.join(runtimes.BY_NAME)})")
    chosen = [r for r in runtimes.RUNTIMES if names is None or r.name in names]
    work = Path(tempfile.mkdtemp(prefix="ladder-bench-runtimes-", dir="/tmp"))
    rows = []
    try:
        work.chmod(0o755)  # the sandbox's uids must reach the staged kits and the SDK
        sdk = stage_sdk(work)
        for runtime in chosen:
            rows.append(bench_runtime(runtime, mode=mode, starts=starts, compiles=compiles, sdk=sdk, work=work,
                                      progress=progress, kits=kits))
    finally:
        packaging.remove_staged(work)
    echo(render(rows, mode=mode, starts=starts, compiles=compiles))
    return rows


def render(rows: Sequence[RuntimeBench], *, mode: str, starts: int, compiles: int) -> str:
    lines = [
        f"runtimes: mode {mode}, start to ready {starts}x sandboxed and bare, {compiles} compile(s) each (medians)",
        f"{'runtime':<8} {'sandboxed':>12} {'bare':>12} {'ratio':>6} {'difference':>12} {'compile':>10}",
    ]
    for r in rows:
        compiled = f"{r.compile_s:8.2f} s" if r.compile_s is not None else f"{'-':>10}"
        if r.status == "ok":
            lines.append(f"{r.runtime:<8} {r.start_ms:9.2f} ms {r.bare_start_ms:9.2f} ms {r.start_ratio:6.2f} "
                         f"{r.start_ms - r.bare_start_ms:+9.2f} ms {compiled}")
        else:
            after = f" (compiled in {r.compile_s:.2f} s)" if r.compile_s is not None else ""
            lines.append(f"{r.runtime:<8} {r.status}: {r.detail}{after}")
    return "\n".join(lines)
