"""deploy/systemd's units pass `systemd-analyze verify` with nothing said (a misspelt key or value
is only a warning to systemd, so any output fails here), and the worker's unit delegates its
cgroup and always restarts."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from needs import unavailable

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
NAMES = ("ladder-web.service", "ladder-worker.service", "ladder-scheduler.service")
LADDER = str(Path(sys.executable).with_name("ladder"))  # the installed command stands in for /opt/ladder's


def _verify(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        unavailable("systemd-analyze is not installed (apt-get install systemd)")
    unit = tmp_path / name
    unit.write_text(text.replace("/opt/ladder/bin/ladder", LADDER))
    return subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", NAMES)
def test_each_unit_verifies_silently(tmp_path, name):
    checked = _verify(tmp_path, name, (UNITS / name).read_text())
    said = [line for line in (checked.stdout + checked.stderr).splitlines() if name in line]
    assert checked.returncode == 0 and said == [], checked.stdout + checked.stderr


def test_a_misspelt_directive_is_caught(tmp_path):
    text = (UNITS / "ladder-worker.service").read_text().replace("Restart=always", "Restart=sometimes")
    checked = _verify(tmp_path, "ladder-worker.service", text)
    assert "restart specifier" in checked.stderr


def test_the_worker_delegates_its_cgroup_and_always_restarts():
    units = {}
    for name in NAMES:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str
        parser.read(UNITS / name)
        units[name] = parser["Service"]
    worker = units["ladder-worker.service"]
    assert worker["Delegate"] == "yes" and worker["Restart"] == "always" and worker["KillMode"] == "mixed"
    assert all(units[n]["Restart"] == "always" for n in NAMES)
    assert units["ladder-web.service"]["ExecReload"] == "/bin/kill -HUP $MAINPID"  # gunicorn's graceful reload
