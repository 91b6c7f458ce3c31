"""bubblewrap command lines for the strict and user sandboxes (argument building only, no processes).

Inside the sandbox a bot sees: read-only /usr (plus the /bin, /lib, /lib64, /sbin links a merged-/usr
host has), a few harmless /etc pieces, its own files read-only at /bot (the working directory),
optional extra read-only binds (e.g. the SDK at /sdk), a fresh /proc of its own pid namespace, a
minimal /dev, sized tmpfs mounts at /tmp and /dev/shm, and a read-only root: nothing else of the
host. All namespaces are new (the network one may instead be its slot's own: workers/sandbox/netns.py;
no network either way), no nested user namespaces, a new session (no controlling terminal), an
environment holding only what `sandbox_env` returns.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

BWRAP = "/usr/bin/bwrap"
BOT_MOUNT = "/bot"
# Harmless pieces of /etc that runtimes look for (alternatives: e.g. /usr/bin/nodejs links there).
ETC_PIECES = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/localtime")
TOP_LINKS = ("/bin", "/lib", "/lib64", "/sbin")
# The only variables a bot gets unless the caller adds its own (never secrets: the caller decides).
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
}


# The thread pools of the math libraries a runtime may load (OpenMP, which torch and
# scikit-learn use; OpenBLAS, numpy's BLAS; MKL, BLIS; numexpr; Go's scheduler) each size
# themselves from the machine's core count, not the bot's CPU quota: on a 64-core worker one bot
# would start 64 threads against a pids limit of 64 and a quota of one core.
THREAD_POOL_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                         "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "GOMAXPROCS")


def thread_env(cpus: float) -> dict[str, str]:
    """Every thread pool pinned to the bot's CPU quota (at least one thread)."""
    threads = str(max(1, math.ceil(cpus)))
    return dict.fromkeys(THREAD_POOL_VARIABLES, threads)


class SandboxConfigError(ValueError):
    """The caller asked for something the sandbox cannot set up (bad path, bad mount point)."""


def sandbox_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    merged = dict(BASE_ENV)
    for key, value in (env or {}).items():
        if not key or "=" in key or "\0" in key or "\0" in value:
            raise SandboxConfigError(f"invalid environment variable {key!r}")
        merged[key] = value
    return merged


def check_readable_by_others(path: str | Path) -> None:
    """bwrap runs as an unprivileged uid: every directory on the way must be world-searchable."""
    p = Path(path).resolve()
    if not p.is_dir():
        raise SandboxConfigError(f"{path} is not a directory")
    for part in (p, *p.parents):
        mode = part.stat().st_mode
        if not mode & stat.S_IXOTH or (part == p and not mode & stat.S_IROTH):
            raise SandboxConfigError(
                f"{part} is not readable/searchable by other users; the sandboxed uid cannot see {path}"
            )


def _check_mount_point(target: str) -> None:
    norm = os.path.normpath(target)
    if not target.startswith("/") or norm != target or norm in ("/", "/usr", "/proc", "/dev", "/tmp"):
        raise SandboxConfigError(f"invalid mount point {target!r}")
    if norm.startswith(("/usr/", "/proc/", "/dev/", "/tmp/", BOT_MOUNT + "/")) or norm == BOT_MOUNT:
        raise SandboxConfigError(f"mount point {target!r} would hide or sit inside another mount")


def bwrap_argv(
    command: Sequence[str],
    bot_dir: str | Path,
    *,
    seccomp_fd: int,
    tmp_bytes: int,
    shm_bytes: int,
    extra_ro_binds: Mapping[str, str | Path] | None = None,
    env: Mapping[str, str] | None = None,
    view: str | Path | None = None,
    status_fd: int | None = None,
    rw_binds: Mapping[str, str | Path] | None = None,
    share_net: bool = False,
    dev: str | Path | None = None,
) -> list[str]:
    """The full argv: bwrap, its options, `--`, then the bot's command as seen inside.

    `view` is a runtime's tree (workers.build.runtime_view): its usr/ and etc/ become /usr and /etc, so
    the bot sees its runtime's files and nothing else of the host's. Without it the host's /usr
    and a few /etc pieces are shown (local debugging on a host without a dpkg database).
    `status_fd` gets bwrap's JSON status: the init's pid, and an exit code only if the command
    was started (what tells a sandbox that failed from a bot that did: workers/match/blame.py).
    `rw_binds` are the only host folders the bot may write (its data folder: workers/build/bot_data.py).
    `share_net` keeps the network namespace bwrap is started in: the slot's own, which the start window
    joined (workers/sandbox/netns.py), never the host's. `dev` is the read-only folder of device
    nodes shown as /dev (workers/sandbox/devices.py); without it bwrap builds the same /dev (--dev)."""
    if not command:
        raise SandboxConfigError("empty command")
    argv = [
        BWRAP,
        "--unshare-all",  # user, ipc, pid, net, uts, cgroup namespaces
        *(["--share-net"] if share_net else []),  # net: the slot's, joined before bwrap (netns.py)
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",  # no TIOCSTI into the engine's terminal
        "--hostname", "bot",
        "--clearenv",
    ]
    for key, value in sandbox_env(env).items():
        argv += ["--setenv", key, value]
    if view is not None:
        view = Path(view).resolve()
        argv += ["--ro-bind", str(view / "usr"), "/usr", "--ro-bind", str(view / "etc"), "/etc"]
        for link in TOP_LINKS:  # a view needs a merged /usr (runtime_view checks): links only
            if os.path.islink(link):
                argv += ["--symlink", os.readlink(link), link]
    else:
        argv += ["--ro-bind", "/usr", "/usr"]
        for link in TOP_LINKS:
            if os.path.islink(link):
                argv += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                argv += ["--ro-bind", link, link]
        for piece in ETC_PIECES:
            argv += ["--ro-bind-try", piece, piece]
    argv += ["--ro-bind", str(Path(bot_dir).resolve()), BOT_MOUNT]
    for target, source in sorted((extra_ro_binds or {}).items()):
        _check_mount_point(target)
        argv += ["--ro-bind", str(Path(source).resolve()), target]
    for target, source in sorted((rw_binds or {}).items()):
        _check_mount_point(target)
        argv += ["--bind", str(Path(source).resolve()), target]
    argv += [
        "--proc", "/proc",
        # The folder is a read-only mount already; a remount would add nodev (devices.py).
        *(["--dev-bind", str(dev), "/dev"] if dev is not None else ["--dev", "/dev"]),
        "--size", str(int(tmp_bytes)), "--perms", "1777", "--tmpfs", "/tmp",
        "--size", str(int(shm_bytes)), "--perms", "1777", "--tmpfs", "/dev/shm",
        # The root and /dev tmpfs are unsized: nothing may be written outside /tmp and /dev/shm.
        *(["--remount-ro", "/dev"] if dev is None else []),
        "--remount-ro", "/",
        "--chdir", BOT_MOUNT,
        "--seccomp", str(seccomp_fd),
        *(["--json-status-fd", str(status_fd)] if status_fd is not None else []),
        "--",
        *command,
    ]
    return argv
