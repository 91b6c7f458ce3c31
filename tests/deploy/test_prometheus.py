"""deploy/prometheus: the alert rules load and their unit tests pass under `promtool test rules`
(no match finished in 10 minutes, the oldest queued match past the stale bound, a worker silent),
a rule that no longer fires fails them, and the scrape configuration loads."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from needs import unavailable

HERE = Path(__file__).resolve().parents[2] / "deploy" / "prometheus"


def promtool(*args: str, cwd: Path = HERE) -> subprocess.CompletedProcess:
    tool = shutil.which("promtool")
    if tool is None:
        unavailable("promtool is not installed (apt-get install prometheus)")
    return subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_rules_load_and_their_unit_tests_pass():
    checked = promtool("check", "rules", "alerts.yml")
    assert checked.returncode == 0 and "SUCCESS: 7 rules found" in checked.stdout, checked.stdout + checked.stderr
    tested = promtool("test", "rules", "alerts.test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_a_rule_that_stopped_firing_fails_its_unit_test(tmp_path):
    rules = (HERE / "alerts.yml").read_text()
    (tmp_path / "alerts.yml").write_text(rules.replace('up{job="ladder-worker"} == 0', 'up{job="ladder-worker"} == 2'))
    shutil.copy(HERE / "alerts.test.yml", tmp_path)
    tested = promtool("test", "rules", "alerts.test.yml", cwd=tmp_path)
    assert tested.returncode != 0 and "LadderWorkerSilent" in tested.stdout + tested.stderr


def test_the_scrape_configuration_loads():
    checked = promtool("check", "config", "prometheus.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
