"""A runtime's files as one directory tree: what the sandbox mounts as /usr and /etc for a bot.

The tree holds the files of the runtime's Debian packages (ladder.bot.runtimes.closure) at their
canonical paths, hard links to the host's files (copies where the kernel refuses a link, e.g. an
unprivileged user under fs.protected_hardlinks), plus what the packages' scripts made outside
their file lists and a runtime needs: the alternatives symlinks that point into the tree (cc,
java, libblas.so.3...) and Python's compiled bytecode next to the sources. Documentation is left
out. One tree per set of packages and versions, built once per machine and kept: an upgrade
changes the versions and so the key, and the old tree keeps the old inodes meanwhile.

Why a tree and not one bind mount per file: bubblewrap's mounts cost about half a millisecond
each, and a Node.js runtime needs some 4,000 files (half a second per bot start, measured); the
whole tree is two mounts.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ladder.bot import runtimes
from workers.cache import cache_root

FORMAT = 2
TOPS = ("/usr/", "/etc/")
SKIPPED = tuple(f"/usr/share/{d}/" for d in ("doc", "man", "info", "lintian", "bug", "locale", "doc-base"))
HOST_ETC = ("/etc/ld.so.cache", "/etc/localtime")  # made by scripts, read by every dynamic program
ALTERNATIVES = Path("/etc/alternatives")
ALTERNATIVES_DB = Path("/var/lib/dpkg/alternatives")


class ViewError(RuntimeError):
    """The runtime's tree cannot be made here (no dpkg database, a package missing)."""


def default_root() -> Path:
    """Where trees are kept: /var/cache/ladder/runtimes for root (the workers), else the user's cache."""
    return cache_root() / "runtimes"


def _canonical(path: str) -> str:
    """The path with its directories resolved (merged /usr: /lib/x -> /usr/lib/x), the last part kept."""
    folder, name = os.path.split(path)
    return os.path.join(os.path.realpath(folder), name)


def files_of(packages: Iterable[str]) -> set[str]:
    """Host paths (files and symlinks) the tree holds for these packages and their dependencies."""
    chosen, _left_out = runtimes.closure(packages)
    found: set[str] = set()
    for package in chosen:
        for listed in runtimes.package_files(package):
            path = _canonical(listed)
            if path.startswith(TOPS) and not path.startswith(SKIPPED) and (
                    os.path.islink(path) or os.path.isfile(path)):
                found.add(path)
    found |= _bytecode(found)
    found |= {p for p in HOST_ETC if os.path.lexists(p)}
    return found


def _bytecode(files: set[str]) -> set[str]:
    """__pycache__/*.pyc of the tree's .py files (py3compile writes them after unpacking)."""
    out = set()
    folders = {os.path.dirname(p) for p in files if p.endswith(".py")}
    for folder in folders:
        cache = os.path.join(folder, "__pycache__")
        with contextlib.suppress(OSError):
            for entry in os.scandir(cache):
                if os.path.join(folder, entry.name.split(".", 1)[0] + ".py") in files:
                    out.add(entry.path)
    return out


def _alternative_groups() -> list[tuple[list[tuple[str, str]], list[tuple[str, int, list[str]]]]]:
    """update-alternatives' database: per group, [(name, link)] (the master first, then its
    slaves) and its choices [(path, priority, [slave paths])]."""
    groups = []
    with contextlib.suppress(OSError):
        for entry in sorted(ALTERNATIVES_DB.iterdir()):
            lines = entry.read_text(errors="replace").split("\n")
            with contextlib.suppress(IndexError, ValueError):
                names = [(entry.name, lines[1])]
                i = 2
                while lines[i]:
                    names.append((lines[i], lines[i + 1]))
                    i += 2
                i += 1
                choices = []
                while i < len(lines) and lines[i]:
                    slaves = lines[i + 2:i + 1 + len(names)]
                    choices.append((lines[i], int(lines[i + 1]), slaves))
                    i += 1 + len(names)
                groups.append((names, choices))
    return groups


def alternatives(files: set[str]) -> dict[str, str]:
    """Symlinks to add (path -> target) for every alternative with a choice in the tree: the
    host's choice when the tree has it, else the tree's best (numpy's libblas.so.3 may point at
    an OpenBLAS that scipy's dependencies did not bring)."""
    links: dict[str, str] = {}
    for names, choices in _alternative_groups():
        master = names[0][0]
        current = os.path.realpath(ALTERNATIVES / master)
        usable = [c for c in choices if os.path.realpath(c[0]) in files or _canonical(c[0]) in files]
        if not usable:
            continue
        chosen = next((c for c in usable if os.path.realpath(c[0]) == current),
                      max(usable, key=lambda c: c[1]))
        targets = [chosen[0], *chosen[2]]
        for (name, link), target in zip(names, targets, strict=False):
            if not target or not (os.path.realpath(target) in files or _canonical(target) in files):
                continue
            links[str(ALTERNATIVES / name)] = target
            links[_canonical(link)] = str(ALTERNATIVES / name)
    return links


def key_of(packages: Iterable[str]) -> str:
    chosen, _ = runtimes.closure(packages)
    db = runtimes.installed()
    text = f"{FORMAT}\n" + "\n".join(f"{p} {db[p].version}" for p in sorted(chosen))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@functools.cache
def tree(packages: tuple[str, ...], root: Path | None = None) -> Path:
    """The tree for `packages` (made on first use, then reused): a directory with usr/ and etc/."""
    if not runtimes.installed():
        raise ViewError("no dpkg database on this host: runtimes are taken from Debian's packages")
    if not os.path.islink("/lib"):
        raise ViewError("runtime trees need a merged-/usr host (/lib a link to usr/lib)")
    missing = [p for p in packages if p not in runtimes.installed()]
    if missing:
        raise ViewError(f"missing Debian packages: apt-get install {' '.join(missing)}")
    root = root or default_root()
    final = root / key_of(packages)
    if (final / ".complete").exists():
        return final
    root.mkdir(parents=True, exist_ok=True)
    for part in (root, *root.parents):  # the sandbox's uids must reach the tree
        if part.is_relative_to(Path.home()) and part != Path.home():
            with contextlib.suppress(OSError):
                part.chmod(part.stat().st_mode | 0o755)
    work = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        for sub in ("usr", "etc"):
            (work / sub).mkdir()
        files = files_of(packages)
        for path in sorted(files):
            _place(path, work / path.lstrip("/"))
        for path, target in sorted(alternatives(files).items()):
            link = work / path.lstrip("/")
            if not link.is_symlink() and path.startswith(TOPS):
                link.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(target, link)
        for dirpath, _dirs, _files in os.walk(work):
            os.chmod(dirpath, 0o755)
        (work / ".complete").write_text("\n".join(packages) + "\n")
        try:
            os.rename(work, final)
        except OSError:  # another process made it first
            if not (final / ".complete").exists():
                raise
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return final


def _place(source: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if os.path.islink(source):
        os.symlink(os.readlink(source), target)
        return
    try:
        os.link(source, target)
    except OSError:  # another file system, or a file this user may not link: copy it
        shutil.copy2(source, target)


def run_tree(runtime: runtimes.Runtime, root: Path | None = None) -> Path:
    return tree(tuple(runtime.packages), root)


def build_tree(runtime: runtimes.Runtime, root: Path | None = None) -> Path:
    return tree((*runtimes.BUILD_BASE, *runtime.build_packages), root)
