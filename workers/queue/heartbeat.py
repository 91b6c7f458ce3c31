"""A worker's heartbeat: a small file the worker rewrites every few seconds, and the check that
reads it (`ladder worker --check`, the compose and systemd health checks).

Why a file written on Celery's own timer, and not `celery inspect ping` or a database row:
- the check needs no broker round trip (a ping goes out through the broker to every worker and
  waits for the replies: seconds, and wrong when the broker is the thing that is down) and no
  database connection per worker every few seconds;
- the timer is the worker's own (a bootstep on `worker.timer`): under Redis it runs inside the
  event loop that takes tasks off the broker, so a loop that hangs stops the heartbeat too, which
  a plain thread of our own would not notice;
- the file is per worker node, in the instance directory of the machine or container it runs in,
  where its health check runs. What Prometheus sees across machines is the same age, served by
  the worker's metrics endpoint (workers/queue/observe.py), and the database's last claim per
  host (ladder/services/monitoring.py).
A worker that stops warmly removes its file; a killed one leaves it to age, and the check fails.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from celery import bootsteps

FOLDER = "heartbeats"


def folder(instance_dir: Path) -> Path:
    return Path(instance_dir) / FOLDER


def path_for(instance_dir: Path, node: str) -> Path:
    return folder(instance_dir) / (re.sub(r"[^A-Za-z0-9@._-]", "_", node)[:200] + ".json")


def write(instance_dir: Path, node: str, now: float | None = None) -> Path:
    """Write `node`'s heartbeat now (atomically: a reader never sees half a file)."""
    target = path_for(instance_dir, node)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"node": node, "pid": os.getpid(), "at": time.time() if now is None else now}))
    os.replace(tmp, target)
    return target


@dataclass(frozen=True, slots=True)
class Beat:
    node: str
    pid: int
    age_s: float


def read_all(instance_dir: Path, now: float | None = None) -> list[Beat]:
    now = time.time() if now is None else now
    beats = []
    for path in sorted(folder(instance_dir).glob("*.json")):
        try:
            data = json.loads(path.read_text())
            beats.append(Beat(str(data["node"]), int(data["pid"]), max(0.0, now - float(data["at"]))))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being replaced, or not ours
    return beats


def check(instance_dir: Path, *, max_age: float, node: str | None = None, now: float | None = None) -> tuple[bool, str]:
    """(alive, what to print): `node`'s heartbeat (or, without a node, the freshest one) is younger
    than `max_age` seconds."""
    beats = read_all(instance_dir, now)
    if node is not None:
        beats = [b for b in beats if b.node == node]
    if not beats:
        return False, f"no worker heartbeat{f' of {node}' if node else ''} in {folder(instance_dir)}"
    freshest = min(beats, key=lambda b: b.age_s)
    what = f"worker {freshest.node} (pid {freshest.pid}) beat {freshest.age_s:.1f} s ago"
    if freshest.age_s > max_age:
        return False, f"{what}: silent for more than {max_age:g} s"
    return True, what


class Heartbeat(bootsteps.StartStopStep):
    """The worker's bootstep: a heartbeat at start, then every `worker_heartbeat_interval` seconds."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.tref = None
        self.path: Path | None = None

    def start(self, worker):
        settings = worker.app.settings
        self.path = write(settings.instance_dir, worker.hostname)
        self.tref = worker.timer.call_repeatedly(settings.worker_heartbeat_interval, self.beat,
                                                 (settings.instance_dir, worker.hostname), priority=10)

    def beat(self, instance_dir: Path, node: str) -> None:
        self.path = write(instance_dir, node)

    def stop(self, worker):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        if self.path is not None:
            self.path.unlink(missing_ok=True)
