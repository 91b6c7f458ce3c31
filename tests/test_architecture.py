"""Architecture rules that a test can hold (../shared/design/architecture.md, principles 1 and 2).

- Game rules are pure: nothing in ladder/games imports I/O, clocks, process, database, web or
  queue modules, or the global `random` functions (only `random.Random` seeded from the game).
- Only workers/sandbox.py starts bot processes. Besides it, only these start any process at all:
  ladder/serve.py (the ladder's own web, worker and scheduler), ladder/bench/service.py (Celery
  workers to measure) and ladder/bench/sandbox.py (the bare baselines the sandbox is compared
  with: `python3 -c pass` and a plain pipe echo, fixed programs, never bot code), and
  workers/tournament_local.py (the pool of `ladder tournament`, whose processes run matches through
  the runner). The web app never imports the sandbox or the runner.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPURE = {"os", "sys", "time", "datetime", "subprocess", "socket", "threading", "multiprocessing", "asyncio",
          "flask", "sqlalchemy", "sqlmodel", "celery", "kombu", "redis", "requests", "urllib", "http", "io",
          "shutil", "tempfile", "pathlib", "workers", "ladder.web", "ladder.services", "ladder.db"}
PROCESS_STARTERS = {"subprocess", "multiprocessing", "pty", "concurrent.futures"}
PROCESS_CALLS = {"fork", "forkpty", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "spawnv",
                 "spawnve", "spawnl", "posix_spawn", "posix_spawnp", "system", "popen"}


def modules(folder: str):
    for path in sorted((ROOT / folder).rglob("*.py")):
        yield path, ast.parse(path.read_text(), filename=str(path))


def imported(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def top(name: str, banned: set[str]) -> str | None:
    return next((b for b in banned if name == b or name.startswith(b + ".")), None)


def test_game_rules_import_nothing_impure():
    found = []
    for path, tree in modules("ladder/games"):
        for name in imported(tree):
            if top(name, IMPURE) and not name.startswith("importlib"):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, found


def test_game_rules_use_no_global_random():
    found = []
    for path, tree in modules("ladder/games"):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"
                    and node.attr != "Random"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} from random import ...")
    assert not found, found


def test_only_the_sandbox_and_the_supervisor_start_processes():
    allowed = {"workers/sandbox.py", "ladder/serve.py", "ladder/bench/service.py", "ladder/bench/sandbox.py",
               "workers/tournament_local.py"}
    found = []
    for folder in ("ladder", "workers", "bots"):
        for path, tree in modules(folder):
            rel = str(path.relative_to(ROOT))
            if rel in allowed:
                continue
            for name in imported(tree):
                if top(name, PROCESS_STARTERS):
                    found.append(f"{rel} imports {name}")
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in PROCESS_CALLS and isinstance(node.value, ast.Name) \
                        and node.value.id == "os":
                    found.append(f"{rel}:{node.lineno} os.{node.attr}")
    assert not found, found


def test_the_web_app_never_reaches_bot_code():
    found = []
    for path, tree in modules("ladder/web"):
        for name in imported(tree):
            if top(name, {"workers.sandbox", "workers.runner", "workers.sandbox_bwrap", "subprocess"}):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, found
