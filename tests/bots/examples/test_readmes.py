"""Every starter kit's README, run as written: each command of its ```sh blocks, in order, in a
fresh copy of the kit's folder (what an author has after `git clone`, or after unpacking the kit's
zip from the site), with the `ladder` command of this installation on PATH. Each must exit 0.

This is the new author's walk: `cargo build` then `ladder match .` failed when the build's local
target/ was copied into the sandbox; a README step that stops working fails here. A command that
reads protocol lines from the keyboard gets an empty stdin (it must end cleanly on end of input).
Kits added later are picked up by themselves; a program a README needs that this machine lacks
skips the kit on a laptop and fails in CI (LADDER_REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from needs import unavailable

KITS = Path(__file__).parents[3] / "bots" / "examples"
FENCE = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.M | re.S)
BIN = Path(sys.executable).parent  # the `ladder` command of the installation under test


def commands(readme: Path) -> list[str]:
    """The shell commands of the README's ```sh blocks, in order (blank and comment lines dropped)."""
    found = []
    for block in FENCE.findall(readme.read_text(encoding="utf-8")):
        found += [line.strip() for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return found


def test_every_kit_readme_has_commands():
    kits = sorted(p.parent.name for p in KITS.glob("*/README.md"))
    assert len(kits) >= 8, kits
    for kit in kits:
        steps = commands(KITS / kit / "README.md")
        assert any(s.startswith("ladder match ") for s in steps), f"{kit}: no `ladder match` step in {steps}"


def test_commands_are_read_from_sh_blocks_only(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("Text\n\n```sh\nmake  # builds\n\n# a comment\n./bot\n```\n\n```json\n{}\n```\n"
                      "    indented\n")
    assert commands(readme) == ["make  # builds", "./bot"]


@pytest.mark.parametrize("kit", sorted(p.parent.name for p in KITS.glob("*/README.md")))
def test_kit_readme_runs_as_written(kit, tmp_path):
    steps = commands(KITS / kit / "README.md")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}"}
    missing = sorted({shlex.split(s)[0] for s in steps} - {"ladder"}
                     - {p for p in {shlex.split(s)[0] for s in steps} if shutil.which(p, path=env["PATH"])})
    missing = [p for p in missing if not (p.startswith(("./", "target/")))]  # built by an earlier step
    if missing:
        unavailable(f"the {kit} kit's README needs {', '.join(missing)}")
    folder = tmp_path / kit
    shutil.copytree(KITS / kit, folder, ignore=shutil.ignore_patterns("target", "__pycache__", "bot", "*.zip"))
    for step in steps:
        done = subprocess.run(step, shell=True, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, (f"{kit} README step `{step}` exited {done.returncode}:\n"
                                      f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
