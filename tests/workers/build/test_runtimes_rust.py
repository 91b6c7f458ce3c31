"""The Rust runtime is current Rust: a bot using `let ... else` (stable since 1.65, so refused by
the rustc 1.63 the ladder used to build with) builds in the strict sandbox and runs."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from needs import unavailable

from ladder.bot import runtimes
from workers.build import builds, packaging

MAIN_RS = """\
use std::io::{self, BufRead};

fn first_word(line: &str) -> Option<&str> {
    let Some(word) = line.split_whitespace().next() else {
        return None;
    };
    Some(word)
}

fn main() {
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(word) = first_word(&line) {
            println!("{word}");
        }
    }
}
"""


@pytest.fixture
def parent():
    path = Path(tempfile.mkdtemp(prefix="rust-test-"))
    path.chmod(0o755)
    yield path
    for item in path.iterdir():
        packaging.remove_staged(item)
    shutil.rmtree(path, ignore_errors=True)


def test_let_else_builds_in_the_sandbox_and_runs(strict_sandbox, parent):
    rust = runtimes.BY_NAME["rust"]
    ok, why = runtimes.available(rust)
    if not ok:
        unavailable(f"the rust runtime: {why}")
    assert tuple(int(n) for n in runtimes.version(rust).split()[1].split(".")[:2]) >= (1, 65), runtimes.version(rust)
    folder = parent / "upload"
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text('[package]\nname = "bot"\nversion = "0.1.0"\nedition = "2021"\n')
    (folder / "src" / "main.rs").write_text(MAIN_RS)
    staged = packaging.stage(folder, parent)
    build = builds.compile_bot(staged, mode=strict_sandbox)
    assert build.ok, build.log
    ready = builds.stage_artifact(build.artifact, staged.entry, parent, build.key)
    done = subprocess.run([str(ready.path / "bot")], input="hello world\n", capture_output=True, text=True,
                          timeout=30)
    assert done.stdout == "hello\n"
