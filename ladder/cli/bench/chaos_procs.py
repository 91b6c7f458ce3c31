"""The processes `ladder bench chaos` runs and breaks: a private redis-server, Celery beat and
fault-injecting workers (ladder/cli/bench/chaos_worker.py), each worker restarted when it dies, as
its supervisor (systemd, compose) would.

Restarts are what limit how many kills a run gets, so a dead worker is replaced at once by a spare
started ahead, its imports done, through the lightest entry there is (the `worker` command itself,
not the whole `ladder` CLI, which loads the web site's modules); the time from its go to "ready"
is kept for the report.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ENTRY = [sys.executable, "-m", "ladder.cli.bench.chaos_worker"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """A redis-server of the bench's own on a free loopback port, without persistence, so a restart
    loses every message as a crashed broker would; only ever this process's own server is killed."""

    def __init__(self, workdir: Path):
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not installed (the chaos bench restarts a private one)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.argv = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                     "--dir", str(workdir)]
        self.proc: subprocess.Popen | None = None
        self.up()

    def client(self):
        import redis

        return redis.Redis(port=self.port, socket_timeout=2)

    def up(self) -> None:
        import redis

        self.proc = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = self.client()
        for _ in range(200):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return
            time.sleep(0.05)
        raise RuntimeError(f"the private redis-server on port {self.port} did not start")

    def restart(self) -> None:
        self.close()
        time.sleep(0.5)
        self.up()

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


def kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=30)


def stop(proc: subprocess.Popen, timeout: float = 30) -> int | None:
    """SIGTERM (a warm shutdown), then SIGKILL the group if it lingers; the exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=timeout)
    kill_group(proc)
    return proc.returncode


class Ladder:
    """Beat and `workers` chaos workers (`concurrency` pool processes each), a dead one replaced at
    once by a warm spare: a worker process started ahead, its imports done (seconds on a loaded
    machine: the models, SQLAlchemy, Celery), waiting for its go file. The next spare starts then.
    Each process logs to a file of its own in `workdir`."""

    def __init__(self, workdir: Path, env: dict[str, str], *, workers: int = 2, concurrency: int = 2):
        self.dir = workdir
        self.env = env
        self.concurrency = concurrency
        self.started = 0
        self.beat = self._start(["scheduler", "-l", "WARNING"], "beat")
        self.ready_seconds: list[float] = []  # from each replacement's go to its "ready"
        self.cold_seconds: list[float] = []  # the first workers: from their start (imports included) to "ready"
        self.waiting: dict[Path, tuple[float, list[float]]] = {}  # a worker not ready yet: since, where to note it
        self.workers = [self._go(self._spare(), self.cold_seconds) for _ in range(workers)]
        self.spare = self._spare()
        self.restarts = 0

    def _start(self, argv: list[str], name: str, **env: str) -> subprocess.Popen:
        with open(self.dir / f"{name}.log", "ab") as out:
            proc = subprocess.Popen([*ENTRY, *argv], env={**self.env, **env}, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        proc.name = name  # type: ignore[attr-defined]
        return proc

    def _spare(self) -> subprocess.Popen:
        self.started += 1
        name = f"worker{self.started}"
        return self._start(["worker", "-c", str(self.concurrency), "-n", f"chaos{self.started}@%h", "-l", "WARNING"],
                           name, LADDER_CHAOS_GO_FILE=str(self.dir / f"{name}.go"))

    def _go(self, proc: subprocess.Popen, note: list[float] | None = None) -> subprocess.Popen:
        (self.dir / f"{proc.name}.go").touch()  # type: ignore[attr-defined]
        self.waiting[self.dir / f"{proc.name}.log"] = (time.monotonic(), self.ready_seconds if note is None else note)  # type: ignore[attr-defined]
        return proc

    def tick(self) -> None:
        """Replace what died (a killed worker, as its supervisor would); note who became ready."""
        for i, proc in enumerate(self.workers):
            if proc.poll() is not None:
                kill_group(proc)  # its pool processes too, if any survived
                self.workers[i] = self._go(self.spare)
                self.spare = self._spare()
                self.restarts += 1
        for log, (since, note) in list(self.waiting.items()):
            if self.count("CHAOS ready", log):
                note.append(time.monotonic() - since)
                del self.waiting[log]

    def count(self, text: str, *logs: Path) -> int:
        return sum(p.read_text(errors="replace").count(text) for p in (logs or self.dir.glob("*.log")))

    def kills(self) -> tuple[int, int]:
        """(pool processes, whole workers) the workers killed so far."""
        return self.count("CHAOS kill pool process"), self.count("CHAOS kill worker")

    def close(self) -> None:
        for proc in (self.beat, *self.workers, self.spare):
            stop(proc, timeout=15)

    def tails(self, chars: int = 3000) -> str:
        logs = sorted(self.dir.glob("*.log"))
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-chars:]}" for p in logs)
