"""The runtime table: one row per language, read by everything; what each row exposes is exactly
its named packages' programs; this machine (CI) has every runtime."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from needs import unavailable

from ladder.bot import runtimes
from ladder.bot.runtimes import RUNTIMES

ROOT = Path(__file__).parents[2]


def test_each_runtime_has_its_own_entry_point_and_a_kit():
    assert len({r.entry for r in RUNTIMES}) == len(RUNTIMES) == len({r.name for r in RUNTIMES})
    assert {r.name for r in RUNTIMES} == {"python", "python-ml", "node", "c", "cpp", "rust", "go", "java", "static"}
    for r in RUNTIMES:
        assert runtimes.by_entry(r.entry) is r
        assert r.compiled == (r.name in ("c", "cpp", "rust", "go", "java"))
        if r.compiled:  # a build leaves its artifact where the compile step collects it
            assert '"$OUT' in r.build
        assert (ROOT / "bots" / "examples" / r.name / "README.md").is_file()


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda r: r.name)
def test_each_runtime_is_installed_here(runtime):
    ok, detail = runtimes.available(runtime)
    if not ok:
        unavailable(f"the {runtime.name} runtime: {detail}")
    assert detail


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda r: r.name)
def test_a_dependency_that_brings_a_program_is_left_out_unless_the_row_names_it(runtime):
    if not runtimes.installed():
        unavailable("no dpkg database on this machine")
    for roots in (runtime.packages, (*runtimes.BUILD_BASE, *runtime.build_packages) if runtime.compiled else ()):
        chosen, left_out = runtimes.closure(roots)
        assert set(roots) <= chosen | {r for r in roots if r not in runtimes.installed()}
        assert not chosen & left_out
        for package in chosen - set(roots):
            assert not runtimes.ships_programs(package), (runtime.name, package)
        for package in left_out:
            assert runtimes.ships_programs(package)
    # the languages must not bring a shell, perl or another interpreter to a running bot
    chosen, _ = runtimes.closure(runtime.packages)
    assert not chosen & {"dash", "bash", "perl-base", "perl", "coreutils", "dpkg"}
    if not runtime.name.startswith("python"):
        assert "python3.11-minimal" not in chosen


def test_versions_are_read_from_dpkg_as_upstream_versions():
    assert runtimes._upstream("1:1.24.2-1+deb12u1") == "1.24.2"
    assert runtimes._upstream("17.0.15+6-1~deb12u1") == "17.0.15"
    assert runtimes._upstream("2:1.19~1") == "1.19~1"
    assert runtimes._bare("libc6:any (>= 2.34)") == "libc6"


def test_a_host_without_dpkg_runs_interpreters_but_no_compiled_runtime(monkeypatch):
    monkeypatch.setattr(runtimes, "installed", lambda: {})
    assert runtimes.available(runtimes.BY_NAME["static"])[0]
    assert not runtimes.available(runtimes.BY_NAME["rust"])[0]
    assert "dpkg" in runtimes.available(runtimes.BY_NAME["c"])[1]


def test_a_missing_package_is_named_with_the_install_command(monkeypatch):
    db = dict(runtimes.installed())
    db.pop("golang-1.19-go", None)
    monkeypatch.setattr(runtimes, "installed", lambda: db)
    ok, why = runtimes.available(runtimes.BY_NAME["go"])
    assert not ok and "apt-get install" in why and "golang-1.19-go" in why
    assert "go (" in runtimes.report_line().split("missing:")[1]


def test_the_package_list_for_ci_and_the_dockerfile_needs_no_virtualenv():
    # .ci/run and the Dockerfile ask the table itself before anything is installed
    done = subprocess.run([sys.executable, "-S", "-m", "ladder.bot.runtimes", "--packages"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    packages = done.stdout.split()
    assert packages == runtimes.debian_packages()
    assert {"python3-numpy", "python3-scipy", "nodejs", "gcc", "g++", "rustc-web", "cargo-web", "golang-go",
            "openjdk-17-jdk-headless"} <= set(packages)
    for name in ("Dockerfile", ".ci/run"):
        assert "ladder.bot.runtimes --packages" in (ROOT / name).read_text(), name


def test_docs_show_the_table_as_the_code_has_it():
    assert runtimes.markdown_table() in (ROOT / "docs" / "bots.md").read_text()
