"""The compile step: a compiled runtime's upload is built once, in the sandbox, and the artifact is
kept by hash so every match of that version runs the same files.

A build is a bot process like any other (workers.sandbox.process starts it): the upload read-only at
/bot, the runtime's build tree (its compiler and nothing else, workers.build.runtime_view) as /usr,
no network, its own limits (BUILD_LIMITS: time, memory, processes, output). The recipe from the
runtime table runs in a copy of the upload under /tmp and leaves the artifact in $OUT; the
process's stdout is then a tar of $OUT, and its stderr is the compiler output the owner sees.

The key names everything that decides the artifact: the runtime's recipe and toolchain versions
and the upload's files. A cache maps keys to artifacts: `DirCache` for `ladder match`, and the
database for the ladder's workers (workers.queue.jobs).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ladder.bot import runtimes
from workers.build import packaging, runtime_view

FORMAT = 1
SCRIPT = ('set -e; mkdir -p "$WORK/src" "$OUT"; cp -R "$SRC/." "$WORK/src"; cd "$WORK/src"; '
          '{ %s ; } 1>&2; cd "$OUT"; tar -cf - .')
SANDBOX_WORK = "/tmp/ladder-build"


@dataclass(frozen=True)
class BuildLimits:
    wall_seconds: float = 300.0
    memory_bytes: int = 2 << 30  # the sized /tmp where it builds counts here too
    tmp_bytes: int = 1 << 30
    pids: int = 256  # cargo, go and javac run many threads
    cpu_seconds: int = 600
    artifact_bytes: int = 64 << 20
    artifact_files: int = 2000
    log_bytes: int = 64 << 10


BUILD_LIMITS = BuildLimits()


@dataclass(frozen=True)
class Build:
    key: str
    runtime: str
    ok: bool
    artifact: bytes | None  # an uncompressed tar of the artifact's files
    log: str  # the compiler's output (its tail), or why the build failed
    seconds: float
    toolchain: str

    def failure(self) -> str:
        """The reason a rejected version shows its owner: the compiler's last lines."""
        lines = self.log.strip().splitlines()[-40:]
        return f"the {self.runtime} build failed ({self.toolchain}):\n" + "\n".join(lines)


class BuildFailed(RuntimeError):
    def __init__(self, build: Build):
        super().__init__(build.failure())
        self.build = build


class BuildCache(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def put(self, build: Build) -> None: ...


class DirCache:
    """Artifacts as files, `<key>.tar` and `<key>.log`: `ladder match`'s cache across runs."""

    def __init__(self, root: Path | None = None):
        self.root = root or runtime_view.default_root().parent / "builds"

    def get(self, key: str) -> bytes | None:
        try:
            return (self.root / f"{key}.tar").read_bytes()
        except OSError:
            return None

    def put(self, build: Build) -> None:
        if not build.ok or build.artifact is None:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / f".{build.key}.{os.getpid()}"
        tmp.write_bytes(build.artifact)
        (self.root / f"{build.key}.log").write_text(build.log)
        os.replace(tmp, self.root / f"{build.key}.tar")


def source_digest(path: Path) -> str:
    """sha256 over the staged upload's relative paths and contents (the upload's identity)."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for name in sorted(filenames):
            full = Path(dirpath) / name
            digest.update(full.relative_to(path).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(full.read_bytes()).digest())
    return digest.hexdigest()


def build_key(runtime: runtimes.Runtime, source: str) -> str:
    recipe = f"{FORMAT}\n{runtime.name}\n{runtime.build}\n{sorted(runtime.build_env)}\n{runtimes.version(runtime)}"
    return hashlib.sha256(f"{recipe}\n{source}".encode()).hexdigest()


def compile_bot(staged: packaging.StagedBot, *, mode: str, key: str | None = None,
                limits: BuildLimits = BUILD_LIMITS) -> Build:
    """Build `staged` (a compiled runtime's source) in the sandbox; never raises for the bot's
    faults: a failed build is a Build with ok False and the compiler's message."""
    from workers.sandbox.process import BotProcess, Limits

    runtime = runtimes.BY_ENTRY[staged.entry]
    key = key or build_key(runtime, source_digest(staged.path))
    toolchain = runtimes.version(runtime)
    host_work = None
    if mode == "none":  # no mounts: the recipe works in a fresh host directory instead of /tmp
        host_work = tempfile.mkdtemp(prefix="ladder-build-")
        work, view = host_work, None
    else:
        work, view = SANDBOX_WORK, runtime_view.build_tree(runtime)
    env = {**dict(runtime.build_env), "WORK": work, "OUT": f"{work}/out", "SRC": "/bot", "HOME": "/tmp"}
    if mode == "none":
        env = {k: v.replace("/tmp", host_work) if k != "SRC" else v for k, v in env.items()}
    sandbox_limits = Limits(memory_bytes=limits.memory_bytes, pids=limits.pids, tmp_bytes=limits.tmp_bytes,
                            cpu_seconds=limits.cpu_seconds, nofile=1024, file_bytes=limits.tmp_bytes,
                            line_bytes=limits.artifact_bytes, stderr_bytes=limits.log_bytes)
    started = time.monotonic()
    proc = BotProcess.start(["/bin/sh", "-c", SCRIPT % runtime.build], staged.path, mode=mode,
                            limits=sandbox_limits, env=env, view=view)
    events: dict[str, int] = {}
    try:
        data, reason = proc.read_to_end(started + limits.wall_seconds, limits.artifact_bytes)
        events = proc.limit_events()  # before close() removes the cgroup
    finally:
        proc.close()
        if host_work:
            shutil.rmtree(host_work, ignore_errors=True)
    seconds = time.monotonic() - started
    log = proc.stderr_tail().decode("utf-8", "replace")
    failed = None
    if reason == "timeout":
        failed = f"the build took longer than {limits.wall_seconds:.0f} s"
    elif reason == "oversized":
        failed = f"the build's output is over {limits.artifact_bytes} bytes"
    elif proc.exit_signal is not None:
        failed = f"the build was killed by signal {proc.exit_signal}"
    elif proc.exit_code != 0:
        failed = f"the build exited with code {proc.exit_code}"
    if failed is not None and events.get("oom_kills"):
        failed += f" (out of memory: a build may use {limits.memory_bytes >> 20} MiB, its files in /tmp included)"
    if failed is None:
        try:
            data = _check_artifact(data, runtime, limits)
        except ValueError as exc:
            failed = str(exc)
    if failed is not None:
        return Build(key, runtime.name, False, None, f"{log.rstrip()}\n{failed}".lstrip(), seconds, toolchain)
    return Build(key, runtime.name, True, data, log, seconds, toolchain)


def _members(data: bytes) -> list[tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        return tar.getmembers()


def _check_artifact(data: bytes, runtime: runtimes.Runtime, limits: BuildLimits) -> bytes:
    """The tar the build handed back: plain files and folders only, within the limits, holding
    what the runtime runs. Returns it unchanged; raises ValueError saying what is wrong."""
    try:
        members = _members(data)
    except (tarfile.TarError, EOFError) as exc:
        raise ValueError(f"the build's output is not readable ({exc})") from None
    if len(members) > limits.artifact_files:
        raise ValueError(f"the build made {len(members)} files; at most {limits.artifact_files} are kept")
    names = set()
    for m in members:
        name = os.path.normpath(m.name)
        if name.startswith(("/", "..")) or not (m.isfile() or m.isdir()):
            raise ValueError(f"the build's output holds {m.name!r}, which is not a plain file or folder")
        names.add(name)
    for needed in runtime.executables:
        if needed not in names:
            raise ValueError(f"the build made no {needed} (see the runtime table in docs/bots.md)")
    if not any(n.endswith(".class") for n in names) and runtime.name == "java":
        raise ValueError("the build made no .class file")
    return data


def stage_artifact(artifact: bytes, entry: str, parent: Path, key: str | None = None) -> packaging.StagedBot:
    """The artifact unpacked into a fresh read-only directory, ready to run."""
    runtime = runtimes.BY_ENTRY[entry]
    dest = Path(tempfile.mkdtemp(prefix="ladder-built-", dir=parent))
    dest.chmod(0o755)
    try:
        with tarfile.open(fileobj=io.BytesIO(artifact), mode="r:") as tar:
            tar.extractall(dest, filter="data")
        packaging.seal(dest, runtime.executables)
    except BaseException:
        packaging.remove_staged(dest)
        raise
    return packaging.StagedBot(dest, entry, list(runtime.run), built=True, build_key=key)


def ensure_built(staged: packaging.StagedBot, *, mode: str, cache: BuildCache | None, parent: Path,
                 announce: Callable[[str], None] | None = None) -> tuple[packaging.StagedBot, Build | None]:
    """The runnable bot for `staged`: itself when its runtime has no build, else the cached
    artifact or a fresh build (put in the cache). Returns (bot, the new Build or None when none
    ran); raises BuildFailed with the compiler's message."""
    if not staged.needs_build:
        return staged, None
    runtime = runtimes.BY_ENTRY[staged.entry]
    key = build_key(runtime, source_digest(staged.path))
    artifact = cache.get(key) if cache is not None else None
    build = None
    if artifact is None:
        if announce is not None:
            announce(runtime.name)
        build = compile_bot(staged, mode=mode, key=key)
        if not build.ok:
            raise BuildFailed(build)
        if cache is not None:
            cache.put(build)
        artifact = build.artifact
    assert artifact is not None
    return stage_artifact(artifact, staged.entry, parent, key), build
