"""A runtime's tree: the files a bot sees as /usr and /etc. Exactly its packages' programs, hard
links made once and reused, and in the sandbox no program of another runtime can be run."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from needs import unavailable

from ladder.bot import runtimes
from workers.build import runtime_view
from workers.sandbox.process import BotProcess

PROGRAM_DIRS = ("usr/bin", "usr/sbin", "usr/local/bin")


def _tree(runtime, build=False) -> Path:
    ok, why = runtimes.available(runtime)
    if not ok:
        unavailable(f"the {runtime.name} runtime: {why}")
    return runtime_view.build_tree(runtime) if build else runtime_view.run_tree(runtime)


def _programs(tree: Path) -> set[str]:
    found = set()
    for folder in PROGRAM_DIRS:
        if (tree / folder).is_dir():
            found |= {f"/{folder}/{p.name}" for p in (tree / folder).iterdir()}
    return found


def _named_programs(packages) -> set[str]:
    """Programs in bin folders shipped by these packages, and the alternatives links pointing at them."""
    chosen, _ = runtimes.closure(packages)
    listed = {runtime_view._canonical(p) for name in chosen for p in runtimes.package_files(name)}
    return {p for p in listed if p.startswith(tuple(f"/{d}/" for d in PROGRAM_DIRS))}


@pytest.mark.parametrize("runtime", runtimes.RUNTIMES, ids=lambda r: r.name)
def test_a_bot_sees_only_the_programs_its_row_names(runtime):
    tree = _tree(runtime)
    programs = _programs(tree)
    alternatives = set(runtime_view.alternatives(runtime_view.files_of(runtime.packages)))
    assert programs <= _named_programs(runtime.packages) | alternatives
    for stranger in ("/usr/bin/perl", "/usr/bin/sh", "/usr/bin/bash", "/usr/bin/gcc", "/usr/bin/curl",
                     "/usr/bin/dpkg", "/usr/bin/apt"):
        assert stranger not in programs
    if runtime.name in ("c", "cpp", "rust", "go", "static"):
        assert programs == set()  # a compiled bot runs alone: no program at all beside it
    if runtime.run[0].startswith("/"):
        assert os.access(tree / runtime.run[0].lstrip("/"), os.X_OK)


@pytest.mark.parametrize("runtime", [r for r in runtimes.RUNTIMES if r.compiled], ids=lambda r: r.name)
def test_a_build_sees_its_compiler_a_shell_and_tar_but_no_other_language(runtime):
    programs = _programs(_tree(runtime, build=True))
    assert {"/usr/bin/sh", "/usr/bin/tar", "/usr/bin/cp"} <= programs
    others = {"c": "/usr/bin/python3", "cpp": "/usr/bin/node", "rust": "/usr/bin/go", "go": "/usr/bin/gcc",
              "java": "/usr/bin/perl"}
    assert others[runtime.name] not in programs and "/usr/bin/perl" not in programs


def test_a_tree_is_made_once_and_reused(tmp_path):
    python = runtimes.BY_NAME["python"]
    _tree(python)
    first = runtime_view.tree(tuple(python.packages), tmp_path)
    inode = (first / "usr/bin/python3.11").stat().st_ino
    runtime_view.tree.cache_clear()
    again = runtime_view.tree(tuple(python.packages), tmp_path)
    assert again == first and (again / "usr/bin/python3.11").stat().st_ino == inode
    assert inode == Path("/usr/bin/python3.11").stat().st_ino  # a hard link, not a copy
    assert [p.name for p in tmp_path.iterdir()] == [first.name]  # no half-built tree left behind


def test_an_upgraded_package_gets_a_new_tree(monkeypatch):
    python = runtimes.BY_NAME["python"]
    _tree(python)
    before = runtime_view.key_of(python.packages)
    db = dict(runtimes.installed())
    db["python3-numpy"] = runtimes.Package("python3-numpy", "9.9.9-1", db["python3-numpy"].depends)
    monkeypatch.setattr(runtimes, "installed", lambda: db)
    assert runtime_view.key_of(python.packages) != before


PROBE = r"""
import json, os, subprocess, sys
import numpy, scipy.optimize, scipy.stats
tried = {}
for program in ("/bin/sh", "/usr/bin/perl", "/usr/bin/gcc", "/usr/bin/node", "/usr/bin/dpkg", "/usr/bin/env"):
    try:
        subprocess.run([program, "--version"], capture_output=True, timeout=5)
        tried[program] = "ran"
    except OSError as exc:
        tried[program] = type(exc).__name__
print(json.dumps({"tried": tried, "numpy": numpy.__version__, "bin": sorted(os.listdir("/usr/bin")),
                  "etc": sorted(os.listdir("/etc"))}), flush=True)
"""


def test_in_the_sandbox_a_python_bot_has_numpy_and_scipy_and_can_run_nothing_else(strict_sandbox):
    python = runtimes.BY_NAME["python"]
    tree = _tree(python)
    bot = Path(tempfile.mkdtemp(prefix="view-probe-"))  # under /tmp: the sandbox's uid can reach it
    (bot / "main.py").write_text(PROBE)
    for path in (bot, bot / "main.py"):
        path.chmod(0o755)
    proc = BotProcess.start(list(python.run), bot, mode=strict_sandbox, view=tree)
    try:
        line, reason = proc.read_line(time.monotonic() + 60)
        assert reason == "ok", proc.stderr_tail()
    finally:
        proc.close()
        shutil.rmtree(bot)
    seen = json.loads(line)
    assert seen["numpy"] and set(seen["tried"].values()) == {"FileNotFoundError"}
    assert "python3" in seen["bin"] and "perl" not in seen["bin"] and "sh" not in seen["bin"]
    assert "passwd" not in seen["etc"] and "shadow" not in seen["etc"]
