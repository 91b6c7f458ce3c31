"""Every Python step of the Dockerfile, run against this checkout and its installed package.

The image build is too slow for CI, and its inline steps went stale unnoticed once (an import of
workers.build.runtimes after it moved to ladder/bot/runtimes.py). So the Dockerfile's RUN lines are
read here and each Python command in them is run: the ones before the `pip install` with the
system python3 over only the files the Dockerfile copied by then (as in the image), the ones
after with the installed package's interpreter.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = "/opt/ladder/bin/python"


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, argument) pairs, continuation lines joined, comments dropped."""
    lines, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        current += " " + line.removesuffix("\\").strip() if current else line.removesuffix("\\").strip()
        if not raw.rstrip().endswith("\\"):
            lines.append(current)
            current = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]


PYTHON_STEP = re.compile(r"(?:^|[\s$(&;|])((?:/opt/ladder/bin/)?python3?) ((?:-[mc]) (?:\"[^\"]*\"|\S+)(?: [^&;|)]*)?)")


def python_steps(text: str) -> list[tuple[bool, list[str], list[str]]]:
    """Each Python command of a RUN line: (after the pip install?, its arguments, files copied so far)."""
    steps, copied, installed = [], [], False
    for op, arg in instructions(text):
        if op == "COPY":
            copied.extend(shlex.split(arg)[:-1])
        if op != "RUN":
            continue
        for match in PYTHON_STEP.finditer(arg):
            args = shlex.split(match.group(2))
            if args[0] == "-m" and args[1] == "venv":
                continue
            steps.append((installed, args, list(copied)))
        if "pip install" in arg:
            installed = True
    return steps


def test_the_dockerfile_runs_no_inline_python():
    # an inline -c program is code no linter or test reads: each step is a module CI runs below
    text = (ROOT / "Dockerfile").read_text()
    assert [args for _, args, _ in python_steps(text) if args[0] == "-c"] == []


def test_the_parser_finds_both_kinds_of_step():
    text = (ROOT / "Dockerfile").read_text()
    found = [(after, args[:2]) for after, args, _ in python_steps(text)]
    assert (False, ["-m", "ladder.bot.runtimes"]) in found
    assert (True, ["-m", "workers.build.image"]) in found
    stale = 'RUN /opt/ladder/bin/python -c "from workers.build import runtimes"\n'
    assert python_steps("RUN pip install .\n" + stale)[0][:2] == (True, ["-c", "from workers.build import runtimes"])


def test_every_python_step_of_the_dockerfile_runs(tmp_path):
    steps = python_steps((ROOT / "Dockerfile").read_text())
    assert steps
    system_python = shutil.which("python3")
    for installed, args, copied in steps:
        if installed:  # the image's venv: this checkout's installed package
            result = subprocess.run([sys.executable, *args], cwd=tmp_path, capture_output=True, text=True,
                                    timeout=600)
        else:  # before the install: the system python3 over only what was copied by then (WORKDIR /app)
            app = tmp_path / "app"
            for source in copied:
                target = app / source
                target.parent.mkdir(parents=True, exist_ok=True)
                (shutil.copytree if (ROOT / source).is_dir() else shutil.copy)(ROOT / source, target)
            result = subprocess.run([system_python, "-E", "-s", *args], cwd=app, capture_output=True, text=True,
                                    timeout=120)
        assert result.returncode == 0, f"{' '.join(args)}: {result.stderr[-2000:]}"
        assert result.stdout.strip(), f"{' '.join(args)} printed nothing"
