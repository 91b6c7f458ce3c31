"""bwrap command lines: the flags that matter are there, paths and variables are validated."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from workers.sandbox.bwrap import (
    BASE_ENV,
    BOT_MOUNT,
    SandboxConfigError,
    bwrap_argv,
    check_readable_by_others,
    sandbox_env,
)


def argv(tmp_path, **kw):
    tmp_path.chmod(0o755)
    return bwrap_argv(["/usr/bin/python3", "main.py"], tmp_path, seccomp_fd=7, tmp_bytes=1000,
                      shm_bytes=500, **kw)


def pairs(args: list[str], flag: str, width: int) -> list[list[str]]:
    return [args[i + 1:i + 1 + width] for i, a in enumerate(args) if a == flag]


def test_isolation_flags_and_command(tmp_path):
    a = argv(tmp_path)
    sep = a.index("--")
    opts = a[:sep]
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
                 "--clearenv"):
        assert flag in opts
    assert a[sep + 1:] == ["/usr/bin/python3", "main.py"]
    assert pairs(opts, "--seccomp", 1) == [["7"]]
    assert [str(tmp_path.resolve()), BOT_MOUNT] in pairs(opts, "--ro-bind", 2)
    assert ["/usr", "/usr"] in pairs(opts, "--ro-bind", 2)
    assert pairs(opts, "--remount-ro", 1) == [["/dev"], ["/"]]
    # Each tmpfs is sized (an unsized one is unbounded memory).
    tmpfs_at = [i for i, x in enumerate(opts) if x == "--tmpfs"]
    assert [opts[i + 1] for i in tmpfs_at] == ["/tmp", "/dev/shm"]
    assert [opts[i - 3] for i in tmpfs_at] == ["1000", "500"]


def test_the_network_namespace_is_kept_only_when_asked(tmp_path):
    """`share_net`: bwrap keeps the slot's namespace its start window joined (workers/sandbox/netns.py);
    every other namespace is still new."""
    assert "--share-net" not in argv(tmp_path)
    opts = argv(tmp_path, share_net=True)
    opts = opts[:opts.index("--")]
    assert opts.count("--share-net") == 1 and opts.index("--share-net") > opts.index("--unshare-all")


def test_environment_is_base_plus_caller(tmp_path):
    a = argv(tmp_path, env={"PYTHONPATH": "/sdk"})
    env = {k: v for k, v in pairs(a[:a.index("--")], "--setenv", 2)}
    assert env == {**BASE_ENV, "PYTHONPATH": "/sdk"}


@pytest.mark.parametrize("key", ["", "A=B", "NUL\0"])
def test_bad_variable_names_refused(key):
    with pytest.raises(SandboxConfigError):
        sandbox_env({key: "x"})


@pytest.mark.parametrize("target", ["/", "/usr", "/usr/lib", "/bot", "/bot/x", "sdk", "/sdk/../usr", "/tmp/x",
                                    "/proc"])
def test_bad_mount_points_refused(tmp_path, target):
    with pytest.raises(SandboxConfigError):
        argv(tmp_path, extra_ro_binds={target: tmp_path})


def test_extra_bind_added(tmp_path):
    a = argv(tmp_path, extra_ro_binds={"/sdk": tmp_path})
    assert [str(tmp_path.resolve()), "/sdk"] in pairs(a, "--ro-bind", 2)


def test_empty_command_refused(tmp_path):
    with pytest.raises(SandboxConfigError):
        bwrap_argv([], tmp_path, seccomp_fd=3, tmp_bytes=1, shm_bytes=1)


def test_private_directories_are_reported():
    top = Path(tempfile.mkdtemp(prefix="ladder-test-", dir="/tmp"))
    try:
        top.chmod(0o755)
        private = top / "private"
        private.mkdir(mode=0o700)
        bot = private / "bot"
        bot.mkdir(mode=0o755)
        with pytest.raises(SandboxConfigError, match="/private is not readable"):
            check_readable_by_others(bot)
        private.chmod(0o711)  # searchable is enough for the directories on the way
        check_readable_by_others(bot)
        bot.chmod(0o711)  # but the bot's own directory must be listable
        with pytest.raises(SandboxConfigError, match="/bot is not readable"):
            check_readable_by_others(bot)
    finally:
        shutil.rmtree(top)
