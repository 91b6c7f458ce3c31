"""The start helper: spawn.c, built once per machine, which does a bot's start window in C.

Why: a `preexec_fn` (workers/sandbox/preexec.py) makes CPython's subprocess copy the whole worker
with fork(), and the child then runs Python, touching pages the parent shares with it copy-on-write,
before its exec: about 4 ms of every strict start on the baseline machine, a sixth of a bot's start
(issue #29). Without a preexec_fn, CPython uses vfork() (nothing copied), execs the helper, and the
helper joins the cgroups, sets the limits, drops the uid and execs bwrap, the same steps in the same
order, failures reported by step and errno as before.

Built with the machine's C compiler into the worker's cache (/var/cache/ladder/spawn for root),
named by the source's hash, static where libc's static archive is there (an exec without the
dynamic loader). Where no compiler is found, or the build fails, starts keep the Python start window
and say so once on stderr: slower, never less isolated.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from workers.cache import cache_root

SOURCE = Path(__file__).with_name("spawn.c")


def _build(target: Path) -> str | None:
    """Compile to `target` (atomically); the compiler's complaint when it cannot."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return "no C compiler (cc) on PATH"
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".build-")
    os.close(fd)
    try:
        for static in (["-static"], []):  # static first: no dynamic loader at each start
            done = subprocess.run([compiler, "-O2", *static, "-o", tmp, str(SOURCE)],
                                  capture_output=True, text=True, timeout=120)
            if done.returncode == 0:
                os.chmod(tmp, 0o755)
                os.replace(tmp, target)  # two processes building at once: either one wins whole
                return None
            said = done.stderr.strip().splitlines()
            complaint = said[-1] if said else f"exit {done.returncode}"
        return f"{compiler} failed: {complaint}"
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _usable(path: Path) -> bool:
    """Ours and writable by nobody else: root execs it before it drops its uid."""
    try:
        stats = [path.stat(), path.parent.stat()]  # a folder others may write: they could swap it
    except OSError:
        return False
    return all(st.st_uid == os.geteuid() and not st.st_mode & 0o022 for st in stats) and os.access(path, os.X_OK)


@functools.cache
def path() -> str | None:
    """The helper's path, built on first use; None where it cannot be (the Python start window)."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    # The worker's cache first; a private temporary folder where that is read-only (the VM stage
    # shares this machine's files read-only; a container may mount its cache so).
    for folder in (cache_root() / "spawn", None):
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="ladder-spawn-"))
        target = folder / f"ladder-spawn-{digest}"
        if _usable(target):
            return str(target)
        try:
            why = _build(target)
        except (OSError, subprocess.SubprocessError) as exc:  # a read-only cache, a compiler that hangs
            why = f"{type(exc).__name__}: {exc}"
        if why is None and _usable(target):
            return str(target)
    sys.stderr.write(f"ladder: sandbox starts use the slower Python start window: the start helper "
                     f"could not be built ({why})\n")
    return None
