"""`ladder bench check`: a figure more than the tolerance worse than the committed baseline fails
the command, in either direction of "better"; a figure no longer measured fails too."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.cli.bench import check
from ladder.cli.bench.check import Figure, compare

BASE = {"engine.x.us": {"value": 10.0, "unit": "µs"}, "rate": {"value": 200.0, "unit": "/s"}}


def test_worse_by_more_than_the_tolerance_regresses_whichever_way_is_better():
    verdicts = {v.name: v for v in compare(BASE, [Figure("engine.x.us", 12.6, "µs"),
                                                   Figure("rate", 150.0, "/s", lower_is_better=False)])}
    assert verdicts["engine.x.us"].status == "regressed" and verdicts["engine.x.us"].change == pytest.approx(0.26)
    assert verdicts["rate"].status == "regressed"  # 200 -> 150 per second is a third slower
    ok = {v.name: v.status for v in compare(BASE, [Figure("engine.x.us", 12.4, "µs"),
                                                   Figure("rate", 161.0, "/s", lower_is_better=False)])}
    assert ok == {"engine.x.us": "ok", "rate": "ok"}
    better = compare(BASE, [Figure("engine.x.us", 7.0, "µs"), Figure("rate", 400.0, "/s", lower_is_better=False)])
    assert {v.status for v in better} == {"improved"} and not any(v.failed for v in better)


def test_a_figure_no_longer_measured_fails_and_a_new_one_does_not():
    verdicts = {v.name: v for v in compare(BASE, [Figure("engine.x.us", 10.0, "µs"), Figure("new.one", 1.0, "s")])}
    assert verdicts["rate"].status == "missing" and verdicts["rate"].failed
    assert verdicts["new.one"].status == "new" and not verdicts["new.one"].failed


def test_the_command_exits_1_on_a_regression_and_update_writes_the_baseline(tmp_path, monkeypatch):
    now = [Figure("engine.x.us", 10.0, "µs")]
    monkeypatch.setattr(check, "measure", lambda progress, sandbox, **_: list(now))
    path = tmp_path / "baseline.json"
    done = CliRunner().invoke(main, ["bench", "check", "--baseline", str(path), "--no-sandbox"])
    assert done.exit_code == 2 and "write one with --update" in done.output
    done = CliRunner().invoke(main, ["bench", "check", "--baseline", str(path), "--update", "--no-sandbox"])
    assert done.exit_code == 0 and json.loads(path.read_text())["figures"][0]["value"] == 10.0
    now[0] = Figure("engine.x.us", 12.0, "µs")
    assert CliRunner().invoke(main, ["bench", "check", "--baseline", str(path), "--no-sandbox"]).exit_code == 0
    now[0] = Figure("engine.x.us", 13.0, "µs")
    done = CliRunner().invoke(main, ["bench", "check", "--baseline", str(path), "--no-sandbox"])
    assert done.exit_code == 1 and "regressed" in done.output and "engine.x.us" in done.output


def test_the_committed_baseline_is_a_baseline_with_the_engine_and_sandbox_figures():
    figures, machine = check.load_baseline(check.BASELINE)
    assert machine["cores"] >= 1
    assert any(name.startswith("engine.") for name in figures) and "sandbox.start_ratio" in figures
