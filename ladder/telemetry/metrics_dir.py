"""Where a process keeps its multiprocess metrics (prometheus_client's PROMETHEUS_MULTIPROC_DIR).

A module of its own that never imports prometheus_client: the variable must be set before the
client is first imported, which decides then whether values go to files (ladder/telemetry/metrics.py). Each
`ladder web` and `ladder worker` gets a folder of its own under the base (the variable's value, or
the instance's `metrics/`), wiped at start, as the client's documentation asks, so values of a
previous run never add up; its gunicorn or pool children inherit it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def use_multiproc_dir(instance_dir: Path, role: str, environ: dict | None = None) -> Path:
    """Point this process (and the children it forks) at a fresh folder of its own for
    multiprocess metrics: `<base>/<role>-<pid>`, base from PROMETHEUS_MULTIPROC_DIR or
    `<instance>/metrics`. Folders of the same role whose process is gone are removed."""
    environ = os.environ if environ is None else environ
    if "prometheus_client.values" in sys.modules and environ is os.environ:
        # too late: this process's values would stay in its memory, and a scrape would miss them
        print(f"{MULTIPROC_ENV} set after prometheus_client was imported: metrics of {role}'s child processes "
              "will be missing (ladder/telemetry/metrics_dir.py)", file=sys.stderr)
    base = Path(environ.get(f"LADDER_{MULTIPROC_ENV}") or environ.get(MULTIPROC_ENV) or instance_dir / "metrics")
    base.mkdir(parents=True, exist_ok=True)
    for old in base.glob(f"{role}-*"):
        pid = old.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    folder = base / f"{role}-{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    environ[f"LADDER_{MULTIPROC_ENV}"] = str(base)  # where the next role's folder goes
    environ[MULTIPROC_ENV] = str(folder)
    return folder


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
