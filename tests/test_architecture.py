"""Architecture rules that a test can hold (../shared/design/architecture.md, principles 1 and 2).

- Game rules are pure: nothing in ladder/games imports I/O, clocks, process, database, web or
  queue modules, or the global `random` functions (only `random.Random` seeded from the game).
- Only workers/sandbox/process.py starts bot processes. Besides it, only these start any process at all:
  ladder/cli/serve.py (the ladder's own web, worker and scheduler), ladder/cli/bench/service.py (Celery
  workers to measure) and ladder/cli/bench/sandbox.py (the bare baselines the sandbox is compared
  with: `python3 -c pass`, a plain pipe echo, the repository's own starter kits run bare, and
  `make` for the static kit; never an uploaded bot), and
  ladder/cli/tournament_local.py (the pool of `ladder tournament`, whose processes run matches through
  the runner). The web app never imports the sandbox or the runner.
"""

from __future__ import annotations

import ast
import re
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
    allowed = {"workers/sandbox/process.py", "ladder/cli/serve.py", "ladder/cli/bench/service.py",
               "ladder/cli/bench/sandbox.py", "ladder/cli/tournament_local.py",
               "ladder/cli/bench/soak.py"}  # soak: the CPU hog
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
            if top(name, {"workers.sandbox.process", "workers.match.runner", "workers.sandbox.bwrap", "subprocess"}):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, found


# --- a game is one package (issue #10) ---------------------------------------------------------

SCANNED = (".py", ".html", ".css", ".js", ".ini", ".mako")


def naming_offences(root: Path, games: list[str]) -> list[str]:
    """Files under ladder/, workers/ and bots/ that name a game, except where a game may be named:
    its own package ladder/games/<name>/, the registry ladder/games/__init__.py, the starter
    bots bots/<name>/ and bots/examples/ (bot code for one game, files to copy), and the
    outside bots of bots/gauntlet/ (bot code for one game, written from the docs). A name counts
    when no letter touches it, so `treasure_taken` names it and `treasures` does not."""
    pattern = re.compile(r"(?<![a-z])(" + "|".join(map(re.escape, games)) + r")(?![a-z])", re.IGNORECASE)
    allowed_dirs = ([Path("ladder/games") / g for g in games] + [Path("bots") / g for g in games]
                    + [Path("bots/examples"), Path("bots/gauntlet")])
    found = []
    for folder in ("ladder", "workers", "bots"):
        for path in sorted((root / folder).rglob("*")):
            rel = path.relative_to(root)
            if path.suffix not in SCANNED or not path.is_file() or "__pycache__" in rel.parts:
                continue
            if rel == Path("ladder/games/__init__.py") or any(rel.is_relative_to(d) for d in allowed_dirs):
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if match := pattern.search(line):
                    found.append(f"{rel}:{number} names {match.group(1)!r}")
    return found


def test_no_module_outside_a_games_package_names_a_game():
    from ladder.games import GAMES

    offences = naming_offences(ROOT, sorted(GAMES))
    assert not offences, "\n".join(offences)


def test_the_naming_check_catches_a_game_named_elsewhere(tmp_path):
    for rel, text in {
        "ladder/games/nim/state.py": "NIM = 'nim'",  # its own package: fine
        "ladder/games/__init__.py": 'GAMES = {"nim": "x:Nim"}',  # the registry: fine
        "bots/nim/greedy.py": "# a Nim starter bot",  # its starter file: fine
        "bots/__init__.py": "REFERENCE = {'nim': 'greedy'}",
        "ladder/web/templates/page.html": "{% if game == 'Nim' %}",
        "workers/queue/scheduler.py": "SIZES = {'nim_table': 3}",
        "ladder/cli/play.py": "# nimble is another word",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    offences = naming_offences(tmp_path, ["nim"])
    assert sorted(o.split(":")[0] for o in offences) == ["bots/__init__.py", "ladder/web/templates/page.html",
                                                         "workers/queue/scheduler.py"], offences


PART_LOOKUPS = re.compile(r"GAMES\[|GAMES\.(values|items|get)\(|starter_bots(\[|\.items\(|\.values\(|\.get\()"
                          r"|import_module\(f")


def part_lookup_offences(root: Path) -> list[str]:
    """Code that finds a game's part itself (a registry entry's "module:Class", a starter bot's
    target, a module by naming convention) instead of asking the Game: only the registry
    (ladder/games/__init__.py) and the Game (ladder/games/base.py) may."""
    allowed = {Path("ladder/games/__init__.py"), Path("ladder/games/base.py")}
    found = []
    for folder in ("ladder", "workers", "bots"):
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root)
            if rel in allowed:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if PART_LOOKUPS.search(line):
                    found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_a_games_parts_are_found_only_through_the_game():
    offences = part_lookup_offences(ROOT)
    assert not offences, "\n".join(offences)


def test_the_part_lookup_check_catches_a_lookup_by_convention(tmp_path):
    for rel, text in {
        "ladder/games/__init__.py": "module, cls = GAMES[name].split(':')",  # the registry: fine
        "ladder/services/viewer.py": "importlib.import_module(f'{GAMES[game]}.viewer')",
        "bots/__init__.py": "target = game.starter_bots[name]",
        "workers/match/runner.py": "for target in ladder.games.GAMES.values():",
        "ladder/web/queries.py": "game.bot_module(name)",  # asking the Game: fine
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    offences = part_lookup_offences(tmp_path)
    assert sorted(o.split(":")[0] for o in offences) == ["bots/__init__.py", "ladder/services/viewer.py",
                                                         "workers/match/runner.py"], offences


def test_a_game_registered_by_one_entry_has_bots_tables_and_steps(monkeypatch):
    """The toy game lives in one module and is registered by one GAMES entry: the ladder then
    finds its starter bots, its fallback, its table sizes and a step list, asking it for each."""
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    import toygame

    import bots
    from ladder.games import get_game
    from ladder.matchmaking import TableSize
    from ladder.play import play_builtin
    from ladder.web.steps import steps

    toygame.register(monkeypatch)
    assert bots.builtin_names("toy") == sorted(toygame.ToyGame.starter_bots)
    assert bots.reference_bot("toy") == "fixed"
    assert bots.load_builtin("toy", "fixed") is toygame.FixedBot
    assert ("toy", "random") in bots.builtin_bots()
    assert TableSize.of(get_game("toy")) == TableSize(2, 5, 3)
    replay = play_builtin("toy", ["fixed", "random"], seed=1).replay
    [section] = steps(replay, ["a", "b"])  # no renderer declared: the generic lines
    assert section.lines[0].startswith("start")


# --- layers (issue #25) ------------------------------------------------------------------------


def test_the_command_line_has_no_cycle_and_no_late_import():
    """ladder/cli/__init__.py assembles the commands; no command module imports the package back
    (the old cli.py <-> commands cycle), and nothing there needs an import below its code."""
    found = []
    for path, tree in modules("ladder/cli"):
        rel = path.relative_to(ROOT)
        if rel.name in ("__init__.py", "__main__.py"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "ladder.cli" and node.level == 0:
                found.append(f"{rel}:{node.lineno} imports from ladder.cli itself")
            if isinstance(node, ast.ImportFrom) and node.module == "ladder" and "cli" in {a.name for a in node.names}:
                found.append(f"{rel}:{node.lineno} imports ladder.cli itself")
        if "noqa: E402" in path.read_text():
            found.append(f"{rel}: noqa: E402")
    assert not found, found


def test_the_core_never_imports_the_workers():
    """ladder/ is the core: rules, services, the site. It never imports workers/ (the sandbox, the
    runner, the queue), so a bot package's rules, the runtime table and the upload use case live in
    ladder/. The one exception is ladder/cli/, the composition root, which starts the workers
    (inside its command functions; ladder/cli/bench/ measures them)."""
    found = []
    for path, tree in modules("ladder"):
        rel = path.relative_to(ROOT)
        if rel.is_relative_to("ladder/cli"):
            continue
        for name in imported(tree):
            if top(name, {"workers"}):
                found.append(f"{rel} imports {name}")
    assert not found, found


LONG = 400
REASON = re.compile(r"# Over 400 lines: .{20,}")


def long_module_offences(root: Path) -> list[str]:
    """Modules of ladder/, workers/ and bots/ over 400 lines whose first line does not say why."""
    found = []
    for folder in ("ladder", "workers", "bots"):
        for path in sorted((root / folder).rglob("*.py")):
            lines = path.read_text().splitlines()
            if len(lines) > LONG and not REASON.fullmatch(lines[0]):
                found.append(f"{path.relative_to(root)}: {len(lines)} lines")
    return found


def test_a_module_over_400_lines_says_why_at_its_top():
    offences = long_module_offences(ROOT)
    assert not offences, "split it by what it holds, or start it with '# Over 400 lines: <reason>.':\n" + \
        "\n".join(offences)


def test_the_length_check_catches_a_long_module_without_a_reason(tmp_path):
    body = "x = 1\n" * LONG
    for rel, text in {"ladder/short.py": "x = 1\n", "ladder/long.py": '"""Doc."""\n' + body,
                      "workers/why.py": "# Over 400 lines: one state machine whose steps share state.\n" + body,
                      "bots/vague.py": "# Over 400 lines: long.\n" + body}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert sorted(o.split(":")[0] for o in long_module_offences(tmp_path)) == ["bots/vague.py", "ladder/long.py"]
