"""The SDK a Python bot finds at /sdk: bots.sdk, bots.forward and the pure rules of every game.

Staged read-only. Sandboxed matches share one copy per machine and code version (`shared_sdk`);
a bot run without a sandbox (mode `none`) gets its own per match (`stage_sdk`).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import py_compile
import stat
import sys
import tempfile
from pathlib import Path

import bots.sdk
from workers.build import packaging

SDK_MOUNT = "/sdk"  # where a bot finds `bots.sdk` (PYTHONPATH); its own files come first


class SdkError(RuntimeError):
    """The shared SDK's folder is there but cannot be trusted."""


SDK_INIT = '"""The ladder\'s bot SDK as provided to bot processes."""\n'
# The forward model (bots/forward.py) imports the game's own rules, so the staged SDK carries the
# pure engine next to it: the package stubs below, ladder/games/__init__.py and base.py, and each
# registered game's rule modules and data files. Never the web app, the database or the workers.
LADDER_INIT = '"""The ladder\'s pure game rules as provided to bot processes (read-only)."""\n'


def sdk_files() -> dict[str, str]:
    """Relative path -> source text of everything the staged SDK holds (at most once per process)."""
    import ladder.games

    games_dir = Path(inspect.getsourcefile(ladder.games)).parent
    files = {
        "bots/__init__.py": SDK_INIT,
        "bots/sdk.py": Path(inspect.getsourcefile(bots.sdk)).read_text(),
        "bots/forward.py": (Path(inspect.getsourcefile(bots.sdk)).parent / "forward.py").read_text(),
        "ladder/__init__.py": LADDER_INIT,
        "ladder/games/__init__.py": (games_dir / "__init__.py").read_text(),
        "ladder/games/base.py": (games_dir / "base.py").read_text(),
    }
    for name in ladder.games.available_games():
        game = ladder.games.get_game(name)
        folder = game.files()
        if folder is None:
            continue  # a one-module game (tests): nothing of it to stage
        package = game.package().replace(".", "/")
        for rel in game.rules_files:  # the pure rules, chosen by inclusion (Game.rules_files)
            files[f"{package}/{rel}"] = folder.joinpath(rel).read_text()
    return files


@functools.cache
def sdk_tree() -> dict[str, bytes]:
    """The staged SDK's files, with bytecode compiled for the bots' interpreter when it is ours.

    Bots cannot write bytecode (read-only files), so without pycs every bot start compiles the
    SDK again: about a tenth of a starter bot's start-up, four times a match. Unchecked-hash pycs
    are used as they are; the staged source never changes. Another version: no pycs, still works.
    """
    files = sdk_files()
    out = {name: text.encode() for name, text in files.items()}
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    if Path(os.path.realpath(packaging.PYTHON)).name != version:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        for name, source in files.items():
            if not name.endswith(".py"):
                continue
            path = Path(tmp) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
            cfile = path.parent / f"{path.stem}.pyc"
            py_compile.compile(str(path), cfile=str(cfile), dfile=f"{SDK_MOUNT}/{name}", doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            folder, _, stem = name.rpartition("/")
            out[f"{folder}/__pycache__/{stem[:-3]}.{sys.implementation.cache_tag}.pyc"] = cfile.read_bytes()
    return out


def stage_sdk(root: Path) -> Path:
    """A read-only copy of the SDK: bots.sdk and bots.forward with an empty bots/__init__.py, and
    the pure rules (`ladder.games`) the forward model imports."""
    sdk = root / "sdk"
    sdk.mkdir()
    folders = {sdk}
    for name, data in sdk_tree().items():
        path = sdk / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(0o444)
        folders.update(p for p in path.parents if p.is_relative_to(sdk))
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        folder.chmod(0o555)
    return sdk


def shared_sdk() -> Path:
    """The staged SDK shared by every sandboxed match on this machine, made once per content.

    Writing it for each match (a hundred-odd files, their folders, then removing them) was the
    largest part of a match's staging. Its content never changes for a given code version, and
    every sandboxed bot sees it through a read-only bind, so one copy serves all: under the temp
    directory, named by its uid and the hash of its content, made in a private temporary folder
    and renamed into place (two workers racing both succeed: the loser's copy is removed). A folder
    of that name is used only if this uid owns it and nobody else may write to it, so another user
    of the machine cannot plant one. Mode `none` bots run unconfined and could alter a shared copy:
    they get their own per match (see workers.match.runner._run).
    """
    return _shared_sdk(tempfile.gettempdir(), os.getuid())


@functools.cache
def _shared_sdk(tmp: str, uid: int) -> Path:
    digest = hashlib.sha256()
    for name, data in sorted(sdk_tree().items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    final = Path(tmp) / f"ladder-sdk-{uid}-{digest.hexdigest()[:24]}"
    if not _trusted(final):
        work = Path(tempfile.mkdtemp(prefix="ladder-sdk-new-", dir=tmp))
        stage_sdk(work)
        (work / "sdk").rename(work / "tree")
        work.chmod(0o555)
        try:
            os.rename(work, final)
        except OSError:  # another worker put it there first (or an untrusted folder has the name)
            packaging.remove_staged(work)
        if not _trusted(final):
            raise SdkError(f"{final} exists and is not this user's read-only SDK: remove it")
    return final / "tree"


def _trusted(folder: Path) -> bool:
    """`folder` is a real directory owned by this uid that no one else may write to."""
    try:
        st = folder.lstat()
    except FileNotFoundError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o222 \
        and (folder / "tree").is_dir()
