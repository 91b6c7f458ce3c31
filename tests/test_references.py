"""Every repository path the project's own words name exists: in the documents (docs/*.md,
README.md and the other Markdown files), in Python docstrings and comments, in the comments of the
site's scripts, styles and templates, and in the games' data files. A moved or deleted file then
fails here with where it is still named, instead of leaving a newcomer a dead reference.

A path is recognised only when it starts at the repository's root (`ladder/...`, `docs/...`,
`README.md`): a path relative to its package (`rules/state.py`), outside the repository
(`../shared/...`), inside a URL or an absolute path (`/botdata`), and a bare file name
(`mybot.py`) are not checked, nor a pattern with a placeholder (`bots/<game>/<name>.py`).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP_DIRS = ("ladder", "workers", "bots", "tests", "docs", "bench", ".ci")
TOP_FILES = ("README.md", "Makefile", "pyproject.toml", "Dockerfile", "docker-compose.yml")
SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", "instance", "var"}

# Not preceded by a character that makes it part of something longer: a word, another path (../x,
# /x, a URL's path), a module name (x.docs), a URL scheme or a host (x:docs, x.org/docs).
_PATH = re.compile(
    r"(?<![\w./:~$@-])"
    r"((?:" + "|".join(re.escape(d) for d in TOP_DIRS) + r")/[\w./<>{}*\[\]#-]*"
    r"|(?:" + "|".join(re.escape(f) for f in TOP_FILES) + r")(?![\w.-]*\w))"
)
_PLACEHOLDER = re.compile(r"[<>{}*\[\]]|\.\.\.")  # bots/<game>/, x_{n}, games/*/, a/.../b


def paths_in(text: str) -> list[str]:
    """The repository paths `text` names: each with its trailing sentence punctuation removed,
    templates and patterns left out."""
    found = []
    for match in _PATH.finditer(text):
        path = match.group(1).rstrip(".,:;)")
        if _PLACEHOLDER.search(path):
            continue
        found.append(path)
    return found


def python_words(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a Python module (strings that are code, like
    a test's made-up file tree, are not the module's words)."""
    out = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    previous = tokenize.NEWLINE
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                          tokenize.DEDENT, tokenize.ENCODING):
            out.append((tok.start[0], tok.string))  # a string standing alone as a statement: a docstring
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return out


def _comments(text: str, suffix: str) -> list[tuple[int, str]]:
    """The comments of a script, a style sheet or a template, with their first lines."""
    pattern = {".js": r"//[^\n]*|/\*.*?\*/", ".css": r"/\*.*?\*/", ".html": r"\{#.*?#\}|<!--.*?-->"}[suffix]
    return [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in re.finditer(pattern, text, re.S)]


def sources() -> list[Path]:
    out = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts) or not path.is_file():
            continue
        if path.suffix in (".py", ".md", ".js", ".css", ".html") or (
                path.suffix == ".json" and rel.parts[:2] == ("ladder", "games")):
            out.append(path)
    return out


def words(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return python_words(text)
    if path.suffix in (".js", ".css", ".html"):
        return _comments(text, path.suffix)
    return [(n, line) for n, line in enumerate(text.splitlines(), 1)]  # Markdown, a game's data


def dead_references(root: Path, files: list[Path], checked: list[str] | None = None) -> list[str]:
    """`file:line: path` for each named path that does not exist (`checked` collects every one)."""
    dead = []
    for path in files:
        for line, text in words(path):
            for name in paths_in(text):
                if checked is not None:
                    checked.append(name)
                if not (root / name.split("#")[0]).exists():
                    dead.append(f"{path.relative_to(root)}:{line + text[:text.find(name)].count(chr(10))}: {name}")
    return dead


def test_every_path_the_project_names_exists():
    checked: list[str] = []
    dead = dead_references(ROOT, sources(), checked)
    assert not dead, "named but missing (move the reference with the file):\n" + "\n".join(dead)
    assert len(checked) > 1000  # about 1,700 today: the recognition has not gone blind


@pytest.mark.parametrize(("text", "paths"), [
    ("see docs/rules.md, and ladder/games/base.py.", ["docs/rules.md", "ladder/games/base.py"]),
    ("`workers/sandbox/` (process.py)", ["workers/sandbox/"]),
    ("README.md says so; docs/layout.md#the-layers", ["README.md", "docs/layout.md#the-layers"]),
    ("https://example.org/docs/x.md and http://h/ladder/y.py", []),  # URLs
    ("../shared/design/architecture.md and ./docs/z.md", []),  # outside the repository, or relative
    ("at /botdata, in /work/main/ladder/x.py, or ~/bots/y.py", []),  # absolute
    ("copy mybot.py or main_ml.py; rules/state.py and view/ of the game", []),  # bare or package-relative
    ("bots/<game>/<name>.py, tests/golden/<name>.json, ladder/games/*/schema.json", []),  # placeholders
    ("ladder.docs.api and my_ladder/x.py and README.mdx", []),  # a module name, a longer word
])
def test_paths_are_recognised_precisely(text, paths):
    assert paths_in(text) == paths


def test_a_docstring_or_comment_is_read_but_a_string_in_code_is_not(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("x")
    module = tmp_path / "m.py"
    module.write_text('"""See docs/gone.md and docs/here.md."""\n\n'
                      'TREE = {"docs/made_up.md": ""}  # but docs/also_gone.md is a comment\n\n'
                      'def f():\n    """docs/third_gone.md"""\n')
    assert dead_references(tmp_path, [module]) == ["m.py:1: docs/gone.md", "m.py:3: docs/also_gone.md",
                                                   "m.py:6: docs/third_gone.md"]
