"""Fixtures for the sandbox tests: staged bot directories, started bots, host canaries.

The engine-secret canary lives in this test process's environment (as a worker's secrets would):
no bot output may ever contain it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from needs import unavailable

from workers.sandbox import spawn_helper as sandbox_spawn_helper
from workers.sandbox.process import PYTHON, BotProcess

CANARY = os.environ.setdefault("LADDER_SECRET_CANARY", "canary-" + secrets.token_hex(16))
ATTACKS = Path(__file__).parent / "attacks"


def stage(files: dict[str, str]) -> Path:
    """A world-readable bot directory (the sandbox's uid must be able to reach it)."""
    d = Path(tempfile.mkdtemp(prefix="ladder-test-bot-", dir="/tmp"))
    d.chmod(0o755)
    for name, text in files.items():
        (d / name).write_text(text)
        (d / name).chmod(0o644)
    return d


@pytest.fixture(scope="session")
def host_canary():
    """Things outside the sandbox a bot must not read, change or kill."""
    d = Path(tempfile.mkdtemp(prefix="ladder-host-canary-", dir="/tmp"))
    d.chmod(0o755)  # world-readable on purpose: only the mount namespace keeps bots out
    public = d / "secret.txt"
    public.write_text(CANARY)
    public.chmod(0o644)
    other_bot = stage({"main.py": f"# other bot's secret strategy {CANARY}\n"})
    proc = subprocess.Popen(["sleep", "3600"])
    info = {"dir": d, "file": public, "other_bot": other_bot, "proc": proc}
    yield info
    proc.kill()
    proc.wait()
    shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(other_bot, ignore_errors=True)


class Kit:
    """Helpers for one test: start bots (closed and checked at teardown), read reports, check the host."""

    canary = CANARY

    def __init__(self, host: dict):
        self.host = host
        self.started: list[tuple[BotProcess, Path]] = []

    def start(self, source: str, mode: str = "strict", **kw) -> BotProcess:
        """Start an attack (a file name in attacks/) or inline bot source; closed at teardown."""
        if source.endswith(".py") and "\n" not in source:
            files = {"main.py": (ATTACKS / source).read_text(), "_probe.py": (ATTACKS / "_probe.py").read_text()}
        else:
            files = {"main.py": source}
        d = stage(files)
        command = kw.pop("command", [PYTHON, "-E", "-s", "main.py"])
        try:
            bp = BotProcess.start(command, d, mode=mode, **kw)
        except BaseException:
            shutil.rmtree(d, ignore_errors=True)
            raise
        self.started.append((bp, d))
        return bp

    def context(self, **extra) -> bytes:
        """The first line every attack reads: where the host's secrets and processes are."""
        ctx = {
            "canary_file": str(self.host["file"]),
            "canary_dir": str(self.host["dir"]),
            "other_bot_dir": str(self.host["other_bot"]),
            "host_pid": self.host["proc"].pid,
            "engine_pid": os.getpid(),
            **extra,
        }
        return json.dumps(ctx).encode()

    def run(self, attack: str, seconds: float = 10.0, **kw) -> tuple[BotProcess, dict, str]:
        """Start an attack, send it the context, collect its report."""
        bp = self.start(attack, **kw)
        ok, reason = bp.send_line(self.context(), time.monotonic() + 5)
        assert ok, reason
        report, reason = self.collect(bp, seconds)
        return bp, report, reason

    @staticmethod
    def collect(bp: BotProcess, seconds: float = 10.0) -> tuple[dict, str]:
        """Read JSON report lines until one holds "done" (-> "done") or the bot stops answering."""
        report: dict = {}
        deadline = time.monotonic() + seconds
        while True:
            line, reason = bp.read_line(deadline)
            if reason != "ok":
                return report, reason
            msg = json.loads(line)
            report.update(msg)
            if "done" in msg:
                return report, "done"

    def assert_host_unharmed(self, *outputs: object) -> None:
        assert self.host["file"].read_text() == CANARY
        assert sorted(p.name for p in self.host["dir"].iterdir()) == ["secret.txt"]
        assert self.host["proc"].poll() is None, "a host process was killed"
        for bp, _ in self.started:
            outputs += (bp.stderr_tail(),)
        for out in outputs:
            text = out.decode("latin-1") if isinstance(out, bytes) else json.dumps(out)
            assert CANARY not in text, "the engine's secret reached the bot"

    def close_all(self) -> None:
        for bp, d in self.started:
            bp.close()
            shutil.rmtree(d, ignore_errors=True)
            assert bp.clean, "close() left processes or cgroups behind"


@pytest.fixture
def kit(host_canary):
    k = Kit(host_canary)
    yield k
    k.close_all()


def processes_of_uid(uid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("Uid:") and str(uid) in line.split()[1:]:
                    found.append(int(entry.name))
        except OSError:
            pass
    return found


@pytest.fixture
def uid_processes():
    """uid_processes(uid) -> pids of live processes running as that uid."""
    return processes_of_uid


@pytest.fixture(params=["helper", "python"])
def start_window(request, monkeypatch):
    """Each start window: the C start helper after a vfork (where it builds, the default) and the
    Python one after a fork (where it does not: workers/sandbox/spawn_helper.py)."""
    if request.param == "python":
        monkeypatch.setattr(sandbox_spawn_helper, "path", lambda: None)
    elif sandbox_spawn_helper.path() is None:
        unavailable("the start helper could not be built here (a C compiler)")
    return request.param
